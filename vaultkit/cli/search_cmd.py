"""``vaultkit search`` (full-text recall over the store or any vault) and ``vaultkit related``."""

from __future__ import annotations

import json
import os
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.base.store import find_store
from vaultkit.cli.app import app
from vaultkit.cli.common import resolve_vault
from vaultkit.cli.progress import progress_for
from vaultkit.errors import VaultkitError


class Kind(StrEnum):
    wiki = "wiki"
    summary = "summary"
    transcript = "transcript"
    note = "note"


class Format(StrEnum):
    text = "text"
    json = "json"


FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="Output format.")]
LimitOpt = Annotated[int, typer.Option("--limit", "-n", min=1, help="Show at most N results.")]


def _folder(arg: Path | None) -> Path:
    if arg is not None:
        if not arg.expanduser().is_dir():
            raise VaultkitError(f"{arg}: not a folder", hint="pass a store or vault folder")
        return arg.expanduser().resolve()
    root = find_store().root
    if not root.is_dir():
        raise VaultkitError(
            f"{root}: this project has no session store yet",
            hint="pass a folder, e.g. `vaultkit search 'schema' examples/sessions`",
        )
    return root


def _since(text: str | None) -> str:
    if not text:
        return ""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError as exc:
        raise VaultkitError(f"--since {text!r}: not a date", hint="write it as 2026-11-30") from exc


def _shown(root: Path) -> str:
    rel = os.path.relpath(root, Path.cwd())
    return (
        ""
        if rel == "."
        else (root.as_posix() if rel.startswith("..") else Path(rel).as_posix()) + "/"
    )


@app.command()
def search(
    query: Annotated[str, typer.Argument(help='Words, "a phrase", prefix*, a OR b, -excluded.')],
    folder: Annotated[
        Path | None,
        typer.Argument(
            help="A store or vault folder (default: this project's sessions/).", show_default=False
        ),
    ] = None,
    kind: Annotated[
        list[Kind] | None,
        typer.Option("--type", "-t", help="Only wiki, summary, transcript or note (repeatable)."),
    ] = None,
    since: Annotated[
        str | None, typer.Option(help="Only documents dated on or after DATE (YYYY-MM-DD).")
    ] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option(help="Only notes with this tag (or a child tag); repeatable."),
    ] = None,
    agent: Annotated[
        str | None, typer.Option(help="Only notes written for this agent (frontmatter agent:).")
    ] = None,
    limit: LimitOpt = 10,
    fmt: FormatOpt = Format.text,
    refresh: Annotated[
        bool | None,
        typer.Option(
            "--refresh/--no-refresh",
            help="Re-read changed files first, or trust the index (default: re-read unless"
            " the index holds over 20,000 documents).",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Search the memory: wiki notes, summaries (archived too) and readable transcripts.

    Ranked by BM25 with titles and headings above body text. Chinese, Japanese and Korean are
    found by any part of a word, one character and up. Exit 1 when nothing matched.

    \b
    Examples:
      vaultkit search "schema migration" examples/sessions
      vaultkit search 'migr*' --type wiki --since 2026-11-01
      vaultkit search 규칙 --format json
    """
    from vaultkit.search.find import Filters
    from vaultkit.search.recall import search_folder

    root = _folder(folder)
    filters = Filters(
        tuple(k.value for k in kind or ()), _since(since), tuple(tag or ()), agent or "", limit
    )
    found = search_folder(root, query, filters, update=refresh, progress=progress_for(quiet))
    if found.refresh.skipped:
        typer.echo(
            f"note: {found.refresh.total} documents indexed; changed files were not re-read"
            " (vaultkit search --refresh re-reads them)",
            err=True,
        )
    if fmt is Format.json:
        typer.echo(
            json.dumps({"root": root.as_posix(), **found.as_json()}, ensure_ascii=False, indent=2)
        )
    else:
        prefix = _shown(root)
        for hit in found.hits:
            typer.echo(f"{prefix}{hit.path}:{hit.line}: {hit.title} ({hit.kind}, {hit.date})")
            typer.echo(f"    {hit.snippet}")
        if not found.hits:
            typer.echo(f"no results for {query!r} in {found.refresh.total} documents", err=True)
    if not found.hits:
        raise typer.Exit(1)


@app.command()
def related(
    note: Annotated[
        str, typer.Argument(help="A note: its vault path, or its name as in [[name]].")
    ],
    vault: Annotated[
        Path | None,
        typer.Argument(
            help="Vault folder (default: this project's sessions/wiki).", show_default=False
        ),
    ] = None,
    limit: LimitOpt = 10,
    fmt: FormatOpt = Format.text,
) -> None:
    """Show the notes nearest to NOTE in the link graph, ranked, with why.

    Near means a link either way, shared tags, links to the same notes, or being linked together
    from one note; rare shared things count more than common ones, and INDEX.md counts for nothing.

    \b
    Examples:
      vaultkit related "Idempotent imports" examples/sessions/wiki
      vaultkit related concepts/Rule\\ precedence.md --format json
    """
    from vaultkit.search.recall import related_notes

    result = related_notes(resolve_vault(vault), note, limit)
    if fmt is Format.json:
        typer.echo(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
        return
    if not result.related:
        typer.echo(
            f"{result.note}: no related notes (no links, shared tags or neighbours)", err=True
        )
    for item in result.related:
        typer.echo(f"{item.path}  {item.score:.2f}  {'; '.join(item.reasons)}")
