"""``vaultkit search`` (full-text recall over the store or any vault) and ``vaultkit related``."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from vaultkit import api
from vaultkit.cli.app import command
from vaultkit.cli.common import resolve_vault
from vaultkit.cli.options import typer_option
from vaultkit.cli.search_run import SearchArgs, run
from vaultkit.cli.spec import LIMIT, SEARCH_OPT, TEXT_FORMAT


class Kind(StrEnum):
    wiki = "wiki"
    summary = "summary"
    transcript = "transcript"
    note = "note"


class Format(StrEnum):
    text = "text"
    json = "json"


FormatOpt = Annotated[Format, typer_option(TEXT_FORMAT)]
LimitOpt = Annotated[int, typer_option(LIMIT, min=1)]


def _opt(field: str, **settings: Any) -> typer.models.OptionInfo:
    """The typer option of the SearchArgs field ``field`` (declared in cli/spec.py)."""
    return typer_option(SEARCH_OPT[field], **settings)


@command("search")
def search(
    query: Annotated[str, typer.Argument(help='Words, "a phrase", prefix*, a OR b, -excluded.')],
    folder: Annotated[
        Path | None,
        typer.Argument(
            help="A store or vault folder (default: this project's sessions/).", show_default=False
        ),
    ] = None,
    kind: Annotated[list[Kind] | None, _opt("kind")] = None,
    since: Annotated[str | None, _opt("since")] = None,
    tag: Annotated[list[str] | None, _opt("tag")] = None,
    agent: Annotated[str | None, _opt("agent")] = None,
    author: Annotated[str | None, _opt("author")] = None,
    limit: LimitOpt = 10,
    fmt: FormatOpt = Format.text,
    refresh: Annotated[bool | None, _opt("refresh", show_default=False)] = None,
    quiet: Annotated[bool, _opt("quiet")] = False,
    all_projects: Annotated[bool, _opt("all_projects")] = False,
) -> None:
    """Ask in keywords or as a question: common words (how, do, 어떻게, 如何...) are left out,
    English words match in any form (callouts finds callout). Notes are ranked by BM25 with
    titles, headings, aliases and tags above body text, and by how much of the query they
    hold and where (a title, the lead paragraph, one section); a note holding only some of
    the words says "complete": false in JSON. Chinese, Japanese and Korean are
    found by any part of a word, one character and up. An empty or partial answer says why
    and what to try (on stderr; "advice" in JSON). Exit 1 when nothing matched.

    \b
    Examples:
      vaultkit search "schema migration" examples/sessions
      vaultkit search 'migr*' --type wiki --since 2026-11-01
      vaultkit search 규칙 --format json
      vaultkit search "How do I make a callout collapsible?" ~/vault
      vaultkit search "retry policy" --author alice
      vaultkit search "rate limit" --all-projects
    """
    args = SearchArgs(
        query=query,
        folder=folder,
        kind=tuple(k.value for k in kind or ()),
        since=since,
        tag=tuple(tag or ()),
        agent=agent,
        author=author,
        limit=limit,
        fmt=fmt.value,
        refresh=refresh,
        quiet=quiet,
        all_projects=all_projects,
    )
    code = run(args)
    if code:
        raise typer.Exit(code)


@command("related")
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
    """Near means a link either way, shared tags, links to the same notes, or being linked together
    from one note; rare shared things count more than common ones, and INDEX.md counts for nothing.

    \b
    Examples:
      vaultkit related "Idempotent imports" examples/sessions/wiki
      vaultkit related concepts/Rule\\ precedence.md --format json
    """
    result = api.related(resolve_vault(vault), note, limit)
    if fmt is Format.json:
        typer.echo(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
        return
    if not result.related:
        typer.echo(
            f"{result.note}: no related notes (no links, shared tags or neighbours)", err=True
        )
    for item in result.related:
        typer.echo(f"{item.path}  {item.score:.2f}  {'; '.join(item.reasons)}")
