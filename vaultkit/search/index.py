"""The search index: one SQLite FTS5 database per corpus, refreshed from the files it covers.

Derived state: it is rebuilt from the files when missing, of another schema, or damaged (one
log line), refreshed incrementally (only files whose size, mtime, ctime or inode changed are
parsed again: a file git checks out, or a tool copies with its old mtime, still has a new ctime
and inode), and nothing else in vaultkit depends on it. Besides the title, headings and body, a
note's ``aliases`` and tags (the ``aliases`` column) and its ``description`` are searchable.
Words are indexed by FTS5's ``unicode61`` tokenizer (diacritics folded, so ``cafe`` finds
``café``); Chinese, Japanese and Korean text is indexed again as bigrams and single characters
(:mod:`vaultkit.search.grams`). The ``heads`` table holds each document's title, headings and
aliases again, alone: its short doclists rank a query so common that ranking every match would
be slow (see :mod:`vaultkit.search.find`). An index that cannot be written where it belongs
(a read-only vault or store) is kept in memory (:func:`open_index`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from vaultkit.base.log import append_log
from vaultkit.base.record import Record
from vaultkit.base.statedir import ensure_folder
from vaultkit.errors import VaultkitError
from vaultkit.search.corpus import Corpus, walk
from vaultkit.search.grams import bigram_text, unigram_text

TYPE_CHECKING = False
if TYPE_CHECKING:  # read_document is imported when a file is read, not by every search
    from vaultkit.search.document import Document

SCHEMA = "vaultkit-search-5"  # 3: files.author, ctime_ns, inode; 4: aliases, description;
# 5: Latin words glued to CJK text in the unigram columns (CSS는 -> css)
LOG_NAME = "vaultkit.log"
_SCHEMA_SQL = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,"
    " size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,"
    " inode INTEGER NOT NULL, date TEXT NOT NULL,"
    " agent TEXT NOT NULL, author TEXT NOT NULL, title TEXT NOT NULL,"
    " body_line INTEGER NOT NULL)",
    "CREATE TABLE tags (id INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (tag, id))",
    "CREATE INDEX tags_id ON tags (id)",  # a re-indexed file drops its tags without a scan
    "CREATE VIRTUAL TABLE docs USING fts5(title, headings, aliases, description, body,"
    " gtitle, gbody, uni, tokenize = 'unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE heads USING fts5(title, headings, aliases, gtitle, utitle,"
    " tokenize = 'unicode61 remove_diacritics 2')",
)

Progress = Callable[[int, int], None]
PARALLEL_MIN = 500  # files: below this a process pool costs more than it saves
CHUNK = 64
AUTO_REFRESH_MAX = 20_000  # documents: above this a search trusts the index (see ``opened``)


class Refresh(Record):
    """What one refresh did: files parsed again, removed, and the number indexed after it."""

    updated: int
    removed: int
    total: int
    rebuilt: bool = False
    skipped: bool = False  # not refreshed: a large index trusted as it is
    in_memory: bool = False  # the index could not be written where it belongs (read-only)


def _log(corpus: Corpus, message: str) -> None:
    append_log(corpus.state_dir / LOG_NAME, f"search: {message}")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    conn.execute("PRAGMA busy_timeout = 10000")
    return conn


def _schema_ok(conn: sqlite3.Connection) -> bool:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.DatabaseError:
        return False
    return row is not None and row[0] == SCHEMA


def _create(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN IMMEDIATE")
    for statement in _SCHEMA_SQL:
        conn.execute(statement)
    conn.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA,))
    conn.execute("COMMIT")


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(path) + suffix).unlink()


def open_index(corpus: Corpus) -> tuple[sqlite3.Connection, bool]:
    """The open index of ``corpus`` and whether it was (re)created just now. When the index
    cannot be written where it belongs (a read-only vault or store, or a store that does not
    exist yet, where nothing is to be written), it is kept in memory (:func:`in_memory`)."""
    if not corpus.root.is_dir():
        return _memory(), True
    path = corpus.index_path
    try:
        ensure_folder(path.parent)
        existed = path.exists()
        conn = _connect(path)
        if existed and _schema_ok(conn):
            return (conn, False) if _writable(conn) else in_memory(corpus)
    except (OSError, sqlite3.OperationalError):
        return in_memory(corpus)
    conn.close()
    if existed:
        if not _writable_folder(path.parent):
            return in_memory(corpus)
        _log(corpus, f"{path}: not a current search index (damaged or older); rebuilt")
        _remove(path)
    try:
        conn = _connect(path)
        _create(conn)
    except (OSError, sqlite3.OperationalError):
        return in_memory(corpus)
    return conn, True


def _memory() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    _create(conn)
    return conn


def in_memory(corpus: Corpus) -> tuple[sqlite3.Connection, bool]:
    """An index in memory: a copy of the index on disk when it can be read and is current
    (so only the files changed since are parsed again), else an empty one to fill."""
    uri = corpus.index_path.resolve().as_uri() + "?mode=ro"
    try:
        disk = sqlite3.connect(uri, uri=True)
        try:
            if _schema_ok(disk):
                conn = sqlite3.connect(":memory:", isolation_level=None)
                disk.backup(conn)
                return conn, False
        finally:
            disk.close()
    except sqlite3.Error:
        pass
    return _memory(), True


def is_memory(conn: sqlite3.Connection) -> bool:
    """True for an index kept in memory (see :func:`open_index`)."""
    return all(row[2] == "" for row in conn.execute("PRAGMA database_list"))


def _writable(conn: sqlite3.Connection) -> bool:
    """Whether the current index can be written: a row written and rolled back (on a
    read-only file system the write lock alone is granted). Closes it when it cannot."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('probe', '')")
        conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc) or "read-only" in str(exc):
            conn.close()
            return False
        raise
    return True


