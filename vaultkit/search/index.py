"""The search index: one SQLite FTS5 database per corpus, refreshed from the files it covers.

Derived state: it is rebuilt from the files when missing, of another schema, or damaged (one
log line), refreshed incrementally (only files whose size or mtime changed are parsed again),
and nothing else in vaultkit depends on it. Words are indexed by FTS5's ``unicode61`` tokenizer
(diacritics folded, so ``cafe`` finds ``café``); Chinese, Japanese and Korean text is indexed
again as bigrams and single characters (:mod:`vaultkit.search.grams`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.log import append_log
from vaultkit.errors import VaultkitError
from vaultkit.search.corpus import Corpus, walk
from vaultkit.search.document import Document, read_document
from vaultkit.search.grams import bigram_text, unigram_text

SCHEMA = "vaultkit-search-1"
LOG_NAME = "vaultkit.log"
_SCHEMA_SQL = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,"
    " size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, date TEXT NOT NULL,"
    " agent TEXT NOT NULL, title TEXT NOT NULL, body_line INTEGER NOT NULL)",
    "CREATE TABLE tags (id INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (tag, id))",
    "CREATE VIRTUAL TABLE docs USING fts5(title, headings, body, gtitle, gbody, uni,"
    " tokenize = 'unicode61 remove_diacritics 2')",
)

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Refresh:
    """What one refresh did: files parsed again, removed, and the number indexed after it."""

    updated: int
    removed: int
    total: int
    rebuilt: bool = False


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
    """The open index of ``corpus`` and whether it was (re)created just now."""
    path = corpus.index_path
    path.parent.mkdir(parents=True, exist_ok=True)
    existed = path.exists()
    conn = _connect(path)
    if existed and _schema_ok(conn):
        return conn, False
    conn.close()
    if existed:
        _log(corpus, f"{path}: not a current search index (damaged or older); rebuilt")
        _remove(path)
    conn = _connect(path)
    _create(conn)
    return conn, True


def _stored(conn: sqlite3.Connection) -> dict[str, tuple[int, int, int]]:
    rows = conn.execute("SELECT path, id, size, mtime_ns FROM files")
    return {path: (fid, size, mtime) for path, fid, size, mtime in rows}


Todo = tuple[str, str, Path, os.stat_result]  # shown path, kind, file, its stat


def _changed(
    corpus: Corpus, stored: dict[str, tuple[int, int, int]]
) -> tuple[list[Todo], set[str]]:
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
            if old is None or (old[1], old[2]) != (info.st_size, info.st_mtime_ns):
                todo.append((shown, source.kind, source.folder / rel, info))
    return todo, seen


def _insert(conn: sqlite3.Connection, doc: Document, info: os.stat_result) -> None:
    cursor = conn.execute(
        "INSERT INTO files (path, kind, size, mtime_ns, date, agent, title, body_line)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            doc.path,
            doc.kind,
            info.st_size,
            info.st_mtime_ns,
            doc.date,
            doc.agent,
            doc.title,
            doc.body_line,
        ),
    )
    fid = cursor.lastrowid
    heads = doc.title + "\n" + doc.headings
    conn.execute(
        "INSERT INTO docs (rowid, title, headings, body, gtitle, gbody, uni)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            fid,
            doc.title,
            doc.headings,
            doc.body,
            bigram_text(heads),
            bigram_text(doc.body),
            unigram_text(heads + "\n" + doc.body),
        ),
    )
    conn.executemany("INSERT OR IGNORE INTO tags VALUES (?, ?)", [(fid, t) for t in doc.tags])


def _delete(conn: sqlite3.Connection, fid: int) -> None:
    conn.execute("DELETE FROM docs WHERE rowid = ?", (fid,))
    conn.execute("DELETE FROM tags WHERE id = ?", (fid,))
    conn.execute("DELETE FROM files WHERE id = ?", (fid,))


def _read(file: Path) -> bytes | None:
    try:
        return file.read_bytes()
    except OSError:
        return None


def refresh(conn: sqlite3.Connection, corpus: Corpus, progress: Progress | None = None) -> Refresh:
    """Bring the index up to date with the files: parse changed files, drop removed ones."""
    stored = _stored(conn)
    todo, seen = _changed(corpus, stored)
    gone = [stored[p][0] for p in stored.keys() - seen]
    if not todo and not gone:
        return Refresh(0, 0, len(stored))
    conn.execute("BEGIN IMMEDIATE")
    try:
        for fid in gone:
            _delete(conn, fid)
        for done, (shown, kind, file, info) in enumerate(todo, 1):
            if shown in stored:
                _delete(conn, stored[shown][0])
            data = _read(file)
            doc = read_document(shown, kind, data, info.st_mtime) if data is not None else None
            if doc is not None:
                _insert(conn, doc, info)
            if progress is not None:
                progress(done, len(todo))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    total = conn.execute("SELECT count(*) FROM files").fetchone()[0]
    return Refresh(len(todo), len(gone), int(total))


@contextlib.contextmanager
def opened(
    corpus: Corpus, *, update: bool = True, progress: Progress | None = None
) -> Iterator[tuple[sqlite3.Connection, Refresh]]:
    """The index of ``corpus``, refreshed first unless ``update`` is False (a new or rebuilt
    index is always filled). Closed on exit, so no journal file is left behind."""
    conn, created = open_index(corpus)
    try:
        result = _refreshed(conn, corpus, update or created, progress)
    except sqlite3.OperationalError as exc:
        conn.close()
        raise _busy(corpus, exc) from exc
    except sqlite3.DatabaseError as exc:  # damaged pages found while refreshing: start again
        conn.close()
        _log(corpus, f"{corpus.index_path}: {exc}; rebuilt")
        _remove(corpus.index_path)
        conn, created = open_index(corpus)
        result = _refreshed(conn, corpus, True, progress)
    if created:
        result = Refresh(result.updated, result.removed, result.total, rebuilt=True)
    try:
        yield conn, result
    finally:
        conn.close()


def _refreshed(
    conn: sqlite3.Connection, corpus: Corpus, update: bool, progress: Progress | None
) -> Refresh:
    if update:
        return refresh(conn, corpus, progress)
    total = conn.execute("SELECT count(*) FROM files").fetchone()[0]
    return Refresh(0, 0, int(total))


def _busy(corpus: Corpus, exc: sqlite3.OperationalError) -> VaultkitError:
    return VaultkitError(
        f"{corpus.index_path}: search index unavailable ({exc})",
        hint="another vaultkit process may be indexing; try again, or delete the file to rebuild",
    )


def update_index(corpus: Corpus) -> Refresh:
    """Refresh the index of ``corpus`` now (what the worker calls after writing notes)."""
    with opened(corpus) as (_, result):
        return result
