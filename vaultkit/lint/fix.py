"""``vaultkit lint --fix``: safe fixes change only text whose meaning is certain (INDEX.md is
regenerated); unsafe fixes (``--unsafe-fixes``) are guesses of meaning: an alias-only link
becomes ``[[target|Alias]]`` (only when the text is exactly one note's alias, case included;
``[[target\\|Alias]]`` in a GFM table row, where a bare ``|`` would split the cell) — ``[[UID]]``
in a note about inodes is no link to "User Interface Design" because that note lists ``UID``.
A note with a VK201/VK202 finding, an excluded file, a suppressed finding and a note reached
through a symbolic link (itself a link, or in a linked folder) are never touched.

``alias_edits`` and ``apply_edits`` are pure; ``fix_vault`` reads and writes (atomically).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.fsio import write_if_changed
from vaultkit.lint.context import LintContext
from vaultkit.lint.links import alias_fix, exact_owners, written
from vaultkit.vault.index import INDEX_NAME, vault_index_plan
from vaultkit.vault.indexer import regenerate_index, unified_diff
from vaultkit.vault.load import through_link
from vaultkit.vault.wikisyntax import OPEN, scan_wikilink

UNPARSEABLE = frozenset({"VK201", "VK202"})
BOM = "\ufeff"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")  # the parser's lines, ends kept


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the wikilink that starts at ``line``:``col`` (1-based) with ``replacement``."""

    line: int
    col: int
    replacement: str
    in_table: bool = False  # the link is in a GFM table row: its ``|`` must be escaped
    note: str = ""  # what the edit does, as the fix list shows it


@dataclass(frozen=True, slots=True)
class FixOutcome:
    """Files changed (or, with ``dry_run``, that would change), their unified diffs, one line
    per fix applied (``path:line:col: what``) and the unsafe fixes left out."""

    changed: tuple[str, ...]
    diff: str
    applied: tuple[str, ...] = ()
    unsafe_left: int = 0


def alias_edits(
    ctx: LintContext, reported: Collection[tuple[str, int, int]] | None = None
) -> dict[str, list[Edit]]:
    """Per note path, the edits that rewrite its alias-only wikilinks: only where the link's
    text is exactly (case included) the alias of exactly one note — still a guess of meaning,
    so an unsafe fix.
    ``reported``: the (path, line, col) of the VK103 findings still reported after the vault's
    exclusions and suppressions (None: all); a link nobody is told about is not edited."""
    unsafe = {f.path for f in ctx.vault.findings if f.code in UNPARSEABLE}
    edits: dict[str, list[Edit]] = {}
    for item in ctx.vault.links:
        res, link = item.resolution, item.link
        fixable = link.kind in ("wikilink", "embed", "frontmatter") and item.source not in unsafe
        if res.path is not None or not res.alias_of or not fixable:
            continue
        if reported is not None and (item.source, link.line, link.col) not in reported:
            continue
        owners = exact_owners(ctx, item)
        if len(owners) == 1:
            new = alias_fix(item, ctx.vault.index, owners[0])
            edit = Edit(link.line, link.col, new, note=f"{written(link)} -> {new}")
            edits.setdefault(item.source, []).append(edit)
    return edits


def _replace_in_line(line: str, start: int, replacement: str, in_table: bool) -> str:
    opener = "!" + OPEN if replacement.startswith("!") else OPEN
    if not line.startswith(opener, start):
        return line  # the file changed since it was read: leave it alone
    found = scan_wikilink(line, start + len(opener) - len(OPEN), len(line))
    if found.parts is None:
        return line
    if in_table or "\\|" in line[start : found.end]:  # inside a table the separator is escaped
        replacement = replacement.replace("|", "\\|")
    return line[:start] + replacement + line[found.end :]


def split_lines(text: str) -> list[str]:
    """``text`` cut where the parser cuts lines (``\\n``, ``\\r\\n``, ``\\r``; not at the other
    breaks ``str.splitlines`` knows, such as a form feed), each line with its ending."""
    return _LINE.findall(text)


