"""Incremental link resolution: reuse cached resolutions no file or alias change can affect.

A link's resolution depends only on its source folder, its target, the set of vault files whose
name matches the target's last segment, and (for ghosts) the notes carrying the target as an
alias. So after files are created, renamed or deleted, or aliases edited, only links whose
target names an affected file name or alias key are resolved again; the results are identical
to :func:`vaultkit.vault.resolve.resolve_all` (a test compares them).
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat

from vaultkit.vault.model import NOTE_SUFFIX, Link, Note, PackedLinks
from vaultkit.vault.resolve import (
    FileIndex,
    LazyLinks,
    Memo,
    Resolution,
    ResolvedLink,
    joined,
    make_resolved,
    match_key,
)

ResolutionRow = tuple[str | None, tuple[str, ...], tuple[str, ...], bool]
_DOT_SEGMENTS = frozenset({".", ".."})


@dataclass(frozen=True, slots=True)
class LinkState:
    """The inputs of resolution besides the notes: every vault file and every note's aliases."""

    files: tuple[str, ...]
    aliases: tuple[tuple[str, tuple[str, ...]], ...]  # (note path, aliases), non-empty only

    def blob(self) -> bytes:
        return marshal.dumps((self.files, self.aliases))

    @classmethod
    def from_blob(cls, blob: bytes) -> LinkState | None:
        """The state stored by :meth:`blob`, or None when the blob is damaged."""
        try:
            files, aliases = marshal.loads(blob)
            return cls(tuple(files), tuple((str(p), tuple(a)) for p, a in aliases))
        except Exception:  # a damaged row means "resolve everything", never a crash
            return None


def link_state(files: Sequence[str], notes: Iterable[Note]) -> LinkState:
    """The state of a loaded vault (``files`` sorted, as :func:`list_vault_files` gives them)."""
    return LinkState(tuple(files), tuple((n.path, n.aliases) for n in notes if n.aliases))


def _name_key(path: str) -> str:
    return match_key(path.rpartition("/")[2])


@dataclass(frozen=True, slots=True)
class Affected:
    """What changed between two states: file-name keys and alias keys (``everything``: no old
    state to compare with)."""

    names: frozenset[str] = frozenset()
    alias_keys: frozenset[str] = frozenset()
    everything: bool = False

    @property
    def nothing(self) -> bool:
        return not (self.everything or self.names or self.alias_keys)

    def touches(self, target: str) -> bool:
        """True when a link to ``target`` may resolve differently now."""
        text = target.strip()
        if not text:
            return False
        if self.everything:
            return True
        key = match_key(text)
        if key in self.alias_keys:
            return True
        segments = key.split("/")
        if _DOT_SEGMENTS.intersection(segments):
            return True  # relative paths are normalised before matching: resolve them again
        name = segments[-1]
        return name in self.names or name + NOTE_SUFFIX in self.names


def affected(old: LinkState | None, new: LinkState) -> Affected:
    """The names and alias keys whose matches may differ between ``old`` and ``new``."""
    if old is None:
        return Affected(everything=True)
    if old == new:
        return Affected()
    names = frozenset(_name_key(p) for p in set(old.files).symmetric_difference(new.files))
    before, after = dict(old.aliases), dict(new.aliases)
    keys = {
        match_key(alias.strip())
        for path in before.keys() | after.keys()
        if before.get(path) != after.get(path)
        for alias in (*before.get(path, ()), *after.get(path, ()))
    }
    return Affected(names, frozenset(keys))


def resolution_row(resolution: Resolution) -> ResolutionRow:
    """A Resolution as a plain tuple (what marshal stores)."""
    return (resolution.path, resolution.candidates, resolution.alias_of, resolution.exact)


@dataclass(slots=True)
class Relinked:
    """Every resolved link in note then link order, and the rows to store (note path ->
    marshalled resolutions) for notes whose resolutions were computed in this run."""

    links: Sequence[ResolvedLink]
    rows: dict[str, bytes] = field(default_factory=dict)
    resolved: int = 0  # links resolved in this run (the rest came from the cache)


