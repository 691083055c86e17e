"""Incremental SQLite cache of parsed notes: a warm load re-reads only files that changed.

One database per vault, ``<state folder> / "cache.sqlite"`` (WAL, busy timeout, so concurrent
runs are safe; a first run builds it privately and links it into place complete:
:func:`vaultkit.base.sqlitedb.build_database`). Each row holds a note's path, size, mtime and
ctime (ns), inode, blake2b digest and its marshalled record (see
:mod:`vaultkit.vault.records`). A file whose stat matches its row on all four is not opened;
when one differs the file is read and hashed, and parsed only if the hash differs. The ctime and
the inode catch a rewrite that keeps size and mtime (a tool that puts the mtime back, a file
replaced by a copy), as the lint cache's walk does. A row written less than ``RACY_NS`` after
its file's mtime is "racy" (the file may change again within the same timestamp) and is verified
by hash on the next run.

The ``version`` row covers the schema, the parser's source code and the libraries it uses; a
mismatch drops and recreates the tables (an older schema's file is migrated so, with its rows
lost). A corrupt or foreign file is deleted and rebuilt. Both are logged in one line and never
raise: the cache can only make a load faster, never make it fail.
"""

from __future__ import annotations

import contextlib
import importlib.util
import marshal
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import NamedTuple

from vaultkit.base.digest import blake2b
from vaultkit.base.gcpause import gc_paused
from vaultkit.base.sqlitedb import (
    build_database,
    delete_database,
    log_beside,
    open_database,
    publish_database,
    reader,
    source_digest,
    write_transaction,
)
from vaultkit.base.store import state_dir_for_vault
from vaultkit.vault import strategy
from vaultkit.vault.model import Finding, Note
from vaultkit.vault.records import (
    Job,
    Parsed,
    digest_of,
    note_from_record,
    note_record,
    read_one,
)
from vaultkit.vault.relink import Affected, LinkState, affected, link_state, relink
from vaultkit.vault.resolve import FileIndex, ResolvedLink, build_file_index, resolve_all

CACHE_NAME = "cache.sqlite"
SCHEMA_VERSION = 3  # 3: ctime_ns and inode in the notes rows
RACY_NS = 2_000_000_000
SAVE_BATCH = 5000  # rows written per transaction during a load
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS notes (path TEXT PRIMARY KEY, size INTEGER NOT NULL, "
    "mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, "
    "digest BLOB NOT NULL, racy INTEGER NOT NULL, record BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS links (path TEXT PRIMARY KEY, digest BLOB NOT NULL, "
    "resolved BLOB NOT NULL)",
)

Progress = Callable[[int, int], None]
FileStat = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode
_COLUMNS = "path, size, mtime_ns, ctime_ns, inode, digest, racy"
_INSERT_NOTE = "INSERT OR REPLACE INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?)"


class Row(NamedTuple):
    """One note's row: what its file looked like when it was parsed, and the parse."""

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    digest: bytes
    racy: int  # written within RACY_NS of the file's mtime: verify by hash next time
    record: bytes  # marshalled :func:`vaultkit.vault.records.note_record` (b"" when not read)

    def file_stat(self) -> FileStat:
        """What the file's stat was when the row was written: (size, mtime, ctime, inode)."""
        return (self.size, self.mtime_ns, self.ctime_ns, self.inode)


@dataclass(frozen=True, slots=True)
class Loaded:
    """Notes in path order, VK202 findings for files that could not be read, and counts."""

    notes: list[Note]
    unreadable: list[Finding]
    reused: int = 0  # notes taken from the cache without opening the file
    parsed: int = 0  # notes parsed in this run
    digests: dict[str, bytes] = field(default_factory=dict)  # note path -> content digest


@dataclass(frozen=True, slots=True)
class Parts:
    """What :func:`load_parts` gives ``load_vault``."""

    notes: list[Note]
    unreadable: list[Finding]
    index: FileIndex
    links: Sequence[ResolvedLink]


