"""Cached ``vaultkit lint``: an unchanged vault costs one stat walk, an edit re-lints only what
it can affect. The findings are always those of the full computation (``collect``).

One SQLite database per vault, ``state_dir_for_vault(root) / "lint.sqlite"`` (WAL, busy
timeout), beside the note cache. It holds the findings of the last run (every code, before
``--select``/``--ignore``) with the fingerprint they were computed from: every vault file's
path, each note's (size, mtime_ns, ctime_ns, inode), the settings as loaded from vaultkit.toml
and a digest of the lint, index, resolution and parser code (``lint_version``). Attachments
count by path only: their content never changes a finding.

Nothing changed (same fingerprint): the stored findings are returned. A note whose mtime was
within ``RACY_NS`` of the run that stored them is re-hashed first (it may have changed again
within the same timestamp), and a note that could not be read is always read again.

Something changed: per note the database keeps :class:`vaultkit.lint.compact.NoteData` (its
local findings and the little the global rules need) and an index of dependency keys. Notes
whose stat differs are read and hashed (parsed only when the hash differs). The notes linted
again are those whose content changed, those with a link a created/deleted/renamed file or a
changed alias can affect (:func:`vaultkit.vault.relink.affected`, looked up by dependency key) and
those with ``#heading``/``#^block`` links into a note whose headings or block ids changed. Only
they become Note values (from the note cache when it is current, else parsed); their links are
resolved against an index of just the files they could match. Orphans are recounted from
stored per-target link counts, duplicate names recomputed only when the file set changed, and
the INDEX.md rules only when INDEX.md, the note set or an entry changed. More than
``FULL_FRACTION`` of the notes dirty, or no usable stored state: the full path, which stores a
fresh state.

Failures never fail a lint: a corrupt or foreign database is deleted (one log line) and the
full path runs; a busy one is left alone (the run's result is still computed and returned).
Two runs at once each read one snapshot; a run writes only when the generation it read is
still current. ``cache=False`` (and vaults under ``CACHE_MIN_NOTES`` notes without a database)
never touch it.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import marshal
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from vaultkit.base import sqlitedb
from vaultkit.base.config import Config, load_config
from vaultkit.base.log import append_log
from vaultkit.base.store import config_file_for_vault, state_dir_for_vault
from vaultkit.lint.compact import (
    GLOBAL_CODES,
    EntryRow,
    FindingRow,
    NoteData,
    TargetKeys,
    duplicate_name_findings,
    finding_row,
    index_entries,
    name_key,
    note_data,
    orphan_findings,
)
from vaultkit.lint.context import LintContext
from vaultkit.lint.indexrules import index_findings
from vaultkit.lint.links import link_name, link_rules
from vaultkit.lint.notes import degraded_rule
from vaultkit.lint.runner import collect, read_index_text
from vaultkit.vault import cache as notecache
from vaultkit.vault import parallel
from vaultkit.vault.index import INDEX_NAME, LineLink
from vaultkit.vault.load import Vault, list_vault_files, load_vault
from vaultkit.vault.model import NOTE_SUFFIX, Finding, Heading, Note
from vaultkit.vault.parallel import note_from_record
from vaultkit.vault.relink import LinkState, affected
from vaultkit.vault.resolve import (
    FileIndex,
    ResolvedLink,
    build_file_index,
    match_key,
    resolve_all,
)

LINT_CACHE_NAME = "lint.sqlite"
_DEPS_INDEX = "CREATE INDEX IF NOT EXISTS deps_key ON deps (key, path)"
SCHEMA = 1
RACY_NS = notecache.RACY_NS
FULL_FRACTION = 0.25  # more dirty notes than this: the full path is as fast and simpler
BATCH = 500
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

Progress = Callable[[int, int], None]
Stat = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode (notes only)
Stats = dict[str, Stat | None]  # every vault file; None for attachments


@dataclass(frozen=True, slots=True)
class Walked:
    """One walk of the vault: files, note stats, stats by folder and their digests."""

    files: list[str]
    stats: Stats
    groups: dict[str, Stats]
    digests: dict[str, bytes]
    fingerprint: bytes


@dataclass(frozen=True, slots=True)
class LintResult:
    """Every finding (all codes, sorted), the number of readable notes and the settings."""

    findings: list[Finding]
    notes: int
    config: Config
    how: str = "full"  # "full", "stored" (nothing changed) or "incremental"


def lint_cache_path(root: Path) -> Path:
    """Where the lint cache of the vault at ``root`` lives."""
    return state_dir_for_vault(root) / LINT_CACHE_NAME


@cache
def lint_version() -> str:
    """A digest of everything stored findings depend on besides the vault and its settings."""
    return sqlitedb.source_digest(
        (SCHEMA, notecache.cache_version(), sys.version_info[:2]), _CODE_FILES
    )


def _log(root: Path, message: str) -> None:
    append_log(state_dir_for_vault(root) / sqlitedb.LOG_NAME, message)


# --------------------------------------------------------------------------- walk


def walk(root: Path) -> tuple[list[str], Stats]:
    """Every vault file (as ``list_vault_files`` lists them) and each note's stat."""
    files = list_vault_files(root)
    base = str(root) + os.sep
    stats: Stats = {}
    suffix = NOTE_SUFFIX
    for path in files:
        if not path.lower().endswith(suffix):  # is_note_path, inlined: 100k calls
            stats[path] = None
            continue
        try:
            info = os.stat(base + path)
        except OSError:
            stats[path] = (-1, -1, -1, -1)
            continue
        stats[path] = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    return files, stats