class _Resolver:
    """A resolution :class:`~vaultkit.vault.resolve.Memo` plus interned cached rows."""

    def __init__(self, index: FileIndex) -> None:
        self.memo = Memo(index)
        self.interned: dict[ResolutionRow, Resolution] = {}
        self.touched: dict[str, bool] = {}  # target -> Affected.touches(target), memoised

    @property
    def count(self) -> int:
        return self.memo.count

    def resolve(self, source: str, link: Link) -> Resolution:
        return self.memo.resolve(source, link.target)

    def cached(self, row: ResolutionRow) -> Resolution:
        found = self.interned.get(row)
        if found is None:
            found = self.interned[row] = Resolution(*row)
        return found


def _decode_rows(blob: bytes | None, expected: int) -> Sequence[ResolutionRow] | None:
    if blob is None:
        return None
    try:
        rows = marshal.loads(blob)
    except Exception:  # damaged: resolve the note again
        return None
    return rows if isinstance(rows, tuple) and len(rows) == expected else None


def _note_links(
    note: Note, rows: Sequence[ResolutionRow] | None, change: Affected, resolver: _Resolver
) -> tuple[list[Resolution], bool]:
    """The note's resolutions and whether any was computed (so the note's row is rewritten)."""
    if rows is None:
        return [resolver.resolve(note.path, link) for link in note.links], True
    if change.nothing:
        return [resolver.cached(row) for row in rows], False
    out: list[Resolution] = []
    computed = False
    touched = resolver.touched
    for link, row in zip(note.links, rows, strict=True):
        hit = touched.get(link.target)
        if hit is None:
            hit = touched[link.target] = change.touches(link.target)
        if hit:
            out.append(resolver.resolve(note.path, link))
            computed = True
        else:
            out.append(resolver.cached(row))
    return out, computed


def _packed_links(
    source: str,
    links: PackedLinks,
    previous: Sequence[ResolutionRow] | None,
    change: Affected,
    resolver: _Resolver,
) -> tuple[LazyLinks, tuple[ResolutionRow, ...] | None]:
    """A packed note's resolved links and its rows to store (None: unchanged). Resolved afresh,
    each distinct target is resolved once and each distinct row made once (marshal stores a
    shared row once)."""
    if previous is not None:
        note = Note(source, links=links)
        resolutions, computed = _note_links(note, previous, change, resolver)
        lazy = LazyLinks(source, links, resolutions, range(len(resolutions)))
        return lazy, tuple(map(resolution_row, resolutions)) if computed else None
    lazy = resolver.memo.resolve_packed(source, links)
    table = [None if r is None else resolution_row(r) for r in lazy.table]
    return lazy, tuple(map(table.__getitem__, lazy.picks))  # type: ignore[arg-type]


def relink(
    index: FileIndex, notes: Sequence[Note], cached: Mapping[str, bytes], change: Affected
) -> Relinked:
    """Resolve the links of ``notes``, reusing ``cached`` rows (valid for each note's current
    content) for every link ``change`` does not touch."""
    resolver = _Resolver(index)
    links: list[ResolvedLink] = []
    parts: list[tuple[ResolvedLink, ...] | LazyLinks] = []
    rows: dict[str, bytes] = {}
    for note in notes:
        previous = _decode_rows(cached.get(note.path), len(note.links))
        if isinstance(note.links, PackedLinks):
            lazy, fresh = _packed_links(note.path, note.links, previous, change, resolver)
            parts += (tuple(links), lazy)
            links = []
        else:
            resolutions, computed = _note_links(note, previous, change, resolver)
            fields = zip(repeat(note.path), note.links, resolutions)
            links.extend(map(make_resolved, fields))
            fresh = tuple(map(resolution_row, resolutions)) if computed else None
        if fresh is not None and fresh != previous:
            rows[note.path] = marshal.dumps(fresh)
    return Relinked(joined([*parts, tuple(links)]), rows, resolver.count)