def cache_path(root: Path, state_dir: Path | None = None) -> Path:
    """Where the cache of the vault at ``root`` lives (in ``state_dir`` when the caller has
    already found the vault's state folder)."""
    return (state_dir if state_dir is not None else state_dir_for_vault(root)) / CACHE_NAME


def _library_version(name: str) -> str:
    """A digest of a parser library's top module (where its ``__version__`` is written), read
    without importing the library: the same whether or not this process has parsed anything
    (a warm lint never imports the parser)."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return "?"
    with open(spec.origin, "rb") as handle:
        return blake2b(handle.read(), digest_size=8).hexdigest()


def fastparse_modules() -> tuple[str, ...]:
    """The fast parser's modules, listed without importing it (a warm run parses nothing)."""
    folder = Path(__file__).parent / "fastparse"
    return tuple(sorted(p.stem for p in folder.glob("*.py")))


@cache
def cache_version() -> str:
    """A digest of everything a cached record depends on: schema, parser code, libraries."""
    parts = (SCHEMA_VERSION, sys.version_info[:2], marshal.version)
    libs = (_library_version("markdown_it"), _library_version("yaml"))
    modules = (
        *(f"vault/{name}.py" for name in ("model", "parse", "wikilink", "wikisyntax", "records")),
        *(f"vault/fastparse/{name}.py" for name in fastparse_modules()),
    )
    return source_digest((parts, libs), modules)


def unreadable_finding(path: str, reason: str) -> Finding:
    """The VK202 finding for a note that could not be read."""
    return Finding(path, 1, 1, "VK202", "error", f"cannot read file: {reason}")


class NoteCache:
    """An open cache database. Every method swallows SQLite errors (a cache never fails a run).

    A first run (no file yet) writes a private file, ``building``, that :meth:`close` links
    into place complete (see :func:`vaultkit.base.sqlitedb.build_database`)."""

    def __init__(self, path: Path, conn: sqlite3.Connection, building: Path | None = None) -> None:
        self.path = path
        self.conn = conn
        self.building = building
        self.broken = False

    @classmethod
    def open(cls, path: Path) -> NoteCache | None:
        """Open (creating, emptying or rebuilding as needed) the cache file at ``path``; None
        when the state folder cannot be written."""
        if not path.exists():
            built = build_database(path, lambda c: _ensure_schema(path, c))
            if built is not None:
                return cls(path, *built)
        conn = open_database(path, lambda c: _ensure_schema(path, c), "cache")
        return None if conn is None else cls(path, conn)

    def close(self) -> None:
        """Close the database; a first run's file is published now (unless it broke)."""
        building, self.building = self.building, None
        if building is not None and not self.broken:
            publish_database(self.conn, building, self.path, "cache")
            return
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def rows(self) -> dict[str, Row]:
        """Every cached row by path; empty (and the file rebuilt next time) when unreadable."""
        try:
            cursor = self.conn.execute(f"SELECT {_COLUMNS}, record FROM notes")
            return {r[0]: Row(*r[1:]) for r in cursor}
        except sqlite3.Error as exc:
            self._broken(exc)
            return {}

    def save(self, rows: Iterable[tuple[str, Row]], removed: Iterable[str]) -> None:
        """Write changed rows and drop vanished paths in one transaction (skipped when the
        database stays locked past the busy timeout)."""
        values = [(path, *row) for path, row in rows]
        gone = [(path,) for path in removed]
        if not values and not gone:
            return

        def work() -> None:
            self.conn.executemany(_INSERT_NOTE, values)
            self.conn.executemany("DELETE FROM notes WHERE path = ?", gone)

        self._write(work)

    def link_snapshot(self) -> tuple[str | None, bytes | None, dict[str, tuple[bytes, bytes]]]:
        """The stored link state (digest, blob) and every note's resolutions (digest, blob),
        read in one snapshot."""
        try:
            self.conn.execute("BEGIN")
            meta = dict(self.conn.execute("SELECT key, value FROM meta"))
            cursor = self.conn.execute("SELECT path, digest, resolved FROM links")
            rows = {r[0]: (r[1], r[2]) for r in cursor}
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._broken(exc)
            return None, None, {}
        digest, blob = meta.get("link_state_digest"), meta.get("link_state")
        if not isinstance(digest, str) or not isinstance(blob, bytes):
            return None, None, {}
        return digest, blob, rows

    def save_links(
        self,
        rows: Iterable[tuple[str, bytes, bytes]],
        removed: Iterable[str],
        expected: str | None,
        state: tuple[str, bytes],
    ) -> None:
        """Store resolutions computed against ``state``. When another run changed the stored
        state since ``expected`` was read, every stored resolution is dropped instead."""

        def work() -> None:
            found = self.conn.execute(
                "SELECT value FROM meta WHERE key = 'link_state_digest'"
            ).fetchone()
            current = found[0] if found else None
            if current not in (expected, state[0]):
                self.conn.execute("DELETE FROM links")
                self.conn.execute("DELETE FROM meta WHERE key LIKE 'link_state%'")
            else:
                self.conn.executemany("INSERT OR REPLACE INTO links VALUES (?, ?, ?)", rows)
                self.conn.executemany("DELETE FROM links WHERE path = ?", [(p,) for p in removed])
                if current != state[0]:
                    self.conn.executemany(
                        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                        [("link_state_digest", state[0]), ("link_state", state[1])],
                    )

        self._write(work)

    def _write(self, work: Callable[[], None]) -> None:
        if not self.broken:  # a broken store's connection is closed
            write_transaction(self.conn, self.path, "cache", self._broken, work)

    def _broken(self, exc: sqlite3.Error) -> None:
        if self.broken:  # the connection is closed: later calls fail the same way
            return
        building, self.broken = self.building, True
        self.close()  # a broken build is not published
        if building is not None:  # a private first-run file: nobody else has it
            delete_database(building)
            log_beside(self.path, f"cache: {self.path} not written ({exc})")
            return
        log_beside(self.path, f"cache: {self.path} is unreadable ({exc}); rebuilt")
        delete_database(self.path)