def by_folder(stats: Stats) -> dict[str, Stats]:
    """The walk's stats grouped by folder (vault-relative, ``""`` for the root)."""
    groups: dict[str, Stats] = {}
    for path, stat in stats.items():
        groups.setdefault(path.rpartition("/")[0], {})[path] = stat
    return groups


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def folder_digests(groups: Mapping[str, Stats]) -> dict[str, bytes]:
    return {folder: _digest(marshal.dumps(stats)) for folder, stats in groups.items()}


def fingerprint(digests: Mapping[str, bytes]) -> bytes:
    """One digest of every file's path and every note's stat."""
    return _digest(marshal.dumps(sorted(digests.items())))


def _racy(stats: Stats, started_ns: int, skip: Iterable[str] = ()) -> list[str]:
    skipped = set(skip)
    return [
        p
        for p, s in stats.items()
        if s is not None and started_ns - s[1] < RACY_NS and p not in skipped
    ]


# --------------------------------------------------------------------------- database


class LintStore:
    """An open lint database. Reads happen in one snapshot (:meth:`snapshot`)."""

    def __init__(self, root: Path, path: Path, conn: sqlite3.Connection) -> None:
        self.root = root
        self.path = path
        self.conn = conn

    @classmethod
    def open(cls, root: Path) -> LintStore | None:
        path = lint_cache_path(root)
        conn = sqlitedb.open_database(path, _ensure_schema, "lint cache")
        return None if conn is None else cls(root, path, conn)

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

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

    def rows(self, paths: Iterable[str]) -> dict[str, tuple[bytes, NoteData]]:
        """Stored (digest, data) of ``paths`` that have a row."""
        wanted = list(paths)
        found: dict[str, tuple[bytes, NoteData]] = {}
        for i in range(0, len(wanted), BATCH):
            batch = wanted[i : i + BATCH]
            marks = ",".join("?" * len(batch))
            query = f"SELECT path, digest, data FROM notes WHERE path IN ({marks})"
            for path, digest, data in self.conn.execute(query, batch):
                found[path] = (digest, NoteData.from_row(marshal.loads(data)))
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
                found.update(marshal.loads(row[0]))
        return found

    def lookup(self, table: str, keys: Iterable[str]) -> list[tuple[str, ...]]:
        """Rows of ``names`` or ``aliases`` whose key is one of ``keys``."""
        wanted = list(keys)
        found: list[tuple[str, ...]] = []
        for i in range(0, len(wanted), BATCH):
            batch = wanted[i : i + BATCH]
            marks = ",".join("?" * len(batch))
            query = f"SELECT * FROM {table} WHERE key IN ({marks})"
            found.extend(self.conn.execute(query, batch).fetchall())
        return found

    def paths_with(self, keys: Iterable[str]) -> set[str]:
        """Notes with any of the dependency ``keys``."""
        wanted = list(keys)
        found: set[str] = set()
        for i in range(0, len(wanted), BATCH):
            batch = wanted[i : i + BATCH]
            marks = ",".join("?" * len(batch))
            query = f"SELECT path FROM deps WHERE key IN ({marks})"
            found.update(r[0] for r in self.conn.execute(query, batch))
        return found

    def write(self, expected: object, update: Update) -> None:
        """Apply ``update`` when the stored generation is still ``expected``; a busy database
        is left as it is (logged), a broken one is deleted."""
        with sqlitedb.write_transaction(self.conn, self.path, "lint cache", self._broken):
            current = self.conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
            if (current[0] if current else None) != expected:
                raise sqlitedb.Superseded
            update.apply(self.conn, 0 if not isinstance(expected, int) else expected + 1)

    def _broken(self, exc: sqlite3.Error) -> None:
        _log(self.root, f"lint cache: {self.path} is unreadable ({exc}); rebuilt")
        self.close()
        sqlitedb.delete_database(self.path)


