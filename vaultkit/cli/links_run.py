"""What ``vaultkit links`` does once its options are known, without typer: the typer command
(cli/graph_cmd.py) and the quick path (cli/quick.py) both call :func:`run`.

:func:`read_quick` reads the plain forms (the note, one vault folder, ``--incoming``,
``--outgoing``, ``--format``/``-f`` text|json) and leaves anything else, or anything typer would
reject (an empty note name among them), to typer (None). ``OPTIONS`` lists every option the
typer command has; a test compares the two.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vaultkit.cli import quickwords
from vaultkit.cli.common import resolve_vault
from vaultkit.cli.spec import INCOMING, OUTGOING, TEXT_FORMAT, spellings, valued
from vaultkit.errors import VaultkitError
from vaultkit.vault import analysis
from vaultkit.vault.model import NOTE_SUFFIX
from vaultkit.vault.resolve import resolve_target

if TYPE_CHECKING:
    from vaultkit.vault.load import Vault
    from vaultkit.vault.resolve import ResolvedLink

FORMATS = ("text", "json")
# Option spelling -> the LinksArgs field it sets; only fmt takes a value.
LINKS_OPTS = (INCOMING, OUTGOING, TEXT_FORMAT)
OPTIONS = spellings(*LINKS_OPTS)


@dataclass(frozen=True, slots=True)
class LinksArgs:
    """The options of one ``vaultkit links`` run."""

    note: str
    vault: Path | None = None
    incoming: bool = False
    outgoing: bool = False
    fmt: str = "text"


def read_quick(argv: list[str]) -> LinksArgs | None:
    """The options of ``vaultkit links ARGV…`` when every word is plain and valid; else None."""
    words = quickwords.split(argv, OPTIONS, valued(*LINKS_OPTS), most=2)
    if words is None or len(words.values) > 1:
        return None  # typer's call, as is a second --format
    fmt = words.values[0][1] if words.values else None
    if fmt is not None and fmt not in FORMATS:
        return None
    positional = words.positional
    flags = {field for field, _ in words.flags}
    if not positional or not positional[0].strip():
        return None  # a missing or empty NOTE: typer's usage error
    vault = Path(positional[1]) if len(positional) > 1 else None
    incoming, outgoing = "incoming" in flags, "outgoing" in flags
    return LinksArgs(positional[0], vault, incoming=incoming, outgoing=outgoing, fmt=fmt or "text")


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


def run(args: LinksArgs) -> int:
    """Print the note's outgoing links and/or backlinks as text or JSON."""
    from vaultkit.vault.load import load_vault

    loaded = load_vault(resolve_vault(args.vault))
    path, *others = find_note(loaded, args.note)
    if others:
        also = ", ".join(others)
        print(f"note: '{args.note}' also names {also}; showing {path}", file=sys.stderr)
    show_out, show_in = (args.outgoing or not args.incoming), (args.incoming or not args.outgoing)
    out = analysis.outgoing(loaded, path) if show_out else ()
    back = analysis.backlinks(loaded, path) if show_in else ()
    if args.fmt == "json":
        data: dict[str, Any] = {"note": path}
        if show_out:
            data["outgoing"] = [_link_row(i, incoming=False) for i in out]
        if show_in:
            data["incoming"] = [_link_row(i, incoming=True) for i in back]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    lines = _text_section(f"outgoing from {path}", out, incoming=False) if show_out else []
    lines += _text_section(f"incoming to {path}", back, incoming=True) if show_in else []
    print("\n".join(lines))
    return 0