def _ensure_schema(path: Path, conn: sqlite3.Connection) -> None:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and not {"meta", "notes", "links"} <= tables:
        raise sqlite3.DatabaseError("not a vaultkit cache")
    if not tables:
        conn.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA:
            conn.execute(statement)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", (cache_version(),))
        conn.execute("COMMIT")
    found = conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    if found is None or found[0] != cache_version():
        conn.execute("BEGIN IMMEDIATE")
        for table in ("notes", "links", "meta"):  # an older schema's columns go with them
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SCHEMA:
            conn.execute(statement)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (cache_version(),))
        conn.execute("COMMIT")
        log_beside(path, f"cache: {path} was written by another parser version; emptied")


def wanted(path: Path, notes: int, choice: bool | None) -> bool:
    """Whether a load of ``notes`` notes uses the cache file at ``path``
    (:func:`vaultkit.vault.strategy.choose`)."""
    return strategy.choose(notes, cache=choice, cache_exists=path.is_file()).cache


def decode_record(blob: bytes) -> Note | None:
    """The note of a stored record; None when the bytes are damaged (the file is parsed again).
    Only what bad bytes raise is caught: marshal's ValueError/EOFError/TypeError and the
    ValueError/TypeError of unpacking a record of the wrong shape."""
    try:
        return note_from_record(marshal.loads(blob))
    except (ValueError, EOFError, TypeError):
        return None


def row_is_fresh(root: str, path: str, row: Row) -> bool:
    """Whether the file at ``path`` still has the stat ``row`` was written for (never when
    the row is racy)."""
    if row.racy:
        return False
    try:
        info = os.stat(os.path.join(root, path))
    except OSError:
        return False
    return (
        info.st_mtime_ns == row.mtime_ns
        and info.st_ctime_ns == row.ctime_ns
        and info.st_size == row.size
        and info.st_ino == row.inode
    )


