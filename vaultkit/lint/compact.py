"""Compact per-note lint data (plain tuples marshal can store) and the global rules over it.

A note's *local* findings (its parse findings, VK101-VK105 on its links, VK302; VK202 for a
file that cannot be read) depend only on the note, its links' resolutions and the headings and
block ids of the notes its anchored links point at. The *global* rules need only a little per
note: where its links go (VK301), the vault's file names (VK303) and its INDEX.md entry plus
INDEX.md's own line links (VK401/VK402). :func:`note_data` extracts all of that from one loaded
note; the other functions rebuild the global findings from the compact values, through the same
rule code the full path runs.

``NoteData.deps`` are the keys of the vault changes that can change the note's local findings:
``n:<name key>`` a file of that name (or ``<name>.md``) appears or disappears (link targets, and
the file names of alias owners, which VK103's suggested fix spells); ``a:<key>`` an alias with
that key changes (ghost links only: aliases never move a resolved link); ``d:`` any file or
alias change (relative targets); ``t:<path>`` the headings or block ids of that note change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from vaultkit.lint.links import link_name
from vaultkit.lint.notes import duplicate_findings, orphan_finding
from vaultkit.vault.analysis import is_root_index
from vaultkit.vault.index import (
    IndexEntry,
    _degraded_reason,
    _fold,
    describe,
    is_index_path,
    note_stamp,
)
from vaultkit.vault.model import NOTE_SUFFIX, Finding, Note, Severity
from vaultkit.vault.resolve import ResolvedLink, build_file_index, match_key

GLOBAL_CODES = frozenset({"VK301", "VK303", "VK401", "VK402"})
_DOT_SEGMENTS = frozenset({".", ".."})

FindingRow = tuple[str, int, int, str, Severity, str]
EntryRow = tuple[str, str, str | None]  # description, stamp, degraded reason
LineRow = tuple[int, str, str | None]  # INDEX.md line, first link's target, where it goes


class NoteData(NamedTuple):
    """What the lint cache keeps per note (``row()`` is the marshal-able form)."""

    ok: bool  # the file could be read (False: its only local finding is VK202)
    local: tuple[FindingRow, ...]
    out: tuple[str, ...]  # files its links reach, itself excluded (empty for INDEX.md)
    heads: tuple[str, ...]  # heading texts, for anchored links into this note
    blocks: tuple[str, ...]
    entry: EntryRow | None  # its INDEX.md entry data (None: unreadable)
    aliases: tuple[str, ...]
    deps: tuple[str, ...]
    index_links: tuple[LineRow, ...]  # INDEX.md only: first link per line

    def row(self) -> tuple[Any, ...]:
        return tuple(self)

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> NoteData:
        """The value :meth:`row` stored (raises on a damaged row)."""
        data = cls(*row)
        if not isinstance(data.local, tuple) or not isinstance(data.deps, tuple):
            raise ValueError("damaged lint row")
        return data


def finding_row(f: Finding) -> FindingRow:
    return (f.path, f.line, f.col, f.code, f.severity, f.message)


def name_key(path: str) -> str:
    """The key a file is found under by its name (what resolution groups files by)."""
    return match_key(path).rpartition("/")[2]


def entry_row(note: Note, description_max: int) -> EntryRow:
    """What ``build_entries`` takes from one note besides its path."""
    return (describe(note, description_max), note_stamp(note), _degraded_reason(note))


TargetKeys = tuple[str, str, bool]  # "n:" key, "a:" key, relative


def _target_keys(text: str) -> TargetKeys:
    key = match_key(text)
    segments = key.split("/")
    return ("n:" + segments[-1], "a:" + key, bool(_DOT_SEGMENTS.intersection(segments)))


def _deps(links: Iterable[ResolvedLink], memo: dict[str, TargetKeys]) -> tuple[str, ...]:
    keys: set[str] = set()
    for item in links:
        res = item.resolution
        text = item.link.target.strip()
        if text:
            found = memo.get(text)
            if found is None:
                found = memo[text] = _target_keys(text)
            keys.add(found[0])
            if res.path is None:
                keys.add(found[1])
            if found[2]:
                keys.add("d:")
        for owner in res.alias_of[:1]:
            keys.add("n:" + name_key(link_name(owner).strip()))
        if item.link.subpath and res.path is not None:
            keys.add("t:" + res.path)
    return tuple(sorted(keys))


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
            found[item.link.line] = (item.link.line, item.link.target, item.resolution.path)
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


def orphan_findings(notes: Iterable[str], incoming: Mapping[str, int]) -> Iterator[Finding]:
    """VK301 for readable notes (``notes``) that no other note's link reaches."""
    for path in notes:
        if not is_root_index(path) and not incoming.get(path):
            yield orphan_finding(path)


def duplicate_name_findings(files: Sequence[str]) -> Iterator[Finding]:
    """VK303 from the vault's file list: the index is built only over files whose name is
    shared, which yields exactly the groups the full index would."""
    keys = [name_key(p) for p in files]
    counts = Counter(keys)
    shared = [p for p, key in zip(files, keys, strict=True) if counts[key] > 1]
    if shared:
        yield from duplicate_findings(build_file_index(shared).same_name_notes())


def index_entries(rows: Mapping[str, EntryRow]) -> tuple[IndexEntry, ...]:
    """``build_entries`` over compact rows (note path -> entry data): same entries, same order."""
    listed = [(p, row) for p, row in rows.items() if not is_index_path(p)]
    counts = Counter(_fold(link_name(p)) for p, _ in listed)
    entries = []
    for path, (description, stamp, reason) in listed:
        name = link_name(path)
        link = name if counts[_fold(name)] == 1 else path[: -len(NOTE_SUFFIX)]
        entries.append(IndexEntry(path, link, description, stamp, reason))
    entries.sort(key=lambda e: (_fold(e.link), e.path))
    entries.sort(key=lambda e: e.stamp, reverse=True)
    return tuple(entries)
