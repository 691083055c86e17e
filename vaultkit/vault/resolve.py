"""Obsidian's link resolution over a FileIndex of vault paths; pure, no I/O.

The rules are listed in docs/lint.md ("Rules") and the README ("Lint any Obsidian vault").
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate, chain, compress, count, repeat
from typing import NamedTuple, overload

from vaultkit.vault.model import NOTE_SUFFIX, Link, Note, PackedLinks

_SEP = "/"


def match_key(text: str) -> str:
    """The form two names are compared in: NFC, then lower-cased as JavaScript's
    ``toLowerCase`` does (Obsidian's rule). Python's ``str.lower`` is the same mapping, final
    sigma included; it is no case folding: ``ß`` stays ``ß`` and the ligature ``ﬁ`` stays ``ﬁ``.
    A note's ``.md`` is lower-cased on its own, as if the name were written without it (a
    link may omit it): before ``.`` a final ``Σ`` would not be final (``ΑΣ.md`` -> ``ας.md``).
    """
    if text.isascii():  # the common case, and the same result
        return text.lower()
    text = unicodedata.normalize("NFC", text)
    if text[-3:].lower() == NOTE_SUFFIX:
        return text[:-3].lower() + NOTE_SUFFIX
    return text.lower()


def _folder(path: str) -> str:
    """The folder part of a vault path (``""`` at the vault root)."""
    return path.rpartition(_SEP)[0]


def _is_note_path(path: str) -> bool:
    return path.lower().endswith(NOTE_SUFFIX)


def _is_vault_path(path: str) -> bool:
    """False for empty or absolute paths, folders, dot-files and anything in a dot-folder."""
    return bool(path) and not (
        path.startswith((".", _SEP)) or path.endswith(_SEP) or "/." in path or "//" in path
    )


def _length_order(path: str) -> tuple[int, int, str]:
    """Shortest path first; then fewest segments; then lexicographic (deterministic)."""
    return (len(path), path.count(_SEP), path)


def _group(pairs: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """Group values by key, keeping their order within each group."""
    groups: dict[str, list[str]] = {}
    for key, value in pairs:
        groups.setdefault(key, []).append(value)
    return {key: tuple(values) for key, values in groups.items()}


@dataclass(frozen=True, slots=True, eq=False)
class FileIndex:
    """Lookup structures over every file of a vault; build it with :func:`build_file_index`.

    ``paths`` is every indexed file (vault-relative POSIX, sorted) and ``notes`` the ``.md`` ones.
    The other fields are private lookup tables keyed by :func:`match_key` forms.
    """

    paths: tuple[str, ...]
    notes: tuple[str, ...]
    _keys: Mapping[str, str] = field(repr=False)  # real path -> match key of the path
    _order: Mapping[str, int] = field(repr=False)  # real path -> rank by _length_order
    _folders: Mapping[str, str] = field(repr=False)  # real path -> match key of its folder
    _by_name: Mapping[str, tuple[str, ...]] = field(repr=False)  # key of file name -> paths
    _by_path: Mapping[str, tuple[str, ...]] = field(repr=False)  # key of full path -> paths
    _by_alias: Mapping[str, tuple[str, ...]] = field(repr=False)  # key of alias -> note paths
    _written: frozenset[tuple[str, str]] = field(default=frozenset(), repr=False)  # (note, alias)

    def __contains__(self, path: object) -> bool:
        return path in self._keys

    def __len__(self) -> int:
        return len(self.paths)

    def is_note(self, path: str) -> bool:
        """True when ``path`` is an indexed file ending in ``.md``."""
        return path in self._keys and _is_note_path(path)

    def notes_with_alias(self, text: str) -> tuple[str, ...]:
        """Notes whose frontmatter aliases contain ``text`` (case-insensitive, NFC), sorted."""
        return self._by_alias.get(match_key(text.strip()), ())

    def files_named(self, name: str) -> tuple[str, ...]:
        """Every indexed file whose file name is ``name`` (Obsidian's comparison), shortest
        path first."""
        return self._by_name.get(match_key(name), ())

    def has_alias_as_written(self, note: str, text: str) -> bool:
        """Whether ``note`` lists ``text`` among its aliases exactly, letter case included
        (``notes_with_alias`` ignores case, as Obsidian's alias search does)."""
        return (note, text.strip()) in self._written

    def same_name_notes(self) -> tuple[tuple[str, ...], ...]:
        """Groups of two or more notes sharing a file name, so bare links to them are ambiguous.

        Each group is ordered shortest path first; groups are sorted by their first path.
        """
        groups = [
            tuple(p for p in paths if _is_note_path(p))
            for name, paths in self._by_name.items()
            if name.endswith(NOTE_SUFFIX)
        ]
        return tuple(sorted((g for g in groups if len(g) > 1), key=lambda g: g[0]))


def build_file_index(
    paths: Iterable[str], aliases: Mapping[str, Iterable[str]] | None = None
) -> FileIndex:
    """Index every file of a vault (notes and attachments) for :func:`resolve_target`.

    ``paths`` are vault-relative POSIX paths; duplicates are merged, and dot-files, paths inside
    dot-folders (``.obsidian/``, ``.trash/``, ``.vaultkit/``) and non-file paths are ignored.
    ``aliases`` maps a note path to its frontmatter aliases; other paths' entries are ignored.
    Groups inside the index are kept in ``_length_order``, so lookups never sort whole buckets.
    """
    by_length = sorted({p for p in paths if _is_vault_path(p)}, key=_length_order)
    keys = {path: match_key(path) for path in by_length}
    order = {path: rank for rank, path in enumerate(by_length)}
    folders = {path: _folder(key) for path, key in keys.items()}
    by_name = _group((key.rpartition(_SEP)[2], path) for path, key in keys.items())
    by_path = _group((key, path) for path, key in keys.items())
    written = frozenset(
        (note, alias.strip())
        for note, names in (aliases or {}).items()
        if note in keys and _is_note_path(note)
        for alias in names
        if alias.strip()
    )
    alias_pairs = ((match_key(alias), note) for note, alias in written)
    by_alias = {k: tuple(sorted(set(v))) for k, v in _group(alias_pairs).items()}
    unique = tuple(sorted(by_length))
    notes = tuple(p for p in unique if _is_note_path(p))
    return FileIndex(unique, notes, keys, order, folders, by_name, by_path, by_alias, written)


def _regroup(
    groups: dict[str, tuple[str, ...]], gone: Mapping[str, str], come: Mapping[str, str]
) -> None:
    """Take the paths in ``gone`` (path -> its key) out of ``groups`` and put the paths in
    ``come`` in, each touched group kept in ``_length_order``; empty groups are dropped."""
    added = _group((key, path) for path, key in come.items())
    for key in {*gone.values(), *added}:
        kept = [p for p in groups.get(key, ()) if p not in gone]
        merged = sorted((*kept, *added.get(key, ())), key=_length_order)
        if merged:
            groups[key] = tuple(merged)
        else:
            groups.pop(key, None)


def _aliases_of(index: FileIndex) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for note, alias in index._written:
        found.setdefault(note, []).append(alias)
    return found


def _plain_move(index: FileIndex, moves: Mapping[str, str]) -> bool:
    """True when every moved path is in ``index`` and the moves land on distinct vault paths
    that are free (or themselves moved away): the case :func:`moved_file_index` updates."""
    keys, targets = index._keys, set(moves.values())
    return (
        all(old in keys for old in moves)
        and len(targets) == len(moves)
        and all(_is_vault_path(new) and (new in moves or new not in keys) for new in targets)
    )


def _moved_groups(
    index: FileIndex, gone: Mapping[str, str], come: Mapping[str, str]
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The by-name and by-path groups of ``index`` with ``gone`` taken out and ``come`` put in."""
    by_name, by_path = dict(index._by_name), dict(index._by_path)
    _regroup(
        by_name,
        {p: k.rpartition(_SEP)[2] for p, k in gone.items()},
        {p: k.rpartition(_SEP)[2] for p, k in come.items()},
    )
    _regroup(by_path, gone, come)
    return by_name, by_path


def moved_file_index(index: FileIndex, moves: Mapping[str, str]) -> FileIndex:
    """``index`` after the files in ``moves`` (old path -> new path) moved, each note keeping
    its aliases: what :func:`build_file_index` over the moved paths returns, updated in place
    of rebuilt (a move touches a few name groups of a big vault)."""
    if not _plain_move(index, moves):
        renamed = {moves.get(n, n): a for n, a in _aliases_of(index).items()}
        return build_file_index((moves.get(p, p) for p in index.paths), renamed)
    keys = dict(index._keys)
    gone = {old: keys.pop(old) for old in moves}
    come = {new: match_key(new) for new in set(moves.values())}
    keys.update(come)
    folders = {p: f for p, f in index._folders.items() if p not in moves}
    folders.update((path, _folder(key)) for path, key in come.items())
    by_name, by_path = _moved_groups(index, gone, come)
    written = frozenset(
        (moves.get(note, note), alias)
        for note, alias in index._written
        if _is_note_path(moves.get(note, note))
    )
    alias_pairs = ((match_key(alias), note) for note, alias in written)
    by_alias = {k: tuple(sorted(set(v))) for k, v in _group(alias_pairs).items()}
    order = {path: rank for rank, path in enumerate(sorted(keys, key=_length_order))}
    unique = tuple(sorted(keys))
    notes = tuple(p for p in unique if _is_note_path(p))
    return FileIndex(unique, notes, keys, order, folders, by_name, by_path, by_alias, written)


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where one link target points.

    ``path`` is the resolved vault path, or None for a ghost. ``candidates`` lists every matching
    file (the winner first) when more than one matched. ``alias_of`` lists, for a ghost, the notes
    that carry the link text as a frontmatter alias. ``exact`` is True when the target spelled
    the winner's full vault path and no other file's (``[[projects/Plan]]`` for
    ``projects/Plan.md``): the form Obsidian itself writes to tell same-named files apart.
    """

    path: str | None
    candidates: tuple[str, ...] = ()
    alias_of: tuple[str, ...] = ()
    exact: bool = False

    @property
    def ghost(self) -> bool:
        return self.path is None

    @property
    def ambiguous(self) -> bool:
        """Several files matched and the winner was chosen by a tie-break, not by its full path."""
        return len(self.candidates) > 1 and not self.exact


class ResolvedLink(NamedTuple):
    """One link of one note together with where it resolved (a named tuple, like
    :class:`~vaultkit.vault.model.Link`: there is one per link)."""

    source: str
    link: Link
    resolution: Resolution


make_resolved = partial(tuple.__new__, ResolvedLink)  # ResolvedLink(*fields) at C speed


@dataclass(frozen=True, slots=True)
class LazyLinks(Sequence[ResolvedLink]):
    """The resolved links of one note with :class:`~vaultkit.vault.model.PackedLinks`, each
    :class:`ResolvedLink` made when it is read: link ``i`` resolved to ``table[picks[i]]``."""

    source: str
    links: PackedLinks
    table: Sequence[Resolution | None]
    picks: Sequence[int]

    def __len__(self) -> int:
        return len(self.links)

    def __iter__(self) -> Iterator[ResolvedLink]:
        resolutions = map(self.table.__getitem__, self.picks)
        fields = zip(repeat(self.source), self.links, resolutions)
        return map(make_resolved, fields)

    def ends(self) -> Iterator[tuple[str, Resolution | None]]:
        """Each link's source and resolution, without making the links."""
        return zip(repeat(self.source), map(self.table.__getitem__, self.picks))

    def at(self, i: int) -> ResolvedLink:
        resolution = self.table[self.picks[i]]
        assert resolution is not None  # every picked entry was resolved
        return ResolvedLink(self.source, self.links[i], resolution)

    @overload
    def __getitem__(self, index: int) -> ResolvedLink: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[ResolvedLink, ...]: ...
    def __getitem__(self, index: int | slice) -> ResolvedLink | tuple[ResolvedLink, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        return self.at(range(len(self))[index])


class ResolvedLinks(Sequence[ResolvedLink]):
    """Every resolved link of a vault, in note then link order, when some note's links are
    packed: runs of :class:`ResolvedLink` tuples and :class:`LazyLinks`, read as one sequence
    (equal to the tuple of the same links). A vault without a packed note has a plain tuple."""

    __slots__ = ("_ends", "_parts")

    def __init__(self, parts: Sequence[tuple[ResolvedLink, ...] | LazyLinks]) -> None:
        self._parts = tuple(part for part in parts if len(part))
        self._ends = tuple(accumulate(map(len, self._parts)))

    @property
    def parts(self) -> tuple[tuple[ResolvedLink, ...] | LazyLinks, ...]:
        return self._parts

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __iter__(self) -> Iterator[ResolvedLink]:
        return chain.from_iterable(self._parts)

    @overload
    def __getitem__(self, index: int) -> ResolvedLink: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[ResolvedLink, ...]: ...
    def __getitem__(self, index: int | slice) -> ResolvedLink | tuple[ResolvedLink, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        i = range(len(self))[index]
        n = bisect_right(self._ends, i)
        part, offset = self._parts[n], i - (self._ends[n - 1] if n else 0)
        return part[offset] if isinstance(part, tuple) else part.at(offset)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (ResolvedLinks, tuple)):
            return len(self) == len(other) and all(map(_equal, self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"ResolvedLinks({len(self)} links in {len(self._parts)} parts)"


def link_ends(links: Sequence[ResolvedLink]) -> Iterator[tuple[str, Resolution]]:
    """``(item.source, item.resolution)`` of each of ``links``: for packed notes' links without
    making each :class:`ResolvedLink` (what a rule that never reads the link itself needs)."""
    if not isinstance(links, ResolvedLinks):
        return ((item.source, item.resolution) for item in links)
    runs = (part.ends() if isinstance(part, LazyLinks) else link_ends(part) for part in links.parts)
    return chain.from_iterable(runs)  # type: ignore[arg-type]  # a picked entry is never None


def distinct_ends(links: Sequence[ResolvedLink]) -> Iterator[tuple[str, Resolution]]:
    """What :func:`link_ends` gives, in no set order and with a packed note's repeats left out:
    one pair per resolution its links pick (for rules that gather the ends into a set)."""
    if not isinstance(links, ResolvedLinks):
        return link_ends(links)
    runs = (
        _distinct(part) if isinstance(part, LazyLinks) else link_ends(part) for part in links.parts
    )
    return chain.from_iterable(runs)


def _distinct(part: LazyLinks) -> Iterator[tuple[str, Resolution]]:
    resolutions = map(part.table.__getitem__, set(part.picks))
    return zip(repeat(part.source), resolutions)  # type: ignore[arg-type]  # never None, picked


def screened(
    links: Sequence[ResolvedLink], quiet: Callable[[ResolvedLink], bool]
) -> Iterator[ResolvedLink]:
    """``links`` in order, less packed notes' links that ``quiet`` holds for; every unpacked
    link is kept. ``quiet`` must read only a link's source, target, subpath and resolution: it
    is asked once per distinct target and subpath of a packed note (about one question per
    name for a million links), and only the links it does not hold for are made."""
    if not isinstance(links, ResolvedLinks):
        return iter(links)
    runs = (
        _loud(part, quiet) if isinstance(part, LazyLinks) else iter(part) for part in links.parts
    )
    return chain.from_iterable(runs)


def _loud(part: LazyLinks, quiet: Callable[[ResolvedLink], bool]) -> Iterator[ResolvedLink]:
    """The links of ``part`` whose (target, subpath) pair ``quiet`` does not hold for; all of
    them when its resolutions are one a link (as a warm relink keeps them), not one a name."""
    if len(part.table) >= len(part):
        return iter(part)
    pairs = partial(zip, part.picks, part.links.subpath_ids, strict=True)
    last = dict(zip(pairs(), count()))  # each pair's last link
    loud = {pair for pair, i in last.items() if not quiet(part.at(i))}
    if not loud:
        return iter(())
    picked = compress(count(), map(loud.__contains__, pairs()))
    return map(part.at, picked)


def by_source(links: Sequence[ResolvedLink]) -> dict[str, Sequence[ResolvedLink]]:
    """Each source note's resolved links, in order (a packed note's stay made on access)."""
    grouped: dict[str, Sequence[ResolvedLink]] = {}
    lists: dict[str, list[ResolvedLink]] = {}
    for part in links.parts if isinstance(links, ResolvedLinks) else (links,):
        if isinstance(part, LazyLinks):
            grouped[part.source] = part  # a note's links are all packed, or none are
            continue
        for item in part:
            found = lists.get(item.source)
            if found is None:
                found = lists[item.source] = []
                grouped[item.source] = found
            found.append(item)
    return grouped


def _equal(a: object, b: object) -> bool:
    return a == b


def _normalise(segments: Iterable[str]) -> str | None:
    """Join segments, dropping ``.`` and empty ones and applying ``..``; None above the root."""
    out: list[str] = []
    for part in segments:
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
        else:
            out.append(part)
    return _SEP.join(out)


def _is_relative(target: str) -> bool:
    return target in (".", "..") or target.startswith(("./", "../"))


def _explicit_path(source: str, target: str) -> str | None:
    """The vault path an absolute (``/x``) or relative (``./x``, ``../x``) target names."""
    if target.startswith(_SEP):
        return _normalise(target.split(_SEP))
    return _normalise([*_folder(source).split(_SEP), *target.split(_SEP)])


def _ranked(index: FileIndex, found: list[str], wanted: str, source: str) -> Resolution:
    """Order matches: full vault path equals the target, then in the source note's own folder
    (not an ancestor), then the rest; each tier in ``_length_order`` (shortest string first)."""
    exact = {*_exact_matches(index, wanted)}
    if len(found) == 1:
        return Resolution(found[0], exact=found[0] in exact)
    here = match_key(_folder(source))
    folders = index._folders
    tiers: tuple[list[str], list[str], list[str]] = ([], [], [])
    for path in sorted(found, key=index._order.__getitem__):
        tiers[0 if path in exact else 1 if folders[path] == here else 2].append(path)
    ranked = (*tiers[0], *tiers[1], *tiers[2])
    return Resolution(ranked[0], ranked, exact=len(tiers[0]) == 1)


def _exact_matches(index: FileIndex, wanted: str) -> list[str]:
    """Files whose full vault path is ``wanted`` (``.md`` optional)."""
    return [*index._by_path.get(wanted, ()), *index._by_path.get(wanted + NOTE_SUFFIX, ())]


def _suffix_matches(index: FileIndex, wanted: str) -> list[str]:
    """Files whose path ends with ``wanted`` (``.md`` optional) on a ``/`` boundary."""
    name = wanted.rpartition(_SEP)[2]
    if not name:
        return []
    found = [*index._by_name.get(name, ()), *index._by_name.get(name + NOTE_SUFFIX, ())]
    if _SEP not in wanted:
        return found
    tails = (wanted, wanted + NOTE_SUFFIX)
    return [
        path
        for path in found
        if index._keys[path] in tails
        or index._keys[path].endswith((_SEP + tails[0], _SEP + tails[1]))
    ]


def _matches(index: FileIndex, source: str, target: str) -> tuple[str, list[str]]:
    """The match key searched for and the files that match it (unordered)."""
    if target.startswith(_SEP) or _is_relative(target):
        path = _explicit_path(source, target)
        if not path:  # escapes the vault root, or names the root folder itself
            return "", []
        wanted = match_key(path)
        return wanted, _exact_matches(index, wanted)
    wanted = match_key(target)
    return wanted, _suffix_matches(index, wanted)


def _resolve(index: FileIndex, source: str, target: str) -> tuple[Resolution, bool]:
    """:func:`resolve_target`'s result, and whether it holds for this ``target`` from every note
    (a bare or partial-path target with at most one match: no tie for the source's folder to
    break)."""
    target = target.strip()
    if not target:
        return Resolution(source), False
    wanted, found = _matches(index, source, target)
    anywhere = len(found) <= 1 and not (target.startswith(_SEP) or _is_relative(target))
    if not found:
        return Resolution(None, alias_of=index.notes_with_alias(target)), anywhere
    return _ranked(index, found, wanted, source), anywhere


def resolve_target(index: FileIndex, source: str, target: str) -> Resolution:
    """Resolve one link target written in the note ``source`` the way Obsidian desktop does.

    ``target`` is the path part only (no ``#heading``), already percent-decoded; surrounding
    whitespace is ignored and an empty target is a self-link that resolves to ``source``
    (``exact`` is False for it: no path was written).
    """
    return _resolve(index, source, target)[0]


class Memo:
    """:func:`resolve_target` with memory, for resolving many links against one index.

    A result that holds from every note is kept per target, any other per (source folder,
    target), since resolution depends on nothing else (self-links, which name their own note,
    are cheap and not kept). Equal results are one shared value: a million links name far fewer
    distinct targets, and the values are frozen, so sharing is invisible.
    """

    __slots__ = ("_anywhere", "_by_folder", "_shared", "count", "index")

    def __init__(self, index: FileIndex) -> None:
        self.index = index
        self.count = 0  # links resolved through this memo
        self._anywhere: dict[str, Resolution] = {}
        self._by_folder: dict[tuple[str, str], Resolution] = {}
        self._shared: dict[Resolution, Resolution] = {}

    def share(self, resolution: Resolution) -> Resolution:
        """The one shared value equal to ``resolution``."""
        return self._shared.setdefault(resolution, resolution)

    def resolve(self, source: str, target: str) -> Resolution:
        """Exactly ``resolve_target(index, source, target)``, usually from memory."""
        self.count += 1
        found = self._anywhere.get(target)
        if found is not None:
            return found
        key = (_folder(source), target)
        found = self._by_folder.get(key)
        if found is not None:
            return found
        result, anywhere = _resolve(self.index, source, target)
        found = self.share(result)
        if anywhere:
            self._anywhere[target] = found
        elif result.path != source or target.strip():
            self._by_folder[key] = found
        return found

    def resolve_packed(self, source: str, links: PackedLinks) -> LazyLinks:
        """Exactly ``resolve`` for each of ``links``, each distinct target resolved once."""
        names, ids = links.names, links.target_ids
        table: list[Resolution | None] = [None] * len(names)
        used = set(ids)
        for i in used:
            target = names[i]
            assert target is not None  # a target is always a str
            table[i] = self.resolve(source, target)
        self.count += len(ids) - len(used)
        return LazyLinks(source, links, tuple(table), ids)


def joined(parts: list[tuple[ResolvedLink, ...] | LazyLinks]) -> Sequence[ResolvedLink]:
    """One sequence of runs of resolved links: a tuple unless some run is lazy."""
    if len(parts) == 1 and isinstance(parts[0], tuple):
        return parts[0]
    if all(isinstance(part, tuple) for part in parts):
        return tuple(chain.from_iterable(parts))
    return ResolvedLinks(parts)


def resolve_all(index: FileIndex, notes: Iterable[Note]) -> Sequence[ResolvedLink]:
    """Resolve every link of every note, in note order and link order within a note (through
    one :class:`Memo`): a tuple, or :class:`ResolvedLinks` when some note's links are packed."""
    memo = Memo(index)
    out: list[ResolvedLink] = []
    parts: list[tuple[ResolvedLink, ...] | LazyLinks] = []
    for note in notes:
        source = note.path
        if isinstance(note.links, PackedLinks):
            parts += (tuple(out), memo.resolve_packed(source, note.links))
            out = []
            continue
        resolve = memo.resolve
        out.extend(ResolvedLink(source, link, resolve(source, link.target)) for link in note.links)
    if not parts:
        return tuple(out)
    return joined([*parts, tuple(out)])