def _ensure_schema(conn: sqlite3.Connection) -> None:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if tables and not tables >= _TABLES:
        raise sqlite3.DatabaseError("not a vaultkit lint cache")
    if not tables:
        conn.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA:
            conn.execute(statement)
        conn.execute("COMMIT")


AliasRow = tuple[str, str, str]  # alias key, note path, alias as written


@dataclass(slots=True)
class Update:
    """What a run writes: meta values, note rows (None: delete), folder stats (None: delete),
    file names and alias rows added or removed and, with ``replace``, everything else dropped
    first."""

    meta: dict[str, object] = field(default_factory=dict)
    rows: dict[str, tuple[bytes, NoteData] | None] = field(default_factory=dict)
    old_deps: dict[str, tuple[str, ...]] = field(default_factory=dict)
    folders: dict[str, tuple[bytes, bytes] | None] = field(default_factory=dict)
    names_added: list[str] = field(default_factory=list)
    names_removed: list[str] = field(default_factory=list)
    aliases_added: list[AliasRow] = field(default_factory=list)
    aliases_removed: list[AliasRow] = field(default_factory=list)
    replace: bool = False

    def apply(self, conn: sqlite3.Connection, generation: int) -> None:
        if self.replace:  # dropping is far cheaper than deleting a million rows
            for table in sorted(_TABLES):
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in _SCHEMA:
                if statement != _DEPS_INDEX:  # built once, after the bulk insert
                    conn.execute(statement)
        conn.executemany(
            "DELETE FROM deps WHERE key = ? AND path = ?",
            [(k, p) for p, keys in self.old_deps.items() for k in keys],
        )
        gone = [(p,) for p, row in self.rows.items() if row is None]
        conn.executemany("DELETE FROM notes WHERE path = ?", gone)
        kept = [(p, row) for p, row in self.rows.items() if row is not None]
        conn.executemany(
            "INSERT OR REPLACE INTO notes VALUES (?, ?, ?)",
            [(p, digest, marshal.dumps(data.row())) for p, (digest, data) in kept],
        )
        conn.executemany(
            "INSERT INTO deps VALUES (?, ?)", [(k, p) for p, (_, data) in kept for k in data.deps]
        )
        if self.replace:
            conn.execute(_DEPS_INDEX)
        conn.executemany(
            "DELETE FROM folders WHERE folder = ?",
            [(f,) for f, row in self.folders.items() if row is None],
        )
        conn.executemany(
            "INSERT OR REPLACE INTO folders VALUES (?, ?, ?)",
            [(f, *row) for f, row in self.folders.items() if row is not None],
        )
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
        values = {**self.meta, "generation": generation}
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(values.items()))


def alias_rows(path: str, aliases: Iterable[str]) -> list[AliasRow]:
    return [(match_key(a.strip()), path, a) for a in aliases if a.strip()]


# --------------------------------------------------------------------------- entry point


def _wanted(root: Path, notes: int, choice: bool | None) -> bool:
    if choice is not None:
        return choice
    return notes >= notecache.CACHE_MIN_NOTES or lint_cache_path(root).is_file()


def lint_vault(
    root: Path,
    *,
    config: Config | None = None,
    progress: Progress | None = None,
    cache: bool | None = None,
) -> LintResult:
    """Every lint finding of the vault at ``root`` (all codes, sorted), through the lint cache
    when it is wanted (``cache``: as for :func:`vaultkit.vault.load.load_vault`)."""
    config = config if config is not None else load_config(config_file_for_vault(root))
    started_ns = time.time_ns()
    files, stats = walk(root)
    groups = by_folder(stats)
    digests = folder_digests(groups)
    walked = Walked(files, stats, groups, digests, fingerprint(digests))
    notes = sum(1 for s in stats.values() if s is not None)
    store = LintStore.open(root) if _wanted(root, notes, cache) else None
    if store is None:
        return _full(root, config, progress, cache)
    try:
        return _cached(root, config, progress, store, walked, started_ns)
    finally:
        store.close()


def _full(root: Path, config: Config, progress: Progress | None, cache: bool | None) -> LintResult:
    vault = load_vault(root, progress=progress, cache=cache)
    ctx = LintContext(vault, config, read_index_text(root))
    return LintResult(collect(ctx), len(vault.notes), config)