def table_rows(text: str, body_line: int) -> frozenset[int]:
    """The 1-based lines of ``text`` that are rows of a GFM table (header and body rows,
    lines glued under a table included), as markdown-it with vaultkit's rules reads the body
    that starts at ``body_line``. A table's header needs a ``|``: without one, none."""
    if "|" not in text:
        return frozenset()
    from vaultkit.vault.wikilink import get_parser  # only a fix in a note with a pipe pays

    lines = [line.rstrip("\r\n") for line in split_lines(text.removeprefix(BOM))]
    skip = max(0, body_line - 1)  # the frontmatter, blanked so line numbers stay the file's
    source = "\n" * skip + "\n".join(lines[skip:]).replace("\x00", "\ufffd")
    tokens = get_parser().parse(source, {})
    return frozenset(
        token.map[0] + 1
        for token in tokens
        if token.type == "inline" and token.meta.get("vk_row") and token.map
    )


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply ``edits`` at their exact positions, right to left so positions stay valid."""
    lines = split_lines(text)
    for edit in sorted(edits, key=lambda e: (e.line, e.col), reverse=True):
        index = edit.line - 1
        if not 0 <= index < len(lines):
            continue
        shift = 1 if index == 0 and lines[0].startswith(BOM) else 0
        lines[index] = _replace_in_line(
            lines[index], edit.col - 1 + shift, edit.replacement, edit.in_table
        )
    return "".join(lines)


def _in_tables(ctx: LintContext, path: str, text: str, edits: list[Edit]) -> list[Edit]:
    """``edits`` with ``in_table`` set on those whose link is in a table row of ``text``."""
    note = ctx.vault.note(path)
    rows = table_rows(text, note.body_line if note is not None else 1)
    return [Edit(e.line, e.col, e.replacement, e.line in rows, e.note) for e in edits]


def _fix_note(ctx: LintContext, path: str, edits: list[Edit], dry_run: bool) -> str:
    if through_link(ctx.vault.root, path):
        return ""  # a linked note or folder: never written through the link
    file = ctx.vault.root / path
    try:
        old = file.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    new = apply_edits(old, _in_tables(ctx, path, old, edits))
    if new != old and not dry_run:
        write_if_changed(file, new)
    return unified_diff(old, new, path) if new != old else ""


def _fix_index(ctx: LintContext, dry_run: bool, state_dir: Path | None) -> str:
    root = ctx.vault.root
    if dry_run:
        limit = ctx.config.index.description_max
        plan = vault_index_plan(ctx.vault, ctx.index_text, description_max=limit)
        return unified_diff(ctx.index_text, plan.text, INDEX_NAME)
    return regenerate_index(root, config=ctx.config, state_dir=state_dir).diff


def fix_vault(
    ctx: LintContext,
    *,
    dry_run: bool = False,
    unsafe: bool = False,
    state_dir: Path | None = None,
    only: frozenset[str] | None = None,
    reported: Collection[tuple[str, int, int]] | None = None,
) -> FixOutcome:
    """Apply the safe fixes (and with ``unsafe`` the unsafe ones) to the vault of ``ctx``, or
    only compute them with ``dry_run``.

    INDEX.md is regenerated only when the vault already has one; it is done after the link
    fixes, from a fresh load, so its descriptions see the fixed notes. ``state_dir``: the
    vault's state folder when the caller has found it; ``only``: the files to fix (INDEX.md
    only when it is one of them), None for every file; ``reported``: see :func:`alias_edits`.
    """
    changed: list[str] = []
    diffs: list[str] = []
    applied: list[str] = []
    left = 0
    for path, edits in sorted(alias_edits(ctx, reported).items()):
        if only is not None and path not in only:
            continue
        if not unsafe:
            left += len(edits)
            continue
        diff = _fix_note(ctx, path, edits, dry_run)
        if diff:
            changed.append(path)
            diffs.append(diff)
            applied.extend(f"{path}:{e.line}:{e.col}: {e.note} (unsafe)" for e in edits)
    if ctx.index_text is not None and (only is None or INDEX_NAME in only):
        diff = _fix_index(ctx, dry_run, state_dir)
        if diff:
            changed.append(INDEX_NAME)
            diffs.append(diff)
            applied.append(f"{INDEX_NAME}: regenerated")
    return FixOutcome(tuple(changed), "".join(diffs), tuple(applied), left)