def _writable_folder(folder: Path) -> bool:
    probe = folder / f".probe-{os.getpid()}"
    try:
        probe.touch()
        probe.unlink()
    except OSError:
        return False
    return True


FileStat = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode
Stored = dict[str, tuple[int, FileStat]]  # shown path -> file id, its stat when indexed


def file_stat(info: os.stat_result) -> FileStat:
    """What tells a changed file from the one indexed."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)


def _stored(conn: sqlite3.Connection, only: Iterable[str] | None = None) -> Stored:
    """The indexed files: all of them, or those of the shown paths ``only`` (one lookup each,
    so the worker's one-note update does not read 100,000 rows)."""
    sql = "SELECT path, id, size, mtime_ns, ctime_ns, inode FROM files"
    if only is None:
        return {row[0]: (row[1], tuple(row[2:])) for row in conn.execute(sql)}
    found: Stored = {}
    for shown in only:
        for row in conn.execute(sql + " WHERE path = ?", (shown,)):
            found[row[0]] = (row[1], tuple(row[2:]))
    return found


Todo = tuple[str, str, Path, os.stat_result]  # shown path, kind, file, its stat


def _changed(corpus: Corpus, stored: Stored) -> tuple[list[Todo], set[str]]:
    """Files to parse again and every shown path seen."""
    todo: list[Todo] = []
    seen: set[str] = set()
    for source in corpus.sources:
        for rel, info in walk(source):
            shown = source.prefix + rel
            if shown in seen:
                continue
            seen.add(shown)
            old = stored.get(shown)
            if old is None or old[1] != file_stat(info):
                todo.append((shown, source.kind, source.folder / rel, info))
    return todo, seen


def _insert(conn: sqlite3.Connection, doc: Document, info: os.stat_result) -> None:
    cursor = conn.execute(
        "INSERT INTO files (path, kind, size, mtime_ns, ctime_ns, inode, date, agent, author,"
        " title, body_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            doc.path,
            doc.kind,
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
            info.st_ino,
            doc.date,
            doc.agent,
            doc.author,
            doc.title,
            doc.body_line,
        ),
    )
    fid = cursor.lastrowid
    names = doc.names
    heads = "\n".join((doc.title, doc.headings, names))
    gheads = bigram_text(heads)
    body = doc.description + "\n" + doc.body if doc.description else doc.body
    conn.execute(
        "INSERT INTO docs (rowid, title, headings, aliases, description, body, gtitle, gbody, uni)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            fid,
            doc.title,
            doc.headings,
            names,
            doc.description,
            doc.body,
            gheads,
            bigram_text(body),
            unigram_text(heads + "\n" + body),
        ),
    )
    conn.execute(
        "INSERT INTO heads (rowid, title, headings, aliases, gtitle, utitle)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (fid, doc.title, doc.headings, names, gheads, unigram_text(heads)),
    )
    conn.executemany("INSERT OR IGNORE INTO tags VALUES (?, ?)", [(fid, t) for t in doc.tags])


def _delete(conn: sqlite3.Connection, fid: int) -> None:
    conn.execute("DELETE FROM docs WHERE rowid = ?", (fid,))
    conn.execute("DELETE FROM heads WHERE rowid = ?", (fid,))
    conn.execute("DELETE FROM tags WHERE id = ?", (fid,))
    conn.execute("DELETE FROM files WHERE id = ?", (fid,))