def _cached(
    root: Path,
    config: Config,
    progress: Progress | None,
    store: LintStore,
    walked: Walked,
    started_ns: int,
) -> LintResult:
    found: tuple[LintResult, Update] | None = None
    generation: object = None
    try:
        with store.snapshot():
            state = _Stored.read(store, config)
            if state is not None:
                generation = state.generation
                found = _reuse(root, config, store, state, walked, started_ns)
                if found is None:
                    found = _incremental(root, config, store, state, walked, started_ns)
    except Exception as exc:  # damaged stored values: the full path, never a failed lint
        _log(root, f"lint cache: {store.path} is unusable ({type(exc).__name__}: {exc}); rebuilt")
        found = None
    if found is None:
        vault = load_vault(root, progress=progress, cache=True)
        ctx = LintContext(vault, config, read_index_text(root))
        findings = collect(ctx)
        result = LintResult(findings, len(vault.notes), config)
        update = _full_state(root, config, ctx, findings, walked, started_ns)
        if update is not None:
            store.write(_current_generation(store), update)
        return result
    result, update = found
    if update.meta or update.rows:
        store.write(generation, update)
    return result


def _current_generation(store: LintStore) -> object:
    try:
        found = store.conn.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
    except sqlite3.Error:
        return None
    return found[0] if found else None


# --------------------------------------------------------------------------- stored state


@dataclass(slots=True)
class _Stored:
    """The small meta values every cached run reads."""

    generation: int
    fingerprint: bytes
    racy: tuple[str, ...]
    retry: tuple[str, ...]  # notes to read again next run (unreadable, or digest unknown)
    notes: int
    indexed: bool  # INDEX.md entries are kept (the vault had a readable INDEX.md)

    @classmethod
    def read(cls, store: LintStore, config: Config) -> _Stored | None:
        keys = ("version", "config", "generation", "fingerprint", "racy", "retry", "notes")
        indexed = store.meta("indexed").get("indexed")
        meta = store.meta(*keys)
        if meta.get("version") != lint_version() or meta.get("config") != repr(config):
            return None
        generation, fp, notes = meta.get("generation"), meta.get("fingerprint"), meta.get("notes")
        racy, retry = meta.get("racy"), meta.get("retry")
        if not isinstance(generation, int) or not isinstance(fp, bytes):
            return None
        if (
            not isinstance(racy, bytes)
            or not isinstance(retry, bytes)
            or not isinstance(notes, int)
        ):
            return None
        if not isinstance(indexed, int):
            return None
        racy_paths, retry_paths = tuple(marshal.loads(racy)), tuple(marshal.loads(retry))
        return cls(generation, fp, racy_paths, retry_paths, notes, bool(indexed))


def _findings(store: LintStore) -> list[FindingRow]:
    blob = store.meta("findings").get("findings")
    if not isinstance(blob, bytes):
        raise ValueError("no stored findings")
    rows: list[FindingRow] = marshal.loads(blob)
    return rows


def _reuse(
    root: Path, config: Config, store: LintStore, state: _Stored, walked: Walked, started_ns: int
) -> tuple[LintResult, Update] | None:
    """The stored findings when nothing changed (racy notes verified by their hash)."""
    if state.retry or walked.fingerprint != state.fingerprint:
        return None
    if state.racy:
        stored = store.rows(state.racy)
        base = str(root)
        for path in state.racy:
            parsed = parallel.read_one(base, (path, stored[path][0] if path in stored else None))
            if parsed.error is not None or parsed.record is not None:
                return None
    update = Update()
    racy = tuple(_racy(walked.stats, started_ns))
    if racy != state.racy:  # verified: stop re-hashing notes that are old enough now
        update.meta["racy"] = marshal.dumps(racy)
    findings = [Finding(*r) for r in _findings(store)]  # stored sorted and unique
    return LintResult(findings, state.notes, config, how="stored"), update


# --------------------------------------------------------------------------- full state


