"""What a move changes, decided without I/O: which files move where, and which link targets
are rewritten to what so that every link keeps the file it resolved to before the move."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from vaultkit.curate.spans import encode_dest, find_span, line_starts, offset_of
from vaultkit.errors import VaultkitError
from vaultkit.vault.model import NOTE_SUFFIX, Link, Note
from vaultkit.vault.resolve import (
    FileIndex,
    ResolvedLink,
    match_key,
    moved_file_index,
    resolve_target,
)

LinkFormat = Literal["shortest", "relative", "absolute"]
LINK_FORMATS: tuple[LinkFormat, ...] = ("shortest", "relative", "absolute")


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One link whose target text changes: in the note ``source`` (its path before the move)
    at ``line``:``col``, ``old`` becomes ``new``, which names ``path`` (after the move)."""

    source: str
    line: int
    col: int
    old: str
    new: str
    path: str
    link: Link


@dataclass(frozen=True, slots=True)
class Blocked:
    """A link that would change its target and that cannot be rewritten: the reason why."""

    source: str
    line: int
    col: int
    target: str
    why: str

    def render(self) -> str:
        return f"{self.source}:{self.line}:{self.col}: [[{self.target}]] {self.why}"


@dataclass(frozen=True, slots=True)
class LinkPlan:
    """The rewrites a move needs, the links it cannot keep whole and the ghost links that the
    move makes resolve (source, line, col, target: reported, left as written)."""

    rewrites: tuple[Rewrite, ...]
    blocked: tuple[Blocked, ...]
    newly_resolved: tuple[tuple[str, int, int, str], ...]
    index: FileIndex


def _name(path: str) -> str:
    return path.rpartition("/")[2]


def _is_note(path: str) -> bool:
    return path.lower().endswith(NOTE_SUFFIX)


def moved_files(index: FileIndex, old: str, new: str) -> dict[str, str]:
    """Every vault file ``old`` -> ``new`` moves (one file, or each file of a folder)."""
    old, new = old.strip("/"), new.strip("/")
    if not old or not new:
        raise VaultkitError("mv needs a source and a destination inside the vault")
    paths = index.paths
    if old in paths:
        return {old: new}
    prefix = old + "/"
    inside = {p: new + p[len(old) :] for p in paths if p.startswith(prefix)}
    if not inside:
        raise VaultkitError(
            f"{old}: no such note, attachment or folder in the vault",
            hint="give the path relative to the vault, as `vaultkit links` shows it",
        )
    if new == old or new.startswith(prefix):
        raise VaultkitError(f"cannot move the folder {old} into itself")
    return inside


def refuse_clashes(paths: Iterable[str], moves: Mapping[str, str]) -> None:
    """Raise when a destination is taken (any letter case: the file systems Obsidian runs on
    often ignore it), unless it is the moving file itself (a case-only rename)."""
    staying = {match_key(p): p for p in paths if p not in moves}
    targets: dict[str, str] = {}
    for old, new in moves.items():
        key = match_key(new)
        if key in staying:
            raise VaultkitError(
                f"{new}: exists already ({staying[key]}); mv never overwrites",
                hint="move or rename that file first, or pick another name",
            )
        if key in targets:
            raise VaultkitError(f"{old} and {targets[key]} would both become {new}")
        targets[key] = old


def _forms(path: str, source: str, fmt: LinkFormat, keep_ext: bool) -> list[str]:
    """Target texts for ``path`` in order of preference for the vault's link format."""

    def bare(text: str) -> str:
        return text[: -len(NOTE_SUFFIX)] if _is_note(text) and not keep_ext else text

    full = bare(path)
    rel = posixpath.relpath(path, posixpath.dirname(source) or ".")
    relative = [bare(rel)] if rel.startswith("..") else [bare(rel), "./" + bare(rel)]
    if fmt == "relative":
        return [*relative, full]
    if fmt == "absolute":
        return [full, "/" + full]
    return [bare(_name(path)), full, "/" + full]


