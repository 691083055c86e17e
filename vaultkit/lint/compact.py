"""Compact per-note lint data (named tuples the lint cache stores) and what a run changed.

A note's *local* findings (its parse findings, VK101-VK105 on its links, VK302; VK202 for a
file that cannot be read) depend only on the note, its links' resolutions and the headings and
block ids of the notes its anchored links point at. The *global* rules need only a little per
note: where its links go (VK301), the vault's file names (VK303) and its INDEX.md entry plus
INDEX.md's own line links (VK401/VK402). :func:`note_data` extracts all of that from one loaded
note; each global rule's module says, from a :class:`GlobalChange`, whether its stored findings
still hold and how to compute them again from the compact values.

``NoteData.deps`` are the keys of the vault changes that can change the note's local findings:
``n:<name key>`` a file of that name (or ``<name>.md``) appears or disappears (link targets, and
the file names of alias owners, which VK103's suggested fix spells); ``a:<key>`` an alias with
that key changes (ghost links only: aliases never move a resolved link); ``d:`` any file or
alias change (relative targets); ``t:<path>`` the headings or block ids of that note change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from vaultkit.lint.links import link_name
from vaultkit.vault.analysis import is_root_index
from vaultkit.vault.index import _degraded_reason, describe, is_index_path, note_stamp
from vaultkit.vault.model import Finding, Note, Severity
from vaultkit.vault.resolve import ResolvedLink, match_key

GLOBAL_CODES = frozenset({"VK301", "VK303", "VK401", "VK402"})
_DOT_SEGMENTS = frozenset({".", ".."})

# What a global rule does in an incremental run: keep its stored findings, compute them again
# from the compact data, or give up (only a full load has what it needs).
Again = Literal["reuse", "rerun", "full"]


class FindingRow(NamedTuple):
    """A finding as the lint cache stores it (``Finding(*row)`` is the finding)."""

    path: str
    line: int
    col: int
    code: str
    severity: Severity
    message: str

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """``Finding.sort_key`` of this row."""
        return (self.path, self.line, self.col, self.code, self.message)


class EntryRow(NamedTuple):
    """What ``build_entries`` takes from one note besides its path."""

    description: str
    stamp: str
    reason: str | None  # degraded reason


class LineRow(NamedTuple):
    """INDEX.md's first link on one line."""

    line: int
    target: str
    path: str | None  # where it resolves


class NoteData(NamedTuple):
    """What the lint cache keeps per note (``row()`` is the marshal-able form)."""

    ok: bool  # the file could be read (False: its only local finding is VK202)
    local: tuple[FindingRow, ...]
    out: tuple[str, ...]  # files its links reach, itself excluded (empty for INDEX.md)
    heads: tuple[str, ...]  # heading texts, for anchored links into this note
    blocks: tuple[str, ...]
    entry: EntryRow | None  # its INDEX.md entry data (None: unreadable or not tracked)
    aliases: tuple[str, ...]
    deps: tuple[str, ...]
    index_links: tuple[LineRow, ...]  # INDEX.md only: first link per line

    def row(self) -> tuple[Any, ...]:
        """Plain tuples (marshal stores no named tuples)."""
        entry = None if self.entry is None else tuple(self.entry)
        lines = tuple(map(tuple, self.index_links))
        local = tuple(map(tuple, self.local))
        return (
            self.ok,
            local,
            self.out,
            self.heads,
            self.blocks,
            entry,
            self.aliases,
            self.deps,
            lines,
        )

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> NoteData:
        """The value :meth:`row` stored (raises ValueError or TypeError on a damaged row)."""
        ok, local, out, heads, blocks, entry, aliases, deps, lines = row
        if not isinstance(local, tuple) or not isinstance(deps, tuple):
            raise ValueError("damaged lint row")
        return cls(
            ok,
            tuple(map(FindingRow._make, local)),
            out,
            heads,
            blocks,
            None if entry is None else EntryRow._make(entry),
            aliases,
            deps,
            tuple(map(LineRow._make, lines)),
        )