def _row(parsed: Parsed, record: bytes, now_ns: int) -> Row:
    racy = int(now_ns - parsed.mtime_ns < RACY_NS)
    stat = (parsed.size, parsed.mtime_ns, parsed.ctime_ns, parsed.inode)
    return Row(*stat, parsed.digest, racy, record)


def _uncached(root: Path, paths: Sequence[str], progress: Progress | None) -> Loaded:
    notes: list[Note] = []
    unreadable: list[Finding] = []
    for path, note, error in strategy.parse_all(str(root), paths, progress):
        if note is None:
            unreadable.append(unreadable_finding(path, error or "unknown error"))
        else:
            notes.append(note)
    return Loaded(notes, unreadable, 0, len(notes))


def load_parts(
    root: Path,
    files: Sequence[str],
    note_paths: Sequence[str],
    progress: Progress | None = None,
    *,
    cache: bool | None,
    state_dir: Path | None = None,
) -> Parts:
    """Read and parse the notes at ``note_paths``, index ``files`` and resolve every link,
    through the cache when it is wanted (the result is the same either way).

    ``cache``: False never touches it, True always uses it, None uses it for vaults of at least
    ``thresholds.TABLE.cache_min_notes`` notes or when a cache file already exists.
    ``state_dir``: the vault's state folder when the caller has found it (else looked up here).
    """
    with gc_paused():
        return _load_parts(root, files, note_paths, progress, cache, cache_path(root, state_dir))


def _load_parts(
    root: Path,
    files: Sequence[str],
    note_paths: Sequence[str],
    progress: Progress | None,
    cache: bool | None,
    path: Path,
) -> Parts:
    store = NoteCache.open(path) if wanted(path, len(note_paths), cache) else None
    if store is None:
        loaded = _uncached(root, note_paths, progress)
        index = _index(files, loaded.notes)
        return Parts(loaded.notes, loaded.unreadable, index, resolve_all(index, loaded.notes))
    try:
        loaded = _load_cached(root, note_paths, progress, store)
        index = _index(files, loaded.notes)
        links = _resolve_cached(store, files, loaded, index)
        return Parts(loaded.notes, loaded.unreadable, index, links)
    finally:
        store.close()


def _index(files: Sequence[str], notes: Sequence[Note]) -> FileIndex:
    return build_file_index(files, {note.path: note.aliases for note in notes})


def _resolve_cached(
    store: NoteCache, files: Sequence[str], loaded: Loaded, index: FileIndex
) -> Sequence[ResolvedLink]:
    expected, old_blob, rows = store.link_snapshot()
    state = link_state(files, loaded.notes)
    blob = state.blob()
    digest = blake2b(blob, digest_size=16).hexdigest()
    old = None if old_blob is None else LinkState.from_blob(old_blob)
    change = affected(old, state) if digest != expected or old is None else Affected()
    valid = {path: row[1] for path, row in rows.items() if loaded.digests.get(path) == row[0]}
    result = relink(index, loaded.notes, valid, change)
    if result.rows or digest != expected:
        new_rows = [(p, loaded.digests[p], b) for p, b in result.rows.items()]
        gone = [p for p in rows if p not in loaded.digests]
        store.save_links(new_rows, gone, expected, (digest, blob))
    return result.links


def _reusable(
    base: str, paths: Sequence[str], rows: dict[str, Row]
) -> tuple[dict[str, Note], list[Job]]:
    """The notes whose rows are fresh (decoded, their files not opened), and a job for each
    other path (with its row's digest, so an unchanged file is not parsed again)."""
    found: dict[str, Note] = {}
    jobs: list[Job] = []
    for path in paths:
        row = rows.get(path)
        fresh = row is not None and row_is_fresh(base, path, row)
        note = decode_record(row.record) if row is not None and fresh else None
        if note is not None:
            found[path] = note
        else:
            jobs.append((path, row.digest if row is not None else None))
    return found, jobs