def _load(item: tuple[str, str, str, float]) -> Document | None:
    """Read and parse one file (runs in a pool worker for large batches)."""
    shown, kind, file, mtime = item
    try:
        with open(file, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    from vaultkit.search.document import read_document

    return read_document(shown, kind, data, mtime)


def _documents(todo: list[Todo]) -> Iterator[Document | None]:
    """The parsed documents of ``todo``, in order; a process pool for large batches."""
    items = [(shown, kind, str(file), info.st_mtime) for shown, kind, file, info in todo]
    workers = min(os.cpu_count() or 1, 8)
    if len(items) < PARALLEL_MIN or workers < 2:
        yield from map(_load, items)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(_load, items, chunksize=CHUNK)


def _targeted(corpus: Corpus, shown_paths: Iterable[str]) -> tuple[list[Todo], set[str]]:
    """Like :func:`_changed` for the named shown paths only (each stat once)."""
    todo: list[Todo] = []
    gone: set[str] = set()
    for shown in shown_paths:
        source = next((s for s in corpus.sources if s.prefix and shown.startswith(s.prefix)), None)
        source = source or next((s for s in corpus.sources if not s.prefix), None)
        if source is None:
            continue
        file = source.folder / shown[len(source.prefix) :]
        if source.refuses(file):
            gone.add(shown)
            continue
        try:
            todo.append((shown, source.kind, file, file.stat()))
        except OSError:
            gone.add(shown)
    return todo, gone


def refresh(
    conn: sqlite3.Connection,
    corpus: Corpus,
    progress: Progress | None = None,
    only: Iterable[str] | None = None,
) -> Refresh:
    """Bring the index up to date with the files: parse changed files, drop removed ones.

    ``only`` names the shown paths to look at (what the worker just wrote), instead of walking
    every source folder."""
    if only is None:
        stored = _stored(conn)
        todo, seen = _changed(corpus, stored)
        gone = [stored[p][0] for p in stored.keys() - seen]
    else:
        only = list(dict.fromkeys(only))
        stored = _stored(conn, only)
        todo, missing = _targeted(corpus, only)
        gone = [stored[p][0] for p in missing if p in stored]
    if not todo and not gone:
        return Refresh(0, 0, len(stored) if only is None else _count(conn))
    conn.execute("BEGIN IMMEDIATE")
    try:
        for fid in gone:
            _delete(conn, fid)
        for done, ((shown, _, _, info), doc) in enumerate(
            zip(todo, _documents(todo), strict=True), 1
        ):
            if shown in stored:
                _delete(conn, stored[shown][0])
            if doc is not None:
                _insert(conn, doc, info)
            if progress is not None:
                progress(done, len(todo))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return Refresh(len(todo), len(gone), _count(conn))


def _count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM files").fetchone()[0])


@contextlib.contextmanager
def opened(
    corpus: Corpus, *, update: bool | None = True, progress: Progress | None = None
) -> Iterator[tuple[sqlite3.Connection, Refresh]]:
    """The index of ``corpus``, refreshed first unless ``update`` is False (a new or rebuilt
    index is always filled). Closed on exit, so no journal file is left behind."""
    conn, created = open_index(corpus)
    try:
        result = _refreshed(conn, corpus, True if created else update, progress)
    except sqlite3.OperationalError as exc:
        conn.close()
        raise _busy(corpus, exc) from exc
    except sqlite3.DatabaseError as exc:  # damaged pages found while refreshing: start again
        conn.close()
        _log(corpus, f"{corpus.index_path}: {exc}; rebuilt")
        _remove(corpus.index_path)
        conn, created = open_index(corpus)
        result = _refreshed(conn, corpus, True, progress)
    memory = is_memory(conn)
    if created or memory:
        updated, removed, total, skipped = (
            result.updated,
            result.removed,
            result.total,
            result.skipped,
        )
        result = Refresh(updated, removed, total, created, skipped, in_memory=memory)
    try:
        yield conn, result
    finally:
        conn.close()


def _refreshed(
    conn: sqlite3.Connection, corpus: Corpus, update: bool | None, progress: Progress | None
) -> Refresh:
    """Refresh when asked to; ``None`` (auto) refreshes an index of at most AUTO_REFRESH_MAX
    documents and trusts a larger one (its stat walk alone would cost most of a second)."""
    total = _count(conn)
    if update or (update is None and total <= AUTO_REFRESH_MAX):
        return refresh(conn, corpus, progress)
    return Refresh(0, 0, total, skipped=update is None)  # skipped: trusted without being asked


def _busy(corpus: Corpus, exc: sqlite3.OperationalError) -> VaultkitError:
    return VaultkitError(
        f"{corpus.index_path}: search index unavailable ({exc})",
        hint="another vaultkit process may be indexing; try again, or delete the file to rebuild",
    )


def update_index(corpus: Corpus, only: Iterable[str] | None = None) -> Refresh:
    """Refresh the index of ``corpus`` now: every file, or only the shown paths ``only`` (what
    the worker just wrote). A missing or damaged index is rebuilt whole either way. An index
    that cannot be written (a read-only store) is left alone: one built in memory here would be
    thrown away unread (``in_memory`` says so)."""
    conn, created = open_index(corpus)
    memory = is_memory(conn)
    conn.close()
    if memory:
        return Refresh(0, 0, 0, in_memory=True)
    if only is None or created:  # created just now (empty): filled whole
        with opened(corpus) as (_, result):
            return result.replace(rebuilt=True) if created else result
    with opened(corpus, update=False) as (conn, result):
        if result.rebuilt:
            return result
        return refresh(conn, corpus, None, only)