def _full_state(
    root: Path,
    config: Config,
    ctx: LintContext,
    findings: Sequence[Finding],
    walked: Walked,
    started_ns: int,
) -> Update | None:
    """Everything a later run needs, from a full load; None when the vault changed between
    the walk and the load (nothing is stored then)."""
    vault, files, stats = ctx.vault, walked.files, walked.stats
    readable = {note.path for note in vault.notes}
    failed = {f.path for f in vault.findings if f.code == "VK202" and f.path not in readable}
    if readable | failed | set(vault.attachments) != set(files):
        return None
    limit = config.index.description_max
    links: dict[str, list[ResolvedLink]] = {}
    for item in vault.links:
        links.setdefault(item.source, []).append(item)
    local: dict[str, list[Finding]] = {}
    for f in findings:
        if f.code not in GLOBAL_CODES:
            local.setdefault(f.path, []).append(f)
    cached = notecache.stored_rows(notecache.cache_path(root))
    indexed = vault.note(INDEX_NAME) is not None
    tracked = limit if indexed else None  # no INDEX.md: no entries to keep (and compute)
    memo: dict[str, TargetKeys] = {}
    update = Update(replace=True)
    retry: list[str] = []
    incoming: dict[str, int] = {}
    for path, stat in stats.items():
        if stat is None:
            continue
        note = vault.note(path)
        data = note_data(path, note, links.get(path, ()), local.get(path, ()), tracked, memo)
        row = cached.get(path)
        if note is None or row is None or (row[0], row[1]) != stat[:2]:
            retry.append(path)  # content not known by hash: read it again next time
            digest = b""
        else:
            digest = row[2]
        update.rows[path] = (digest, data)
        update.aliases_added += alias_rows(path, data.aliases)
        for target in data.out:
            incoming[target] = incoming.get(target, 0) + 1
    rows = [finding_row(f) for f in findings]
    update.meta = _meta(config, walked, started_ns, retry, rows, len(vault.notes))
    update.meta["incoming"] = marshal.dumps(incoming)
    update.meta["indexed"] = int(indexed)
    if indexed:
        entries = {p: r[1].entry for p, r in update.rows.items() if r is not None and r[1].entry}
        update.meta["entries"] = marshal.dumps(entries)
    update.folders = {
        f: (walked.digests[f], marshal.dumps(group)) for f, group in walked.groups.items()
    }
    update.names_added = list(files)
    return update


def _meta(
    config: Config,
    walked: Walked,
    started_ns: int,
    retry: Sequence[str],
    findings: Sequence[FindingRow] | None,
    notes: int,
) -> dict[str, object]:
    meta: dict[str, object] = {
        "version": lint_version(),
        "config": repr(config),
        "fingerprint": walked.fingerprint,
        "racy": marshal.dumps(tuple(_racy(walked.stats, started_ns, retry))),
        "retry": marshal.dumps(tuple(retry)),
        "notes": notes,
    }
    if findings is not None:
        meta["findings"] = marshal.dumps(tuple(findings))
    return meta


# --------------------------------------------------------------------------- incremental


@dataclass(slots=True)
class _Reread:
    """Notes whose stat changed (or that must be re-read), after reading them."""

    changed: dict[str, Note | None]  # content changed; None: cannot be read now
    errors: dict[str, str]
    digests: dict[str, bytes]


def _reread(
    root: Path, suspects: Sequence[str], old: Mapping[str, tuple[bytes, NoteData]]
) -> _Reread:
    jobs = [(p, old[p][0] if p in old and old[p][1].ok and old[p][0] else None) for p in suspects]
    out = _Reread({}, {}, {})
    for parsed in parallel.read_all(str(root), jobs):
        if parsed.error is not None:
            out.changed[parsed.path] = None
            out.errors[parsed.path] = parsed.error
        elif parsed.record is not None:
            out.changed[parsed.path] = note_from_record(marshal.loads(parsed.record))
            out.digests[parsed.path] = parsed.digest
    return out


def _dirty_notes(
    root: Path, stats: Stats, dirty: Iterable[str], old: Mapping[str, tuple[bytes, NoteData]]
) -> dict[str, Note] | None:
    """Notes to lint again whose content did not change: from the note cache when its row is
    current, else parsed. None when one cannot be read any more (the full path decides)."""
    wanted = sorted(dirty)
    cached = notecache.stored_rows(notecache.cache_path(root), wanted, records=True)
    notes: dict[str, Note] = {}
    base = str(root)
    for path in wanted:
        row, stat, mine = cached.get(path), stats[path], old.get(path)
        note: Note | None = None
        if row is not None and stat is not None and mine is not None and _same(row, stat, mine[0]):
            with contextlib.suppress(Exception):
                note = note_from_record(marshal.loads(row[4]))
        if note is None:
            parsed = parallel.read_one(base, (path, None))
            if parsed.error is not None or parsed.record is None:
                return None
            note = note_from_record(marshal.loads(parsed.record))
        notes[path] = note
    return notes


def _same(row: notecache.Row, stat: Stat, digest: bytes) -> bool:
    """The note cache's row is of the content this cache last saw (its racy flag does not
    matter: this cache's own racy list has verified the content by hash)."""
    return (row[0], row[1]) == stat[:2] and row[2] == digest