def _settled(base: str, parsed: Parsed, old: Row | None) -> tuple[Parsed, bytes, Note | None]:
    """A read's note and record: parsed now, or the cached record when the digest matched; a
    damaged cached record means the file is parsed here after all."""
    record = parsed.record if parsed.record is not None else old.record if old else b""
    note = parsed.note if parsed.note is not None else decode_record(record)  # no round trip
    if note is None:
        parsed = read_one(base, (parsed.path, None))
        record = parsed.record or b""
        note = decode_record(record)
    return parsed, record, note


def _load_cached(
    root: Path, paths: Sequence[str], progress: Progress | None, store: NoteCache
) -> Loaded:
    base = str(root)
    rows = store.rows()
    found, jobs = _reusable(base, paths, rows)
    reused, total = len(found), len(paths)
    if progress is not None and reused:
        progress(reused, total)
    step = None if progress is None else (lambda done, _n: progress(reused + done, total))
    now_ns = time.time_ns()
    changed: list[tuple[str, Row]] = []
    unreadable: list[Finding] = []
    digests = {p: rows[p].digest for p in found}
    for parsed in strategy.read_all(base, jobs, step):
        note, record = None, b""
        if parsed.error is None:
            parsed, record, note = _settled(base, parsed, rows.get(parsed.path))
        if parsed.error is not None or note is None:
            unreadable.append(unreadable_finding(parsed.path, parsed.error or "unreadable"))
            continue
        found[parsed.path] = note
        digests[parsed.path] = parsed.digest
        changed.append((parsed.path, _row(parsed, record, now_ns)))
        if len(changed) >= SAVE_BATCH:  # bounded memory on a cold run of a large vault
            store.save(changed, ())
            changed = []
    listed = set(paths)
    failed = {f.path for f in unreadable}
    store.save(changed, [p for p in rows if p not in listed or p in failed])
    notes = [found[p] for p in paths if p in found]
    return Loaded(notes, unreadable, reused, len(jobs), digests)


def remember_written(path: Path, root: Path, written: Iterable[tuple[Note, bytes]]) -> None:
    """Store a row for each note a caller has just written (``note`` the parse of ``data``,
    the bytes it wrote at ``note.path``) in the existing cache file at ``path``. Each row is
    racy, so the next load hashes the file before it reuses the record: a later edit, even
    one that kept the stat, is parsed. Never creates the cache, never raises."""
    if not path.is_file():
        return
    rows: list[tuple[str, Row]] = []
    for note, data in written:
        try:
            info = os.stat(os.path.join(root, note.path))
        except OSError:
            continue
        stat = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        record = marshal.dumps(note_record(note))
        rows.append((note.path, Row(*stat, digest_of(data), 1, record)))
    store = NoteCache.open(path)
    if store is not None:
        try:
            store.save(rows, ())
        finally:
            store.close()


def stored_rows(
    path: Path, paths: Sequence[str] | None = None, *, records: bool = False
) -> dict[str, Row]:
    """Read-only look at the cache file at ``path``: the rows of ``paths`` (None: every row)
    without decoding anything (``record`` is ``b""`` unless ``records``). Empty when there is no
    cache of this parser version or it cannot be read; never writes, never raises."""
    if not path.is_file():
        return {}
    column = "record" if records else "x''"
    query = f"SELECT {_COLUMNS}, {column} FROM notes"
    found: dict[str, Row] = {}
    conn = reader(path)
    if conn is None:
        return {}
    try:
        version = conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        if version is None or version[0] != cache_version():
            return {}
        if paths is None:
            batches: list[Sequence[str] | None] = [None]
        else:
            batches = [paths[i : i + 500] for i in range(0, len(paths), 500)]
        for batch in batches:
            if batch is None:
                cursor = conn.execute(query)
            else:
                marks = ",".join("?" * len(batch))
                cursor = conn.execute(f"{query} WHERE path IN ({marks})", tuple(batch))
            found.update((r[0], Row(*r[1:])) for r in cursor)
    except sqlite3.Error:
        return {}
    finally:
        conn.close()
    return found
