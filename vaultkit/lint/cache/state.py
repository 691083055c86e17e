"""The lint cache's stored state: the schema, its rows with named fields, reading and writing.

One SQLite database per vault, ``<state folder>/lint.sqlite``. ``meta`` holds the small values
every run reads (:class:`Meta`) and the blobs of the last run: its findings, the incoming-link
count per target (VK301) and every note's INDEX.md entry (VK401/VK402). ``notes`` holds each
note's content digest and :class:`~vaultkit.lint.compact.NoteData`; ``deps`` indexes those by
dependency key; ``folders`` each folder's stat digest and stats; ``names`` and ``aliases`` the
file names and aliases links are resolved against. Blobs are marshalled plain tuples; bytes
that do not decode raise :class:`StoredDamage` (the run takes the full path and rebuilds).
"""

from __future__ import annotations

import contextlib
import marshal
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from vaultkit.base.config import Config
from vaultkit.base.sqlitedb import (
    Superseded,
    delete_database,
    log_beside,
    open_database,
    source_digest,
    write_transaction,
)
from vaultkit.lint.cache.walk import Stats, Walked
from vaultkit.lint.compact import EntryRow, FindingRow, NoteData, name_key
from vaultkit.vault.cache import cache_version
from vaultkit.vault.resolve import match_key

LINT_CACHE_NAME = "lint.sqlite"
SCHEMA = 2
BATCH = 500  # keys per ``IN (...)`` query
_DEPS_INDEX = "CREATE INDEX IF NOT EXISTS deps_key ON deps (key, path)"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS notes (path TEXT PRIMARY KEY, digest BLOB NOT NULL, "
    "data BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS deps (key TEXT NOT NULL, path TEXT NOT NULL)",
    _DEPS_INDEX,
    "CREATE TABLE IF NOT EXISTS folders (folder TEXT PRIMARY KEY, digest BLOB NOT NULL, "
    "stats BLOB NOT NULL)",
    "CREATE TABLE IF NOT EXISTS names (key TEXT NOT NULL, path TEXT NOT NULL, "
    "PRIMARY KEY (key, path)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS aliases (key TEXT NOT NULL, path TEXT NOT NULL, "
    "alias TEXT NOT NULL, PRIMARY KEY (key, path, alias)) WITHOUT ROWID",
)
_TABLES = frozenset({"meta", "notes", "deps", "folders", "names", "aliases"})
_CODE_FILES = (
    "lint/cache/run.py",
    "lint/cache/state.py",
    "lint/cache/walk.py",
    "lint/cache/plan.py",
    "lint/cache/merge.py",
    "vault/cache.py",
    "vault/index.py",
    "vault/resolve.py",
    "vault/relink.py",
    "vault/analysis.py",
    "vault/load.py",
    "lint/codes.py",
    "lint/compact.py",
    "lint/context.py",
    "lint/indexrules.py",
    "lint/links.py",
    "lint/notes.py",
    "lint/runner.py",
)
T = TypeVar("T")


class StoredDamage(Exception):
    """Stored bytes that do not decode to what this version wrote: rebuild, never trust."""


class Full(NamedTuple):
    """Why a run takes the full path instead of the stored or incremental one."""

    reason: str


class NoteRow(NamedTuple):
    """A note's stored row: its content digest (b"": not known) and its compact data."""

    digest: bytes
    data: NoteData


class AliasRow(NamedTuple):
    """One alias of a note, under the key links are matched by."""

    key: str
    path: str
    alias: str


class FolderRow(NamedTuple):
    """One folder's stat digest and its marshalled stats."""

    digest: bytes
    stats: bytes


@cache
def lint_version() -> str:
    """A digest of everything stored findings depend on besides the vault and its settings."""
    return source_digest((SCHEMA, cache_version(), sys.version_info[:2]), _CODE_FILES)


def decoded(blob: object, what: str, build: Callable[[Any], T]) -> T:
    """``build(marshal.loads(blob))``; :class:`StoredDamage` when ``blob`` is missing or its
    bytes (or the shape ``build`` checks) are not what this version stores."""
    if not isinstance(blob, bytes):
        raise StoredDamage(f"no stored {what}")
    try:
        return build(marshal.loads(blob))
    except (ValueError, EOFError, TypeError) as exc:  # what marshal and the row types raise
        raise StoredDamage(f"stored {what}: {exc}") from exc


def alias_rows(path: str, aliases: Iterable[str]) -> list[AliasRow]:
    return [AliasRow(match_key(a.strip()), path, a) for a in aliases if a.strip()]


@dataclass(frozen=True, slots=True)
class Meta:
    """The small meta values every cached run reads."""

    generation: int
    fingerprint: bytes
    racy: tuple[str, ...]
    retry: tuple[str, ...]  # notes to read again next run (unreadable, or digest unknown)
    notes: int
    indexed: bool  # INDEX.md entries are kept (the vault had a readable INDEX.md)