def _wanted_names(
    notes: Iterable[Note], owners: Mapping[str, tuple[str, ...]]
) -> tuple[set[str], set[str]]:
    """Name keys of every file the links of ``notes`` could resolve to (or name in a VK103
    message), and the alias owners their ghosts could name."""
    names: set[str] = set()
    extra: set[str] = set()
    for note in notes:
        folder = match_key(note.path.rpartition("/")[0]).split("/")
        for link in note.links:
            text = link.target.strip()
            if not text:
                continue
            key = match_key(text)
            segments = key.split("/")
            if text.startswith(("/", ".")) or {".", ".."}.intersection(segments):
                names.update(segments)
                names.update(folder)
            else:
                names.add(segments[-1])
            for owner in owners.get(key, ()):
                extra.add(owner)
                names.add(name_key(link_name(owner).strip()))
    return names, extra


def _resolve(
    store: LintStore, delta: _Delta, notes: Mapping[str, Note]
) -> tuple[FileIndex, list[ResolvedLink]]:
    """The links of ``notes`` resolved against an index of only the files they could match
    (the same resolutions as the whole vault's index gives); the candidates come from the
    stored file names and aliases, corrected by this run's changes."""
    keys = {
        match_key(link.target.strip())
        for note in notes.values()
        for link in note.links
        if link.target.strip()
    }
    written: dict[str, list[str]] = {}
    for _, path, alias in store.lookup("aliases", keys):
        if path not in delta.stale:
            written.setdefault(path, []).append(alias)
    for path, aliases in delta.aliases.items():
        for alias in aliases:
            if alias.strip() and match_key(alias.strip()) in keys:
                written.setdefault(path, []).append(alias)
    owners: dict[str, list[str]] = {}
    for path, own in written.items():
        for alias in own:
            owners.setdefault(match_key(alias.strip()), []).append(path)
    names, extra = _wanted_names(notes.values(), {k: tuple(v) for k, v in owners.items()})
    wanted = names | {n + ".md" for n in names}
    gone = set(delta.gone_files)
    subset = {p for _, p in store.lookup("names", wanted) if p not in gone}
    subset.update(p for p in delta.added_files if name_key(p) in wanted)
    subset |= extra
    index = build_file_index(subset, {p: written[p] for p in subset if p in written})
    links = list(resolve_all(index, [notes[path] for path in sorted(notes)]))
    return index, links


@dataclass(slots=True)
class _Delta:
    """What changed since the stored run, from the folders whose stats changed."""

    folders: list[str]  # folders whose file list or note stats changed
    suspects: list[str]  # notes to read again (stat changed, new, racy or to retry)
    removed: list[str]  # notes gone
    added_files: list[str]
    gone_files: list[str]
    old: dict[str, tuple[bytes, NoteData]]  # stored rows of suspects, removed and dirty notes
    reread: _Reread
    aliases: dict[str, tuple[str, ...]]  # current aliases of the suspects that have any
    stale: set[str]  # notes whose stored alias rows may be out of date
    old_files: tuple[str, ...]  # every file of the changed folders, before and now
    new_files: tuple[str, ...]


def _delta(root: Path, store: LintStore, state: _Stored, walked: Walked) -> _Delta:
    stored = store.folders()
    folders = sorted(
        f for f in walked.digests.keys() | stored.keys() if walked.digests.get(f) != stored.get(f)
    )
    old_part = store.folder_stats(folders)
    new_part: Stats = {p: st for f in folders for p, st in walked.groups.get(f, {}).items()}
    again = {p for p in (*state.racy, *state.retry) if walked.stats.get(p) is not None}
    changed = {p for p, st in new_part.items() if st is not None and old_part.get(p) != st}
    suspects = sorted(changed | again)
    removed = [p for p, st in old_part.items() if st is not None and p not in new_part]
    old = store.rows([*suspects, *removed])
    reread = _reread(root, suspects, old)
    aliases: dict[str, tuple[str, ...]] = {}
    for path in suspects:
        if path in reread.changed:
            note = reread.changed[path]
            current = note.aliases if note is not None else ()
        else:
            current = old[path][1].aliases if path in old else ()
        if current:
            aliases[path] = current
    return _Delta(
        folders,
        suspects,
        removed,
        [p for p in new_part if p not in old_part],
        [p for p in old_part if p not in new_part],
        old,
        reread,
        aliases,
        {*suspects, *removed},
        tuple(sorted(old_part)),
        tuple(sorted(new_part)),
    )