class NoteChange(NamedTuple):
    """One note an incremental run linted again, or found gone."""

    before: NoteData | None  # None: the note is new
    after: NoteData | None  # None: the note is gone


@dataclass(frozen=True, slots=True)
class GlobalChange:
    """What an incremental run changed, as the global rules see it."""

    notes: Mapping[str, NoteChange]  # every note linted again or gone
    files_changed: bool  # a file (note or attachment) appeared or disappeared
    unreadable_changed: bool  # a note became unreadable or readable again

    @property
    def notes_changed(self) -> bool:
        """A note appeared or disappeared."""
        return any(c.before is None or c.after is None for c in self.notes.values())


def finding_row(f: Finding) -> FindingRow:
    return FindingRow(f.path, f.line, f.col, f.code, f.severity, f.message)


def name_key(path: str) -> str:
    """The key a file is found under by its name (what resolution groups files by)."""
    return match_key(path).rpartition("/")[2]


def entry_row(note: Note, description_max: int) -> EntryRow:
    """What ``build_entries`` takes from one note besides its path."""
    return EntryRow(describe(note, description_max), note_stamp(note), _degraded_reason(note))


class TargetKeys(NamedTuple):
    """The dependency keys of one link target text."""

    name: str  # "n:" key
    alias: str  # "a:" key
    relative: bool  # has ``.`` or ``..`` segments: any file change may move it


def _target_keys(text: str) -> TargetKeys:
    key = match_key(text)
    segments = key.split("/")
    return TargetKeys("n:" + segments[-1], "a:" + key, bool(_DOT_SEGMENTS.intersection(segments)))


def _deps(links: Iterable[ResolvedLink], memo: dict[str, TargetKeys]) -> tuple[str, ...]:
    keys: set[str] = set()
    for item in links:
        res = item.resolution
        text = item.link.target.strip()
        if text:
            found = memo.get(text)
            if found is None:
                found = memo[text] = _target_keys(text)
            keys.add(found.name)
            if res.path is None:
                keys.add(found.alias)
            if found.relative:
                keys.add("d:")
        for owner in res.alias_of[:1]:
            keys.add("n:" + name_key(link_name(owner).strip()))
        if item.link.subpath and res.path is not None:
            keys.add("t:" + res.path)
    return tuple(sorted(keys))


def dependency_keys(links: Iterable[ResolvedLink]) -> tuple[str, ...]:
    """The dependency keys of one note's links (what the lint cache stores per note)."""
    return _deps(links, {})


def _out(source: str, links: Iterable[ResolvedLink]) -> tuple[str, ...]:
    if is_root_index(source):
        return ()
    found = {x.resolution.path for x in links}
    found.discard(source)
    found.discard(None)
    return tuple(sorted(p for p in found if p is not None))


def _line_links(links: Iterable[ResolvedLink]) -> tuple[LineRow, ...]:
    found: dict[int, LineRow] = {}
    for item in links:
        if item.link.line not in found:
            found[item.link.line] = LineRow(item.link.line, item.link.target, item.resolution.path)
    return tuple(found.values())


def note_data(
    path: str,
    note: Note | None,
    links: Sequence[ResolvedLink],
    local: Iterable[Finding],
    description_max: int | None,
    memo: dict[str, TargetKeys] | None = None,
) -> NoteData:
    """The compact data of the note at ``path`` (``note`` None: the file could not be read).

    ``description_max`` None: INDEX.md entries are not tracked (the vault has no INDEX.md);
    ``memo`` shares the dependency keys of link targets between notes."""
    rows = tuple(sorted({finding_row(f) for f in local}))
    if note is None:
        return NoteData(False, rows, (), (), (), None, (), (), ())
    return NoteData(
        True,
        rows,
        _out(path, links),
        tuple(h.text for h in note.headings),
        note.block_ids,
        None if description_max is None else entry_row(note, description_max),
        note.aliases,
        _deps(links, {} if memo is None else memo),
        _line_links(links) if is_index_path(path) else (),
    )
