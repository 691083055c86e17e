"""Read, hash and parse note files, in this process or across a process pool for large batches.

A job is ``(path, known_digest)``: when the file's blake2b digest equals ``known_digest`` the
file is not parsed again (its cached record is still right). Results are plain tuples so they
cross process boundaries cheaply (marshal, not pickled objects).
"""

from __future__ import annotations

import gc
import marshal
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat

from vaultkit.base.blake import blake2b
from vaultkit.vault import model
from vaultkit.vault.model import Finding, Heading, Link, LinkKind, Note, Severity

PARALLEL_MIN_FILES = 300  # below this a pool costs more than it saves (see benchmarks/README)
SPLIT_MIN_FILES = 100  # from here to the pool's threshold a forked child shares the parse
CHUNK_FILES = 250  # at most; smaller batches keep every worker busy on small loads
DIGEST_SIZE = 16

Job = tuple[str, bytes | None]  # vault path, digest of the cached record (None: none cached)
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Parsed:
    """What reading one file gave.

    ``record`` is the marshalled note record (see :func:`note_record`) or ``None`` when the
    digest matched ``known_digest`` (unchanged) or the file could not be read (``error`` set).
    ``size``, ``mtime_ns``, ``ctime_ns`` and ``inode`` come from a ``stat`` taken before the
    read, so a file changed while it was read looks changed again on the next run.
    """

    path: str
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    digest: bytes
    record: bytes | None
    error: str | None = None
    note: Note | None = None  # the parsed note itself, when parsed in this process


def digest_of(data: bytes) -> bytes:
    """The content hash the cache compares when size or mtime disagree."""
    return blake2b(data, digest_size=DIGEST_SIZE).digest()


