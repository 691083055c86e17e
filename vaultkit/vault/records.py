"""What reading one note file gives, as plain values every load strategy shares.

A job is ``(path, known_digest)``: when the file's blake2b digest equals ``known_digest`` the
file is not parsed again (its cached record is still right). Results are plain tuples so they
cross process boundaries cheaply (marshal, not pickled objects). The serial reader
(:mod:`vaultkit.vault.strategy`) and the process pool (:mod:`vaultkit.vault.parallel`) both
read through :func:`read_one`.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vaultkit.base.digest import blake2b
from vaultkit.vault import model, thresholds
from vaultkit.vault.model import Finding, Heading, Link, LinkKind, Note, Severity

DIGEST_SIZE = 16

Job = tuple[str, bytes | None]  # vault path, digest of the cached record (None: none cached)
Progress = Callable[[int, int], None]
Read = tuple[str, Note | None, str | None]  # vault path, its note or None, why it was not read


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
    return model.pack_links(links) if len(rows) >= thresholds.TABLE.pack_min_links else tuple(links)


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


def parse_here(root: str, path: str) -> Read:
    """Read and parse one note in this process (no digest, no cache record)."""
    try:
        with open(os.path.join(root, path), "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return path, None, exc.strerror or type(exc).__name__
    return path, parse_note(path, data), None


ParsedRow = tuple[str, int, int, int, int, bytes, bytes | None, str | None]


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


def unpack_rows(rows: Sequence[ParsedRow]) -> list[Parsed]:
    """The :class:`Parsed` values of rows :func:`chunk_rows` made (in another process)."""
    return [Parsed(*row) for row in rows]
