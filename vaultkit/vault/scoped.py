"""A warm load of part of a vault: its file index, and the links of only the notes that may
name some given files (the note cache's other records are filtered by their bytes, not decoded).

What may name a file: a link resolves to a file, or has its name, only through a segment of its
target whose match key is the file name's, ``.md`` optional (``vault/resolve.py``: a suffix
match on the last segment, or an explicit path whose segments are only dropped, never changed).
So the match key of such a target contains the file's *probe*, its name's key without ``.md``
(with ``ς`` read as ``σ``: only the final sigma's lower case depends on the letters around it).

A cached record holds each link target as written (percent-decoded), ASCII as it is and other
text as UTF-8. For an ASCII probe, a target whose segment's key equals it is ASCII apart from
the three characters whose NFC holds ASCII (:data:`TO_ASCII`; no other character lower-cases to
pure ASCII from NFC form): so the record passes when its bytes, ASCII lower-cased, contain the
probe, or contain one of those three. A non-ASCII probe reads every record's targets instead.
"""

from __future__ import annotations

import marshal
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

from vaultkit.base.gcpause import gc_paused
from vaultkit.vault.cache import Row, cache_path, decode_record, row_is_fresh, stored_rows
from vaultkit.vault.load import is_note_path, list_vault_files
from vaultkit.vault.model import NOTE_SUFFIX, Note
from vaultkit.vault.records import read_one
from vaultkit.vault.resolve import FileIndex, ResolvedLink, build_file_index, match_key, resolve_all

TO_ASCII = ("\u037e", "\u1fef", "\u212a")  # every non-ASCII character whose NFC holds ASCII
_TO_ASCII_BYTES = tuple(c.encode("utf-8") for c in TO_ASCII)
PROBES_MAX = 64  # more names than this: every record is decoded (a pass costs ~1 ms per MB)
STALE_MAX = 1000  # more notes changed since the cache: the full load (which saves them) instead


def _sigma(text: str) -> str:
    return text.replace("\u03c2", "\u03c3")


def probe(path: str) -> str:
    """The text that the match key of every link target naming the file ``path`` contains."""
    key = _sigma(match_key(path.rpartition("/")[2]))
    return key[: -len(NOTE_SUFFIX)] if key.endswith(NOTE_SUFFIX) else key


def target_may_name(target: str, probes: Collection[str]) -> bool:
    """Whether a link written ``target`` may name a file with one of these probes."""
    key = _sigma(match_key(target))
    return any(p in key for p in probes)


def record_may_name(record: bytes, probes: Collection[bytes]) -> bool:
    """Whether a cached note record (marshalled) may hold a link naming a file with one of
    these ASCII ``probes`` (encoded): a superset, never a miss (see the module's docstring)."""
    lower = record.lower()
    if any(p in lower for p in probes):
        return True
    return any(c in record for c in _TO_ASCII_BYTES)


def _targets(record: bytes) -> Iterable[str]:
    """The link targets of a cached record (``vault/records.py``: links are its third item,
    rows with the target second, or packed with the distinct targets as ``names``)."""
    links = marshal.loads(record)[2]
    if isinstance(links, dict):
        return (n for n in links["names"] if isinstance(n, str))
    return (row[1] for row in links)


def _targets_name(record: bytes, probes: Collection[str], memo: dict[str, bool]) -> bool:
    """:func:`target_may_name` for any link of a cached record (True when it is damaged)."""
    try:
        for target in _targets(record):
            hit = memo.get(target)
            if hit is None:
                hit = memo[target] = target_may_name(target, probes)
            if hit:
                return True
    except (ValueError, EOFError, TypeError, KeyError, IndexError):
        return True  # decoded (or parsed) and resolved like any candidate
    return False


def _hits(joined: bytes, needle: bytes, ends: Sequence[int], found: set[int]) -> None:
    """Add to ``found`` the number of each record of ``joined`` that holds ``needle``."""
    at = joined.find(needle)
    while at != -1:
        n = bisect_right(ends, at)
        found.add(n)
        at = joined.find(needle, ends[n])