def meta_values(
    config: Config,
    walked: Walked,
    retry: Sequence[str],
    findings: Sequence[FindingRow] | None,
    notes: int,
) -> dict[str, object]:
    """The meta values a run stores (``findings`` None: the stored ones still hold)."""
    meta: dict[str, object] = {
        "version": lint_version(),
        "config": repr(config),
        "fingerprint": walked.fingerprint,
        "racy": marshal.dumps(walked.racy(retry)),
        "retry": marshal.dumps(tuple(retry)),
        "notes": notes,
    }
    if findings is not None:
        meta["findings"] = marshal.dumps(tuple(map(tuple, findings)))
    return meta


def _in_batches(keys: Iterable[str]) -> Iterator[tuple[list[str], str]]:
    wanted = list(keys)
    for i in range(0, len(wanted), BATCH):
        batch = wanted[i : i + BATCH]
        yield batch, ",".join("?" * len(batch))


class LintStore:
    """An open lint database. Reads happen in one snapshot (:meth:`snapshot`)."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn

    @classmethod
    def open(cls, path: Path) -> LintStore | None:
        conn = open_database(path, _ensure_schema, "lint cache")
        return None if conn is None else cls(path, conn)

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def log(self, message: str) -> None:
        log_beside(self.path, f"lint cache: {self.path} {message}")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("COMMIT")

    def meta(self, *keys: str) -> dict[str, object]:
        marks = ",".join("?" * len(keys))
        query = f"SELECT key, value FROM meta WHERE key IN ({marks})"
        return dict(self.conn.execute(query, keys).fetchall())

    def read_meta(self, config: Config) -> Meta | Full:
        """The stored meta values, or why they cannot serve ``config`` (a version mismatch is
        logged; damaged values raise :class:`StoredDamage`)."""
        keys = ("version", "config", "generation", "fingerprint", "racy", "retry", "notes")
        meta = self.meta(*keys, "indexed")
        if not meta:
            return Full("no stored state")
        if meta.get("version") != lint_version():
            self.log("was written by another vaultkit version; rebuilt")
            return Full("written by another vaultkit version")
        if meta.get("config") != repr(config):
            return Full("settings changed")
        generation, fp = meta.get("generation"), meta.get("fingerprint")
        notes, indexed = meta.get("notes"), meta.get("indexed")
        if not isinstance(generation, int) or not isinstance(fp, bytes):
            raise StoredDamage("stored generation or fingerprint")
        if not isinstance(notes, int) or not isinstance(indexed, int):
            raise StoredDamage("stored note count")
        racy = decoded(meta.get("racy"), "racy notes", tuple)
        retry = decoded(meta.get("retry"), "notes to retry", tuple)
        return Meta(generation, fp, racy, retry, notes, bool(indexed))

    def finding_rows(self) -> list[FindingRow]:
        """The stored findings as rows (sorted and unique when stored)."""
        return decoded(self.meta("findings").get("findings"), "findings", _finding_rows)

    def incoming(self) -> dict[str, int]:
        """Stored count of incoming links per target (VK301)."""
        return decoded(self.meta("incoming").get("incoming"), "incoming links", dict)

    def entries(self) -> dict[str, EntryRow]:
        """Stored INDEX.md entry data per note (VK401/VK402)."""
        return decoded(self.meta("entries").get("entries"), "entries", _entries)

    def rows(self, paths: Iterable[str]) -> dict[str, NoteRow]:
        """Stored rows of ``paths`` that have one."""
        found: dict[str, NoteRow] = {}
        for batch, marks in _in_batches(paths):
            query = f"SELECT path, digest, data FROM notes WHERE path IN ({marks})"
            for path, digest, data in self.conn.execute(query, batch):
                found[path] = NoteRow(digest, decoded(data, "note row", NoteData.from_row))
        return found

    def folders(self) -> dict[str, bytes]:
        return dict(self.conn.execute("SELECT folder, digest FROM folders").fetchall())

    def folder_stats(self, folders: Iterable[str]) -> Stats:
        found: Stats = {}
        for folder in folders:
            row = self.conn.execute(
                "SELECT stats FROM folders WHERE folder = ?", (folder,)
            ).fetchone()
            if row is not None:
                found.update(decoded(row[0], "folder stats", dict))
        return found

    def file_names(self, keys: Iterable[str]) -> list[str]:
        """Vault files whose name key is one of ``keys``."""
        found: list[str] = []
        for batch, marks in _in_batches(keys):
            query = f"SELECT path FROM names WHERE key IN ({marks})"
            found.extend(r[0] for r in self.conn.execute(query, batch))
        return found

    def aliases(self, keys: Iterable[str]) -> list[AliasRow]:
        """Stored aliases whose key is one of ``keys``."""
        found: list[AliasRow] = []
        for batch, marks in _in_batches(keys):
            query = f"SELECT key, path, alias FROM aliases WHERE key IN ({marks})"
            found.extend(map(AliasRow._make, self.conn.execute(query, batch)))
        return found

    def paths_with(self, keys: Iterable[str]) -> set[str]:
        """Notes with any of the dependency ``keys``."""
        found: set[str] = set()
        for batch, marks in _in_batches(keys):
            query = f"SELECT path FROM deps WHERE key IN ({marks})"
            found.update(r[0] for r in self.conn.execute(query, batch))
        return found

    def generation(self) -> object:
        """The stored generation now (None: none, or unreadable)."""
        try:
            found = self.conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        except sqlite3.Error:
            return None
        return found[0] if found else None

    def write(self, expected: object, update: Update) -> None:
        """Apply ``update`` when the stored generation is still ``expected``; a busy database
        is left as it is (logged), a broken one is deleted."""

        def work() -> None:
            current = self.conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
            if (current[0] if current else None) != expected:
                raise Superseded
            update.apply(self.conn, 0 if not isinstance(expected, int) else expected + 1)

        write_transaction(self.conn, self.path, "lint cache", self._broken, work)

    def _broken(self, exc: sqlite3.Error) -> None:
        self.log(f"is unreadable ({exc}); rebuilt")
        self.close()
        delete_database(self.path)


def _finding_rows(rows: Iterable[Sequence[Any]]) -> list[FindingRow]:
    return list(map(FindingRow._make, rows))


def _entries(rows: Mapping[str, Sequence[Any]]) -> dict[str, EntryRow]:
    return {path: EntryRow._make(row) for path, row in rows.items()}


def _ensure_schema(conn: sqlite3.Connection) -> None:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if tables and not tables >= _TABLES:
        raise sqlite3.DatabaseError("not a vaultkit lint cache")
    if not tables:
        conn.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA:
            conn.execute(statement)
        conn.execute("COMMIT")


@dataclass(frozen=True, slots=True)
class Update:
    """What a run writes: meta values, note rows (None: delete) with the dependency keys of
    their old rows, folder rows (None: delete), file names and alias rows added or removed
    and, with ``replace``, everything else dropped first."""

    meta: Mapping[str, object] = field(default_factory=dict)
    rows: Mapping[str, NoteRow | None] = field(default_factory=dict)
    old_deps: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    folders: Mapping[str, FolderRow | None] = field(default_factory=dict)
    names_added: Sequence[str] = ()
    names_removed: Sequence[str] = ()
    aliases_added: Sequence[AliasRow] = ()
    aliases_removed: Sequence[AliasRow] = ()
    replace: bool = False

    @property
    def empty(self) -> bool:
        return not self.meta and not self.rows

    def apply(self, conn: sqlite3.Connection, generation: int) -> None:
        if self.replace:  # dropping is far cheaper than deleting a million rows
            for table in sorted(_TABLES):
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in _SCHEMA:
                if statement != _DEPS_INDEX:  # built once, after the bulk insert
                    conn.execute(statement)
        self._apply_notes(conn)
        if self.replace:
            conn.execute(_DEPS_INDEX)
        self._apply_names(conn)
        values = {**self.meta, "generation": generation}
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(values.items()))

    def _apply_notes(self, conn: sqlite3.Connection) -> None:
        conn.executemany(
            "DELETE FROM deps WHERE key = ? AND path = ?",
            [(k, p) for p, keys in self.old_deps.items() for k in keys],
        )
        gone = [(p,) for p, row in self.rows.items() if row is None]
        conn.executemany("DELETE FROM notes WHERE path = ?", gone)
        kept = [(p, row) for p, row in self.rows.items() if row is not None]
        conn.executemany(
            "INSERT OR REPLACE INTO notes VALUES (?, ?, ?)",
            [(p, row.digest, marshal.dumps(row.data.row())) for p, row in kept],
        )
        conn.executemany(
            "INSERT INTO deps VALUES (?, ?)", [(k, p) for p, row in kept for k in row.data.deps]
        )
        conn.executemany(
            "DELETE FROM folders WHERE folder = ?",
            [(f,) for f, row in self.folders.items() if row is None],
        )
        conn.executemany(
            "INSERT OR REPLACE INTO folders VALUES (?, ?, ?)",
            [(f, *row) for f, row in self.folders.items() if row is not None],
        )

    def _apply_names(self, conn: sqlite3.Connection) -> None:
        conn.executemany(
            "DELETE FROM names WHERE key = ? AND path = ?",
            [(name_key(p), p) for p in self.names_removed],
        )
        conn.executemany(
            "INSERT OR IGNORE INTO names VALUES (?, ?)",
            sorted((name_key(p), p) for p in self.names_added),
        )
        conn.executemany(
            "DELETE FROM aliases WHERE key = ? AND path = ? AND alias = ?", self.aliases_removed
        )
        conn.executemany("INSERT OR IGNORE INTO aliases VALUES (?, ?, ?)", self.aliases_added)
