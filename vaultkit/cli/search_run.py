"""What ``vaultkit search`` does once its options are known, without typer: the typer command
(cli/search_cmd.py) and the quick path (cli/quick.py) both call :func:`run`.

:func:`read_quick` reads the plain forms (``--opt value``, ``--opt=value``, ``-t value``, flags,
the query then one folder). Anything else, or anything typer would reject (a bad ``--type``,
``--limit 0``, a missing query), is left to typer (returns None), so help, usage errors and
their exit codes stay typer's own. ``OPTIONS`` comes from the same declarations as the typer
command's options (cli/spec.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from vaultkit.base.isodate import since_date
from vaultkit.base.record import Record
from vaultkit.cli import quickwords
from vaultkit.cli.progress import progress_for
from vaultkit.cli.spec import SEARCH, spellings, valued
from vaultkit.errors import VaultkitError

KINDS = ("wiki", "summary", "transcript", "note")
FORMATS = ("text", "json")


class SearchArgs(Record):
    """The options of one ``vaultkit search`` run."""

    query: str
    folder: Path | None = None
    kind: tuple[str, ...] = ()
    since: str | None = None
    tag: tuple[str, ...] = ()
    agent: str | None = None
    author: str | None = None
    limit: int = 10
    fmt: str = "text"
    refresh: bool | None = None  # None: re-read changed files unless the index is very large
    quiet: bool = False
    all_projects: bool = False  # every store this user has, not only this project's


# Option spelling -> the SearchArgs field it sets; VALUED take a value, the rest are flags.
OPTIONS = spellings(*SEARCH)
VALUED = frozenset(valued(*SEARCH))
REPEATABLE = frozenset({"kind", "tag"})


def _valid(field: str, value: str) -> bool:
    """Whether typer would take ``value`` for ``field`` as it is."""
    if not value or value.startswith("-"):
        return False
    if field == "kind":
        return value in KINDS
    if field == "fmt":
        return value in FORMATS
    if field == "limit":
        return value.isascii() and value.isdigit() and int(value) >= 1
    return True


def _option_word(word: str) -> bool:
    """Whether typer reads ``word`` as an option (or an option with its value attached):
    ``--since``, ``--type=wiki``, ``-q``, ``-fjson``, ``-n5``; not ``-foo`` or ``-legacy``."""
    if word.startswith("--") or word in OPTIONS or word in ("-h", "-"):
        return True
    head, rest = word[:2], word[2:]
    if head == "-f":
        return rest in FORMATS
    if head == "-n":
        return rest.isascii() and rest.isdigit()
    if head == "-t":
        return rest in KINDS
    return False


def dashed_query(argv: list[str]) -> list[str]:
    """``vaultkit search ARGV…`` with the words that start with ``-`` but are no option
    (``-foo``: "not foo", as the README says) read as the query's, after ``--``: ``-legacy
    parser`` and ``parser -legacy`` search for parser without legacy; a last word that is a
    folder stays the folder. Anything else is returned unchanged."""
    options: list[str] = []
    positional: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--":
            positional.extend(words)
        elif OPTIONS.get(word) in VALUED:
            options.extend((word, next(words, "")))
        elif _option_word(word) or not word.startswith("-"):
            (options if word.startswith("-") else positional).append(word)
        else:
            positional.append(word)
    if not any(p.startswith("-") and len(p) > 1 for p in positional):
        return argv
    folder = positional[-1:] if len(positional) > 1 and os.path.isdir(positional[-1]) else []
    query = positional[: len(positional) - len(folder)]
    return [*options, "--", " ".join(query), *folder]


def read_quick(argv: list[str]) -> SearchArgs | None:
    """The options of ``vaultkit search ARGV…`` when every word is plain and valid; else None."""
    words = quickwords.split(argv, OPTIONS, VALUED, most=2)
    if words is None:
        return None
    single: dict[str, str] = {}
    many: dict[str, list[str]] = {"kind": [], "tag": []}
    for field, value in words.values:
        if not _valid(field, value) or field in single:
            return None
        if field in REPEATABLE:
            many[field].append(value)
        else:
            single[field] = value
    flags = {field: name != "--no-refresh" for field, name in words.flags}
    positional = words.positional
    return _args(positional, single, many, flags)


def _args(
    positional: list[str],
    single: dict[str, str],
    many: dict[str, list[str]],
    flags: dict[str, bool],
) -> SearchArgs | None:
    if not positional:
        return None  # typer's "Missing argument 'QUERY'"
    return SearchArgs(
        query=positional[0],
        folder=Path(positional[1]) if len(positional) > 1 else None,
        kind=tuple(many["kind"]),
        since=single.get("since"),
        tag=tuple(many["tag"]),
        agent=single.get("agent"),
        author=single.get("author"),
        limit=int(single.get("limit", "10")),
        fmt=single.get("fmt", "text"),
        refresh=flags.get("refresh"),
        quiet=flags.get("quiet", False),
        all_projects=flags.get("all_projects", False),
    )


def _folder(arg: Path | None) -> Path:
    from vaultkit.base.store import find_store
    from vaultkit.cli.common import up_to_date

    if arg is not None:
        if not arg.expanduser().is_dir():
            raise VaultkitError(f"{arg}: not a folder", hint="pass a store or vault folder")
        return up_to_date(arg.expanduser().resolve())
    root = find_store().root
    if not root.is_dir():
        raise VaultkitError(
            f"{root}: this project has no session store yet",
            hint="pass a folder, e.g. `vaultkit search 'schema' examples/sessions`",
        )
    return up_to_date(root)


def _shown(root: Path) -> str:
    rel = os.path.relpath(root, Path.cwd())
    return (
        ""
        if rel == "."
        else (root.as_posix() if rel.startswith("..") else Path(rel).as_posix()) + "/"
    )


def run(args: SearchArgs) -> int:
    """Search, print the hits (notes and "no results" on stderr); 1 when nothing matched."""
    from vaultkit import api

    if args.all_projects:
        return _run_across(args)
    root = _folder(args.folder)
    progress = progress_for(args.quiet)
    found = api.search(root, args.query, update=args.refresh, progress=progress, **_narrow(args))
    if found.note:
        print(f"note: {found.note}", file=sys.stderr)
    if found.refresh.skipped:
        print(
            f"note: {found.refresh.total} documents indexed; changed files were not re-read"
            " (vaultkit search --refresh re-reads them)",
            file=sys.stderr,
        )
    hits = found.hits  # redacted by the API as they are shown
    if args.fmt == "json":
        import json  # only for --format json: the text form stays lighter

        data = {"root": root.as_posix(), **found.as_json()}
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        prefix = _shown(root)
        for hit in hits:
            print(f"{prefix}{hit.path}:{hit.line}: {hit.title} ({hit.kind}, {hit.date})")
            print(f"    {hit.snippet}")
        if not found.hits:
            total = found.refresh.total
            print(f"no results for {args.query!r} in {total} documents", file=sys.stderr)
        for line in found.advice:
            print(f"note: {line}", file=sys.stderr)
    return 0 if found.hits else 1


def _narrow(args: SearchArgs) -> dict[str, object]:
    """The filters of ``args`` as :func:`vaultkit.api.search` takes them (``--since`` checked)."""
    return {
        "kinds": args.kind,
        "since": since_date(args.since),
        "tags": args.tag,
        "agent": args.agent or "",
        "limit": args.limit,
        "author": args.author or "",
    }


def _run_across(args: SearchArgs) -> int:
    """``--all-projects``: every store this user has, each hit prefixed by its store."""
    from vaultkit import api
    from vaultkit.base.store import find_store

    if args.folder is not None:
        raise VaultkitError(
            f"{args.folder}: --all-projects searches every store, not one folder",
            hint="drop the folder, or drop --all-projects",
        )
    found = api.search_everywhere(args.query, here=find_store().root, **_narrow(args))
    for reason in found.skipped:
        print(f"note: not searched: {reason}", file=sys.stderr)
    if args.fmt == "json":
        import json

        print(json.dumps(found.as_json(), ensure_ascii=False, indent=2))
    else:
        for item in found.hits:
            hit, store = item.hit, _shown(Path(item.project) / "sessions")
            print(f"{store}{hit.path}:{hit.line}: {hit.title} ({hit.kind}, {hit.date})")
            print(f"    {hit.snippet}")
        if not found.hits:
            print(f"no results for {args.query!r} in {found.stores} stores", file=sys.stderr)
    return 0 if found.hits else 1