def records_naming(records: Sequence[bytes], paths: Iterable[str]) -> set[int]:
    """The numbers of the ``records`` that :func:`record_filter` passes, found in one pass
    over them all (joined by NUL, which no file name holds) for ASCII names."""
    probes = frozenset(probe(p) for p in paths)
    if len(probes) > PROBES_MAX:
        return set(range(len(records)))  # a big folder moved: one pass a name costs more
    if not all(p.isascii() and "\0" not in p for p in probes):
        may_name = record_filter(paths)
        return {n for n, record in enumerate(records) if may_name(record)}
    joined = b"\0".join(records)
    ends = list(accumulate(len(r) + 1 for r in records))  # where each record's NUL ends
    found: set[int] = set()
    lower = joined.lower()
    for p in probes:
        _hits(lower, p.encode("ascii"), ends, found)
    for c in _TO_ASCII_BYTES:
        _hits(joined, c, ends, found)
    return found


def record_filter(paths: Iterable[str]) -> Callable[[bytes], bool]:
    """A test of cached records: True for every record that may hold a link naming one of
    the files at ``paths`` (by bytes for ASCII names, else by each link's target)."""
    probes = frozenset(probe(p) for p in paths)
    if all(p.isascii() for p in probes):
        encoded = tuple(p.encode("ascii") for p in probes)
        return lambda record: record_may_name(record, encoded)
    memo: dict[str, bool] = {}
    return lambda record: _targets_name(record, probes, memo)


@dataclass(frozen=True, slots=True)
class Warm:
    """A vault read through its note cache without decoding its notes: every file (indexed
    without aliases, which only a ghost's ``alias_of`` reads), the cached record of each note
    whose file is unchanged, and the notes changed since the cache was written, parsed."""

    root: Path
    index: FileIndex
    records: Mapping[str, bytes]  # note path -> its cached record, for unchanged files
    changed: tuple[Note, ...]  # notes whose content differs from their rows (or have none)

    def links_naming(
        self, paths: Iterable[str], sources: Collection[str]
    ) -> Sequence[ResolvedLink]:
        """Every resolved link, in note then link order, of the notes in ``sources``, of the
        notes changed since the cache and of every note whose record may name one of ``paths``
        (every link that resolves to one of them, or has one's name, is among them)."""
        names, records = list(self.records), list(self.records.values())
        hits = records_naming(records, paths)
        notes = list(self.changed)
        with gc_paused():
            for n, path in enumerate(names):
                if n in hits or path in sources:
                    note = decode_record(records[n])
                    note = note if note is not None else _parsed(str(self.root), path, None)[1]
                    notes += [note] if note is not None else []
            return resolve_all(self.index, sorted(notes, key=lambda n: n.path))


def _parsed(base: str, path: str, known: bytes | None) -> tuple[bool, Note | None]:
    """Read ``path``: (True, None) when its digest is ``known``, else (False, its note), the
    note None when it cannot be read (left out, as a full load leaves it)."""
    got = read_one(base, (path, known))
    if got.error is not None:
        return False, None
    return got.record is None, got.note


def warm(root: Path, *, state_dir: Path | None = None) -> Warm | None:
    """The vault at ``root`` through its note cache; None when there is no cache of this
    parser version or more than ``STALE_MAX`` notes changed since it was written (the full load
    is then the faster way, and it brings the cache up to date). Never writes the cache."""
    with gc_paused():
        return _warm(root, state_dir)


def _warm(root: Path, state_dir: Path | None) -> Warm | None:
    files = list_vault_files(root)
    rows = stored_rows(cache_path(root, state_dir), records=True)
    if not rows:
        return None
    base = str(root)
    records: dict[str, bytes] = {}
    stale: list[tuple[str, Row | None]] = []
    for path in filter(is_note_path, files):
        row = rows.get(path)
        if row is not None and row.record and row_is_fresh(base, path, row):
            records[path] = row.record
        else:
            stale.append((path, row if row is not None and row.record else None))
    if len(stale) > STALE_MAX:
        return None
    changed: list[Note] = []
    for path, row in stale:
        same, note = _parsed(base, path, None if row is None else row.digest)
        if same and row is not None:
            records[path] = row.record  # touched, or racy: the content is the cached one
        elif note is not None:
            changed.append(note)
    return Warm(root, build_file_index(files), records, tuple(changed))
