"""``vaultkit graph``, ``vaultkit links`` and ``vaultkit stats``: the link graph from the shell."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from vaultkit.cli.app import app
from vaultkit.cli.common import resolve_vault
from vaultkit.cli.graph_run import GraphArgs, run
from vaultkit.cli.options import VaultArg
from vaultkit.cli.stats_run import StatsArgs
from vaultkit.cli.stats_run import run as run_stats
from vaultkit.errors import VaultkitError
from vaultkit.vault import analysis
from vaultkit.vault.model import NOTE_SUFFIX
from vaultkit.vault.resolve import ResolvedLink, resolve_target

if TYPE_CHECKING:
    from vaultkit.vault.load import Vault


def _load(vault: Path | None) -> Vault:
    """Load the vault a command names; the engine is imported only when a command runs."""
    from vaultkit.vault.load import load_vault

    return load_vault(resolve_vault(vault))


class GraphFormat(StrEnum):
    json = "json"
    graphml = "graphml"
    gexf = "gexf"
    dot = "dot"


class TextFormat(StrEnum):
    text = "text"
    json = "json"


TextFormatOpt = Annotated[TextFormat, typer.Option("--format", "-f", help="Output format.")]


@app.command()
def graph(
    vault: VaultArg = None,
    fmt: Annotated[GraphFormat, typer.Option("--format", "-f", help="Export format.")] = (
        GraphFormat.json
    ),
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE (atomically).")
    ] = None,
) -> None:
    """Export the vault's link graph (notes, attachments, ghosts; one edge per link).

    \b
    Examples:
      vaultkit graph examples/sessions/wiki --format dot -o vault.dot
      vaultkit graph --format graphml -o wiki.graphml   # this project's sessions/wiki
    """
    run(GraphArgs(vault, fmt.value, output))


def _path_inside(vault: Vault, note: str) -> str | None:
    """``note`` as a vault path when it names an existing file inside the vault."""
    candidate = Path(note).expanduser()
    if not candidate.is_file():
        candidate = vault.root / note
    try:
        rel = candidate.resolve().relative_to(vault.root.resolve())
    except (OSError, ValueError):
        return None
    return rel.as_posix() if vault.note(rel.as_posix()) else None


def find_note(vault: Vault, note: str) -> tuple[str, ...]:
    """Vault paths ``note`` names, the one used first: a file path, a vault path, or a name
    resolved like a link from the vault root (several paths when that name is ambiguous)."""
    found = _path_inside(vault, note)
    if found is not None:
        return (found,)
    name = note[: -len(NOTE_SUFFIX)] if note.lower().endswith(NOTE_SUFFIX) else note
    resolution = resolve_target(vault.index, analysis.INDEX_NAME, name)
    if resolution.path is not None and vault.note(resolution.path):
        return resolution.candidates if resolution.ambiguous else (resolution.path,)
    hint = "give the note's file name (without .md) or its path inside the vault"
    if resolution.alias_of:
        hint = f"'{note}' is an alias of {', '.join(resolution.alias_of)}; pass that note instead"
    raise VaultkitError(f"{note}: no such note in {vault.root}", hint=hint)


def _link_row(item: ResolvedLink, *, incoming: bool) -> dict[str, Any]:
    link = item.link
    row: dict[str, Any] = {"line": link.line, "col": link.col, "kind": link.kind}
    if incoming:
        row["source"] = item.source
    row |= {"target": link.target, "subpath": link.subpath, "display": link.display}
    if not incoming:
        row["resolved"] = item.resolution.path
    row["ambiguous"] = item.resolution.ambiguous
    return row


def _written(item: ResolvedLink) -> str:
    link = item.link
    sub = f"#{link.subpath}" if link.subpath else ""
    return f"{link.target}{sub}"


def _text_section(title: str, rows: tuple[ResolvedLink, ...], *, incoming: bool) -> list[str]:
    lines = [f"{title} ({len(rows)}):"]
    for item in rows:
        where = f"{item.link.line}:{item.link.col}"
        if incoming:
            lines.append(f"  {item.source}:{where}  {item.link.kind}  {_written(item)}")
        else:
            to = item.resolution.path or "(ghost)"
            lines.append(f"  {where}  {item.link.kind}  {_written(item)} -> {to}")
    return lines


@app.command()
def links(
    note: Annotated[str, typer.Argument(help="Note path or bare name, as in [[name]].")],
    vault: VaultArg = None,
    incoming: Annotated[bool, typer.Option("--incoming", help="Only backlinks.")] = False,
    outgoing: Annotated[bool, typer.Option("--outgoing", help="Only outgoing links.")] = False,
    fmt: TextFormatOpt = TextFormat.text,
) -> None:
    """Show a note's outgoing links (with where each resolves) and its backlinks.

    \b
    Examples:
      vaultkit links "Transaction fingerprint" examples/sessions/wiki
      vaultkit links "concepts/Idempotent imports.md" examples/sessions/wiki --incoming
    """
    if not note.strip():
        raise typer.BadParameter(
            "give a note's name or path, not an empty string", param_hint="NOTE"
        )
    loaded = _load(vault)
    path, *others = find_note(loaded, note)
    if others:
        typer.echo(f"note: '{note}' also names {', '.join(others)}; showing {path}", err=True)
    show_out, show_in = (outgoing or not incoming), (incoming or not outgoing)
    out = analysis.outgoing(loaded, path) if show_out else ()
    back = analysis.backlinks(loaded, path) if show_in else ()
    if fmt is TextFormat.json:
        data: dict[str, Any] = {"note": path}
        if show_out:
            data["outgoing"] = [_link_row(i, incoming=False) for i in out]
        if show_in:
            data["incoming"] = [_link_row(i, incoming=True) for i in back]
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    lines = _text_section(f"outgoing from {path}", out, incoming=False) if show_out else []
    lines += _text_section(f"incoming to {path}", back, incoming=True) if show_in else []
    typer.echo("\n".join(lines))


@app.command()
def stats(
    vault: VaultArg = None,
    fmt: TextFormatOpt = TextFormat.text,
) -> None:
    """Count notes, attachments, links by kind, ghosts, orphans, dead ends, degraded notes, tags.

    \b
    Examples:
      vaultkit stats examples/sessions/wiki
      vaultkit stats --format json        # this project's sessions/wiki
    """
    run_stats(StatsArgs(vault, fmt.value))