LinkRow = tuple[LinkKind, str, str, str | None, int, int, bool]
FindingRow = tuple[str, int, int, str, Severity, str]
Record = tuple[
    str,
    dict[str, object],
    tuple[LinkRow, ...] | dict[str, object],  # a dict for packed links (see _link_rows)
    tuple[tuple[str, int, int], ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[str, ...],
    tuple[FindingRow, ...],
    int,
    str,
]


def note_record(note: Note) -> Record:
    """A Note as plain tuples, dicts and scalars (what marshal can store)."""
    return (
        note.path,
        dict(note.frontmatter),
        _link_rows(note.links),
        tuple((h.text, h.level, h.line) for h in note.headings),
        note.block_ids,
        note.tags,
        note.aliases,
        tuple((f.path, f.line, f.col, f.code, f.severity, f.message) for f in note.findings),
        note.body_line,
        note.first_text,
    )


def _link_rows(links: Sequence[Link]) -> tuple[LinkRow, ...] | dict[str, object]:
    """A note's links for marshal: a plain tuple each (a Link is a named tuple), or packed
    links as their columns, which marshal stores as they are."""
    if isinstance(links, model.PackedLinks):
        names, columns = links.columns()
        return {"names": names, "columns": columns}
    return tuple([(*x,) for x in links])


def _links(rows: Sequence[LinkRow] | dict[str, object]) -> Sequence[Link]:
    """A record's links: packed as stored, or packed for a note with very many of them."""
    if isinstance(rows, dict):
        names, columns = rows.get("names"), rows.get("columns")
        if not isinstance(names, tuple) or not isinstance(columns, tuple):
            raise ValueError("a packed links record without its names and columns")
        return model.PackedLinks.from_columns(names, columns)
    links = map(Link._make, rows)
    return model.pack_links(links) if len(rows) >= model.PACK_MIN_LINKS else tuple(links)


def note_from_record(record: Record) -> Note:
    """The Note that :func:`note_record` was made from (raises on a malformed record)."""
    path, front, links, heads, blocks, tags, aliases, finds, body_line, first = record
    return Note(
        path,
        front,
        _links(links),
        tuple([Heading(*x) for x in heads]),
        blocks,
        tags,
        aliases,
        tuple([Finding(*x) for x in finds]),
        body_line,
        first,
    )


def parse_note(path: str, data: bytes) -> Note:
    """:func:`vaultkit.vault.parse.parse_note`, imported on the first parse: a warm run, which
    parses nothing, never loads the parser (markdown-it-py, PyYAML)."""
    from vaultkit.vault.parse import parse_note as parse

    return parse(path, data)


def read_one(root: str, job: Job) -> Parsed:
    """Stat, read and hash one file; parse it unless its digest is the known one."""
    path, known = job
    full = os.path.join(root, path)
    try:
        info = os.stat(full)
        with open(full, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return Parsed(path, -1, -1, -1, -1, b"", None, exc.strerror or type(exc).__name__)
    digest = digest_of(data)
    stat = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    if digest == known:
        return Parsed(path, *stat, digest, None)
    note = parse_note(path, data)
    return Parsed(path, *stat, digest, marshal.dumps(note_record(note)), None, note)


Read = tuple[str, Note | None, str | None]  # vault path, its note or None, why it was not read


def _parse_here(root: str, path: str) -> Read:
    try:
        with open(os.path.join(root, path), "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return path, None, exc.strerror or type(exc).__name__
    return path, parse_note(path, data), None


def parse_all(root: str, paths: Sequence[str], progress: Progress | None = None) -> Iterator[Read]:
    """Every note at ``paths`` parsed (no digest, no cache record), in order. In this process
    the note is kept as parsed: a record's copy and its marshalled bytes would hold a huge
    note's links two more times over."""
    if workers_for(len(paths)) > 1 or splits(len(paths)):
        for parsed in read_all(root, [(p, None) for p in paths], progress):
            if parsed.error is not None or parsed.record is None:
                yield parsed.path, None, parsed.error or "unknown error"
            elif parsed.note is not None:  # parsed here (the parent's share of a split)
                yield parsed.path, parsed.note, None
            else:
                yield parsed.path, note_from_record(marshal.loads(parsed.record)), None
        return
    for done, path in enumerate(paths, start=1):
        yield _parse_here(root, path)
        if progress is not None:
            progress(done, len(paths))


ParsedRow = tuple[str, int, int, int, int, bytes, bytes | None, str | None]


def _read_chunk(root: str, jobs: Sequence[Job]) -> bytes:
    """A worker's results as one marshalled list of plain rows: pickling slotted dataclasses
    costs both sides several times more than marshal does."""
    gc.enable()  # a forked worker inherits the parent's paused collector; parsing needs it
    return marshal.dumps(chunk_rows(root, jobs))


def chunk_rows(root: str, jobs: Sequence[Job]) -> list[ParsedRow]:
    """:func:`read_one` of each job as a plain row (what :func:`unpack_rows` turns back)."""
    rows: list[ParsedRow] = []
    for job in jobs:
        got = read_one(root, job)
        rows.append(
            (
                got.path,
                got.size,
                got.mtime_ns,
                got.ctime_ns,
                got.inode,
                got.digest,
                got.record,
                got.error,
            )
        )
    return rows


def _unpack_chunk(blob: bytes) -> list[Parsed]:
    rows: list[ParsedRow] = marshal.loads(blob)
    return unpack_rows(rows)


def unpack_rows(rows: Sequence[ParsedRow]) -> list[Parsed]:
    return [Parsed(*row) for row in rows]


def _chunks(jobs: Sequence[Job], size: int) -> list[Sequence[Job]]:
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def _chunk_size(jobs: int, workers: int) -> int:
    return max(10, min(CHUNK_FILES, jobs // (workers * 4)))


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _may_fork() -> bool:
    """Forking copies only the calling thread: beside other threads (``vaultkit watch``) the
    child could inherit a lock some other thread held."""
    return threading.active_count() == 1


def workers_for(count: int) -> int:
    """Processes worth starting for ``count`` files: 1 below the threshold, else the cores."""
    cores = _cores()
    if count < PARALLEL_MIN_FILES or cores < 2 or not _may_fork():
        return 1
    return cores


def splits(count: int) -> bool:
    """True when ``count`` files are worth sharing with one forked child (``splitread``):
    too few for a pool, enough that a fork (about a millisecond) costs less than half the parse.
    Linux only: elsewhere (macOS) a fork without exec is not safe with every system library."""
    if not SPLIT_MIN_FILES <= count < PARALLEL_MIN_FILES or not sys.platform.startswith("linux"):
        return False
    return _cores() >= 2 and _may_fork()


def read_all(
    root: str, jobs: Sequence[Job], progress: Progress | None = None, *, workers: int | None = None
) -> Iterator[Parsed]:
    """Results for every job, in job order; a process pool when ``workers`` (default: by count)
    is more than one. ``progress(done, len(jobs))`` is called as results arrive."""
    count = workers if workers is not None else workers_for(len(jobs))
    if workers is None and count <= 1 and splits(len(jobs)):
        from vaultkit.vault.splitread import split_read

        yield from split_read(root, jobs, progress)
        return
    if count <= 1:
        for done, job in enumerate(jobs, start=1):
            yield read_one(root, job)
            if progress is not None:
                progress(done, len(jobs))
        return
    from concurrent.futures import ProcessPoolExecutor  # only large loads pay for this import

    done = 0
    with ProcessPoolExecutor(max_workers=count) as pool:
        # map() lets go of each chunk's results once yielded: the parent never holds them all
        chunks = _chunks(jobs, _chunk_size(len(jobs), count))
        for blob in pool.map(_read_chunk, repeat(root), chunks):
            rows = _unpack_chunk(blob)
            yield from rows
            done += len(rows)
            if progress is not None:
                progress(done, len(jobs))