def render_target(
    index: FileIndex, link: Link, path: str, source: str, fmt: LinkFormat
) -> str | None:
    """The shortest text in ``fmt`` that makes ``link`` (in ``source``) name ``path`` and no
    other file by a tie-break; None when no form does."""
    keep_ext = link.target.lower().endswith(NOTE_SUFFIX)
    for form in _forms(path, source, fmt, keep_ext):
        found = resolve_target(index, source, form)
        if found.path == path and not found.ambiguous:
            return form
    return None


def _watched(moves: Mapping[str, str]) -> frozenset[str]:
    """Name keys whose links may resolve differently after the move (old and new names)."""
    keys: set[str] = set()
    for path in (*moves, *moves.values()):
        key = match_key(_name(path))
        keys.add(key)
        if key.endswith(NOTE_SUFFIX):
            keys.add(key[: -len(NOTE_SUFFIX)])
    return frozenset(keys)


def plan_links(
    index: FileIndex, links: Iterable[ResolvedLink], moves: Mapping[str, str], fmt: LinkFormat
) -> LinkPlan:
    """Every link whose resolution the move would change, with the text that keeps it:
    ``links`` are the vault's resolved links before the move (those of every note, or at least
    of the moved notes and of the notes with a link whose target's name is a moved file's old
    or new name, or that resolves to a moved file: no other link is read)."""
    index = moved_file_index(index, moves)
    watched = _watched(moves)
    arrived = frozenset(moves.values())
    rewrites: list[Rewrite] = []
    blocked: list[Blocked] = []
    newly: list[tuple[str, int, int, str]] = []
    for item in links:
        link, source, was = item.link, item.source, item.resolution.path
        if link.is_self:
            continue
        quiet = source not in moves and was not in moves
        if quiet and match_key(_name(link.target.strip())) not in watched:
            continue
        here = moves.get(source, source)
        now = resolve_target(index, here, link.target).path
        if was is None:
            if now in arrived:
                newly.append((source, link.line, link.col, link.target))
            continue
        wanted = moves.get(was, was)
        if now == wanted:
            continue
        text = render_target(index, link, wanted, here, fmt)
        if text is None:
            why = f"cannot be written to name {wanted} without a tie-break"
            blocked.append(Blocked(source, link.line, link.col, link.target, why))
            continue
        rewrites.append(Rewrite(source, link.line, link.col, link.target, text, wanted, link))
    return LinkPlan(tuple(rewrites), tuple(blocked), tuple(newly), index)


def rewrite_text(text: str, rewrites: Sequence[Rewrite]) -> tuple[str, list[Blocked]]:
    """``text`` with each rewrite applied at its exact span (right to left), and the rewrites
    whose link is not found as written there."""
    starts = line_starts(text)
    spans = []
    failed: list[Blocked] = []
    for rw in rewrites:
        pos = offset_of(text, starts, rw.line, rw.col)
        span = None if pos is None else find_span(text, pos, rw.link)
        new = None if span is None else rw.new
        if span is not None and span.markdown:
            new = encode_dest(rw.new, span.angle)
        if span is None or new is None:
            why = "is not written where vaultkit can rewrite it (edit it by hand)"
            failed.append(Blocked(rw.source, rw.line, rw.col, rw.old, why))
            continue
        spans.append((span.start, span.end, new))
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text, failed


def check_note(
    before: Sequence[ResolvedLink],
    moves: Mapping[str, str],
    index: FileIndex,
    source: str,
    after: Note,
) -> list[Blocked]:
    """Return every link of ``after`` (the rewritten note ``source``, parsed at its new path)
    whose target is not the one it had before the move (``before``: the note's resolved links;
    the differential check, per note)."""
    here = moves.get(source, source)
    if len(after.links) != len(before):
        return [Blocked(source, 1, 1, "", "rewriting changed how many links the note has")]
    wrong: list[Blocked] = []
    for old, link in zip(before, after.links, strict=True):
        was = old.resolution.path
        if was is None or old.link.is_self:
            continue
        now = resolve_target(index, here, link.target).path
        if now != moves.get(was, was):
            why = f"would point to {now or 'nothing'} instead of {moves.get(was, was)}"
            blocked = Blocked(source, old.link.line, old.link.col, old.link.target, why)
            wrong.append(blocked)
    return wrong