def _incremental(
    root: Path,
    config: Config,
    store: LintStore,
    state: _Stored,
    walked: Walked,
    started_ns: int,
) -> tuple[LintResult, Update] | None:
    stats = walked.stats
    delta = _delta(root, store, state, walked)
    old, reread = delta.old, delta.reread
    old_aliases = {p: old[p][1].aliases for p in delta.stale if p in old and old[p][1].aliases}
    change = affected(
        LinkState(delta.old_files, tuple(sorted(old_aliases.items()))),
        LinkState(delta.new_files, tuple(sorted(delta.aliases.items()))),
    )
    if change.everything:
        return None
    dirty = set(reread.changed)
    if not change.nothing:
        keys = {"n:" + n for n in change.names}
        keys |= {"n:" + n[:-3] for n in change.names if n.endswith(".md")}
        keys |= {"a:" + k for k in change.alias_keys}
        keys.add("d:")
        dirty |= store.paths_with(keys)
    anchors = [
        p
        for p in (*reread.changed, *delta.removed)
        if _anchors(old.get(p)) != _anchors_of(reread.changed.get(p), stats.get(p) is not None)
    ]
    dirty |= store.paths_with("t:" + p for p in anchors)
    dirty = {p for p in dirty if stats.get(p) is not None}
    if len(dirty) > FULL_FRACTION * max(state.notes, 1):
        return None
    old.update(store.rows(p for p in dirty if p not in old))
    unchanged = [p for p in dirty if p not in reread.changed]
    notes = _dirty_notes(root, stats, unchanged, old)
    if notes is None:
        return None
    notes.update({p: n for p, n in reread.changed.items() if n is not None})
    index, links = _resolve(store, delta, notes)
    targets = {
        x.resolution.path
        for x in links
        if x.link.subpath and x.resolution.path is not None and x.resolution.path not in notes
    }
    stubs = [_stub(p, data) for p, (_, data) in store.rows(t for t in targets if t).items()]
    vault = Vault(
        root,
        tuple(
            sorted([*notes.values(), *(s for s in stubs if s is not None)], key=lambda n: n.path)
        ),
        (),
        index,
        tuple(links),
        tuple(f for n in notes.values() for f in n.findings),
    )
    ctx = LintContext(vault, config, None)
    local: dict[str, list[Finding]] = {}
    for f in (*vault.findings, *link_rules(ctx), *degraded_rule(ctx)):
        if f.path in dirty:
            local.setdefault(f.path, []).append(f)
    for path, error in reread.errors.items():
        local[path] = [notecache.unreadable_finding(path, error)]
    by_source: dict[str, list[ResolvedLink]] = {}
    for item in links:
        by_source.setdefault(item.source, []).append(item)
    limit = config.index.description_max
    new_rows: dict[str, tuple[bytes, NoteData] | None] = dict.fromkeys(delta.removed)
    for path in sorted(dirty):
        note = notes.get(path)
        tracked = limit if state.indexed else None
        data = note_data(path, note, by_source.get(path, ()), local.get(path, ()), tracked)
        digest = reread.digests.get(path) or (old[path][0] if path in old else b"")
        new_rows[path] = (digest if note is not None else b"", data)
    return _finish(root, config, store, state, walked, started_ns, delta, new_rows)


