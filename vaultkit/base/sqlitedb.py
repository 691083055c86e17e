"""SQLite files of derived state (the note cache, the lint cache): open, rebuild, write, version.

A cache database only makes a run faster: a corrupt or foreign file is deleted and made anew
(one log line in the ``vaultkit.log`` beside it), a busy one is left alone for this run. A new
database can be built in a private file and linked into place when complete
(:func:`build_database`, :func:`publish_database`): no journal or WAL file and no fsync per
commit while it is written, and nothing else ever sees it half-written.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from vaultkit.base.digest import blake2b
from vaultkit.base.log import append_log
from vaultkit.base.statedir import ensure_folder

LOG_NAME = "vaultkit.log"
BUSY_TIMEOUT_S = 15.0
_SIDE_FILES = ("-wal", "-shm", "-journal")
_BUILD_SUFFIX = ".building"
STALE_BUILD_S = 600  # a private build file untouched this long was left by a killed run
_PACKAGE = Path(__file__).resolve().parent.parent  # the vaultkit package


class Superseded(Exception):
    """Raised inside :func:`write_transaction` to roll back quietly (another run wrote first)."""


def log_beside(path: Path, message: str) -> None:
    """One line in the ``vaultkit.log`` of the folder that holds the database at ``path``."""
    append_log(path.parent / LOG_NAME, message)


def source_digest(values: object, modules: Iterable[str]) -> str:
    """A short digest of ``repr(values)`` and the source of the named vaultkit modules (paths
    below ``vaultkit/``): what a cache's stored results depend on besides its inputs (a change
    empties the cache)."""
    digest = blake2b(digest_size=12)
    digest.update(repr(values).encode())
    for name in modules:
        digest.update((_PACKAGE / name).read_bytes())  # a missing module is a bug: let it raise
    return digest.hexdigest()


def delete_database(path: Path) -> None:
    """Remove a SQLite file and its side files (a damaged cache is rebuilt from nothing)."""
    for name in (path.name, *(path.name + side for side in _SIDE_FILES)):
        with contextlib.suppress(OSError):
            (path.parent / name).unlink()


def _connect(path: Path, check: Callable[[sqlite3.Connection], None]) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        check(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def reader(path: Path) -> sqlite3.Connection | None:
    """A connection for reading only. Opened read-write when the file allows it (nothing is
    written through it): the last connection to close a WAL database removes its ``-wal`` and
    ``-shm`` files only when it may write, and a read-only one would leave them in the user's
    folder. Read-only otherwise; None when the file cannot be opened at all."""
    for mode in ("rw", "ro"):
        try:
            return sqlite3.connect(f"{path.as_uri()}?mode={mode}", uri=True, timeout=BUSY_TIMEOUT_S)
        except sqlite3.Error:
            continue
    return None


def open_database(
    path: Path, check: Callable[[sqlite3.Connection], None], label: str
) -> sqlite3.Connection | None:
    """A WAL connection to the cache database at ``path`` (folder created as needed).

    ``check`` creates the schema in a new file and raises ``sqlite3.DatabaseError`` for a
    foreign one; an unreadable or foreign file is deleted, logged as ``label`` and made anew.
    None when the folder cannot be written or the new file cannot be opened either.
    """
    try:
        ensure_folder(path.parent)
    except OSError:
        return None
    try:
        return _connect(path, check)
    except sqlite3.DatabaseError as exc:
        log_beside(path, f"{label}: {path} is unreadable ({exc}); rebuilt")
        delete_database(path)
    try:
        return _connect(path, check)
    except sqlite3.Error:
        return None


def _remove_stale_builds(path: Path) -> None:
    """Delete private build files of ``path`` left by killed runs (a live build writes its file
    at least every batch; removing one anyway only stops that run from publishing it)."""
    cutoff = time.time() - STALE_BUILD_S
    with contextlib.suppress(OSError), os.scandir(path.parent) as entries:
        for entry in entries:
            name = entry.name
            if name.startswith(path.name + ".") and name.endswith(_BUILD_SUFFIX):
                with contextlib.suppress(OSError):
                    if entry.stat().st_mtime < cutoff:
                        delete_database(Path(entry.path))


def build_database(
    path: Path, check: Callable[[sqlite3.Connection], None]
) -> tuple[sqlite3.Connection, Path] | None:
    """A connection to a new private file beside ``path`` (returned with it) that
    :func:`publish_database` makes the database at ``path`` once complete; None when it cannot
    be made (the caller opens ``path`` itself instead).

    No other process knows the file, so it is written without a journal file on disk (the
    in-memory journal still rolls a failed transaction back) and without fsync per commit:
    a killed run leaves only a private file that is never opened and is removed later.
    """
    try:
        ensure_folder(path.parent)
        _remove_stale_builds(path)
        temp = path.with_name(f"{path.name}.{os.getpid()}-{os.urandom(4).hex()}{_BUILD_SUFFIX}")
        os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except OSError:
        return None
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(temp, isolation_level=None)
        conn.execute("PRAGMA journal_mode=MEMORY")
        conn.execute("PRAGMA synchronous=OFF")
        check(conn)
    except sqlite3.Error:
        if conn is not None:
            conn.close()
        delete_database(temp)
        return None
    return conn, temp


def publish_database(conn: sqlite3.Connection, temp: Path, path: Path, label: str) -> bool:
    """Make the file :func:`build_database` built the database at ``path``: marked WAL (as
    every open sets it), closed, flushed to disk, then hard-linked at ``path`` unless a file is
    there already: a database another run created or published is never replaced under it
    (its ``-wal`` file would then be read against the wrong file). False when not published
    (that run's cache stands; the next run reads it). The private name is removed either way.
    """
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.close()
        handle = os.open(temp, os.O_RDWR)  # Windows flushes only a writable handle
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
        os.link(temp, path)
        return True
    except FileExistsError:
        return False
    except OSError:  # no hard links here (FAT, some shares): copy into place through SQLite
        return _copy_into(temp, path, label)
    except sqlite3.Error:
        return False
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
        delete_database(temp)


def _copy_into(temp: Path, path: Path, label: str) -> bool:
    """Copy the built file into the database at ``path`` with SQLite's backup (which locks
    and journals as any writer does), when the file system cannot link."""
    try:
        source = sqlite3.connect(temp)
    except sqlite3.Error:
        return False
    try:
        target = open_database(path, lambda _conn: None, label)
        if target is None:
            return False
        try:
            source.backup(target)
        finally:
            target.close()
        return True
    except sqlite3.Error:
        return False
    finally:
        source.close()


def write_transaction(
    conn: sqlite3.Connection,
    path: Path,
    label: str,
    broken: Callable[[sqlite3.Error], None],
    work: Callable[[], None],
) -> None:
    """Run ``work`` in one write transaction and commit it. :class:`Superseded` rolls it back
    quietly; a busy or locked database (also when the transaction cannot even begin, because
    another process holds the lock past the busy timeout) is rolled back and logged, and
    ``work`` may not have run (a cache is only an accelerator); any other SQLite error goes to
    ``broken`` (which rebuilds the file)."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        work()
        conn.execute("COMMIT")
    except Superseded:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        log_beside(path, f"{label}: {path} not updated ({exc})")
    except sqlite3.Error as exc:
        broken(exc)