def _finish(
    root: Path,
    config: Config,
    store: LintStore,
    state: _Stored,
    walked: Walked,
    started_ns: int,
    delta: _Delta,
    new_rows: dict[str, tuple[bytes, NoteData] | None],
) -> tuple[LintResult, Update] | None:
    """Global rules from compact data, the merged findings and the update to store (None:
    the full path is needed)."""
    old, stats = delta.old, walked.stats
    update = Update(rows=new_rows, old_deps={p: old[p][1].deps for p in new_rows if p in old})
    unreadable = {p for p, n in delta.reread.changed.items() if n is None}
    was_unreadable = {p for p, (_, data) in old.items() if not data.ok}
    total = sum(1 for st in stats.values() if st is not None)
    old_rows = _findings(store)
    touched = set(new_rows)
    kept = [r for r in old_rows if r[3] not in GLOBAL_CODES and r[0] not in touched]
    extra = [r for row in new_rows.values() if row is not None for r in row[1].local]
    same_local = all(
        row is not None and path in old and old[path][1].local == row[1].local
        for path, row in new_rows.items()
    )
    outs_changed = any(
        (old[p][1].out if p in old else ()) != (row[1].out if row is not None else ())
        for p, row in new_rows.items()
    )
    notes_changed = bool(delta.removed) or any(p not in old for p in new_rows)
    if outs_changed or notes_changed or unreadable != was_unreadable:
        incoming: dict[str, int] = marshal.loads(_blob(store.meta("incoming"), "incoming"))
        for path, row in new_rows.items():
            for target in old[path][1].out if path in old else ():
                incoming[target] -= 1
                if not incoming[target]:
                    del incoming[target]
            for target in row[1].out if row is not None else ():
                incoming[target] = incoming.get(target, 0) + 1
        readable = [p for p, s in stats.items() if s is not None and p not in unreadable]
        extra += map(finding_row, orphan_findings(readable, incoming))
        if outs_changed:
            update.meta["incoming"] = marshal.dumps(incoming)
    else:
        extra += (r for r in old_rows if r[3] == "VK301")
    same_files = not delta.added_files and not delta.gone_files
    if same_files:
        extra += (r for r in old_rows if r[3] == "VK303")
    else:
        extra += map(finding_row, duplicate_name_findings(walked.files))
    entries_changed = any(
        (old[p][1].entry if p in old else None) != (row[1].entry if row else None)
        for p, row in new_rows.items()
    )
    index_now = stats.get(INDEX_NAME) is not None and INDEX_NAME not in unreadable
    if not state.indexed:
        if index_now:  # INDEX.md appeared: every note's entry is needed, which only a full
            return None  # load has
    elif entries_changed or INDEX_NAME in new_rows or not same_files:
        entries: dict[str, EntryRow] = marshal.loads(_blob(store.meta("entries"), "entries"))
        for path, row in new_rows.items():
            entries.pop(path, None)
            if row is not None and row[1].entry is not None:
                entries[path] = row[1].entry
        update.meta["entries"] = marshal.dumps(entries)
        readable = [p for p, s in stats.items() if s is not None and p not in unreadable]
        extra += map(finding_row, _index_rules(root, store, new_rows, entries, readable))
    else:
        extra += (r for r in old_rows if r[3] in ("VK401", "VK402"))
    reused = same_local and "incoming" not in update.meta and "entries" not in update.meta
    if reused and same_files and not notes_changed and unreadable == was_unreadable:
        rows = old_rows  # the dirty notes' findings came out as before; globals were reused
    else:
        extra.sort(key=_row_key)
        rows = _unique_rows(heapq.merge(kept, extra, key=_row_key))
    meta = _meta(
        config,
        walked,
        started_ns,
        sorted(unreadable),
        None if rows == old_rows else rows,
        total - len(unreadable),
    )
    update.meta.update(meta)
    for folder in delta.folders:
        group = walked.groups.get(folder)
        update.folders[folder] = (
            None if group is None else (walked.digests[folder], marshal.dumps(group))
        )
    update.names_added, update.names_removed = delta.added_files, delta.gone_files
    for path in delta.stale:
        if path in old:
            update.aliases_removed += alias_rows(path, old[path][1].aliases)
    for path, aliases in delta.aliases.items():
        update.aliases_added += alias_rows(path, aliases)
    findings = [Finding(*r) for r in rows]
    return LintResult(findings, total - len(unreadable), config, how="incremental"), update


def _row_key(row: FindingRow) -> tuple[str, int, int, str, str]:
    """``Finding.sort_key`` of a stored row."""
    return (row[0], row[1], row[2], row[3], row[5])


def _unique_rows(rows: Iterable[FindingRow]) -> list[FindingRow]:
    """Sorted ``rows`` with equal neighbours once (what ``sorted(set(...))`` gives)."""
    out: list[FindingRow] = []
    for row in rows:
        if not out or row != out[-1]:
            out.append(row)
    return out


def _index_rules(
    root: Path,
    store: LintStore,
    new_rows: Mapping[str, tuple[bytes, NoteData] | None],
    entries: Mapping[str, EntryRow],
    readable: Sequence[str],
) -> list[Finding]:
    if INDEX_NAME not in entries:  # no INDEX.md note, or it cannot be read
        return []
    text = read_index_text(root)
    if text is None:
        return []
    row = new_rows.get(INDEX_NAME)
    data = row[1] if row is not None else store.rows([INDEX_NAME])[INDEX_NAME][1]
    links = {line: LineLink(target, path) for line, target, path in data.index_links}
    return list(index_findings(text, links, index_entries(entries), readable))


def _anchors(row: tuple[bytes, NoteData] | None) -> object:
    if row is None or not row[1].ok:
        return None
    return (row[1].heads, row[1].blocks)


def _anchors_of(note: Note | None, exists: bool) -> object:
    if note is None or not exists:
        return None
    return (tuple(h.text for h in note.headings), note.block_ids)


def _stub(path: str, data: NoteData) -> Note | None:
    """A note with only what an anchored link into it checks (headings and block ids)."""
    if not data.ok:
        return None
    return Note(path, headings=tuple(Heading(t, 1, 1) for t in data.heads), block_ids=data.blocks)


def _blob(meta: Mapping[str, object], key: str) -> bytes:
    value = meta.get(key)
    if not isinstance(value, bytes):
        raise ValueError(f"no stored {key}")
    return value
