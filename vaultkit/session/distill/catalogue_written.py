"""The candidate catalogue told of the notes the worker has just written, so that the next
selection need not list the wiki's root folder (8,500 session notes) to find them.

``noting`` checks, before the worker writes, that the catalogue's stamp still holds (every
folder's mtime and every watched note as recorded: nothing else changed since the last
selection), and holds the catalogue's write lock while the worker writes, so no other vaultkit
process changes it meanwhile. After the write it puts the rows of the notes written and drops
those of the session's earlier notes that are gone, and records the folders written to with
their new mtimes. A change someone else makes in a folder the worker writes to, in the
milliseconds between the check and the new mtime, is not seen until that folder changes again
(then its listing is compared with every row of it). Nothing else is trusted: a note edited in
place elsewhere is still found by its watched size and mtime, a note added or removed elsewhere
by its folder's mtime. When the stamp does not hold, the lock cannot be had soon, a new folder is
written to or anything fails, nothing is recorded and the next selection looks as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from vaultkit.base.store import Store
from vaultkit.session.distill import catalogue as cat
from vaultkit.session.distill import catalogue_update as upd
from vaultkit.session.notes.naming import short_id

LOCK_WAIT_MS = 2_000  # how long the worker waits for the catalogue before writing without it

Recorder = Callable[[Iterable[Path]], None]


def _ignore(_written: Iterable[Path]) -> None:
    return None


def _open_held(store: Store) -> tuple[sqlite3.Connection, cat.Saved] | None:
    """The catalogue with its write lock held, and its stamp, when the stamp holds now (a
    store with no catalogue yet gets none: its first selection builds it)."""
    if not os.path.isfile(os.path.join(store.at("state"), cat.CATALOGUE)):
        return None
    conn = cat.connect(store)
    try:
        conn.execute(f"PRAGMA busy_timeout = {LOCK_WAIT_MS}")
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:  # busy past LOCK_WAIT_MS: the worker writes without it
        conn.close()
        return None
    wiki = str(store.wiki)
    saved = cat.read_saved(wiki, cat.saved_stamp(conn))
    if saved is None or not cat.holds(wiki, saved):
        conn.execute("ROLLBACK")
        conn.close()
        return None
    return conn, saved


@contextlib.contextmanager
def noting(store: Store, session_id: str) -> Iterator[Recorder]:
    """Around the worker's write of ``session_id``'s notes: yields the function to call with
    the paths written (a no-op when the catalogue cannot be kept so)."""
    held = _open_held(store)
    if held is None:
        yield _ignore
        return
    conn, saved = held
    done = False

    def record(written: Iterable[Path]) -> None:
        nonlocal done
        try:
            done = _record(conn, store, saved, session_id, list(written))
        except (OSError, sqlite3.Error):
            done = False  # rolled back: the next selection looks for itself

    try:
        yield record
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("COMMIT" if done else "ROLLBACK")
        conn.close()


def _found(wiki: str, paths: Iterable[str]) -> list[cat.Found] | None:
    base = os.path.join(wiki, "")
    try:
        return [
            cat.Found(rel, (s := os.stat(base + rel)).st_size, s.st_mtime_ns, s.st_ino)
            for rel in paths
        ]
    except OSError:
        return None


def _gone(conn: sqlite3.Connection, wiki: str, folders: set[str], session_id: str) -> list[str]:
    """The catalogue's notes of ``session_id`` in ``folders`` whose files are gone."""
    rows = conn.execute(
        f"SELECT path FROM notes WHERE folder {cat.IN_JSON} AND instr(path, ?)",
        (json.dumps(sorted(folders)), f"_{short_id(session_id)}"),
    )
    return [p for (p,) in rows if not os.path.lexists(os.path.join(wiki, p))]


def _record(
    conn: sqlite3.Connection, store: Store, saved: cat.Saved, session_id: str, paths: list[Path]
) -> bool:
    """The rows of the notes ``paths`` put, the session's vanished notes' rows dropped, and
    the stamp taken again; False when that cannot be told (nothing then is kept)."""
    wiki = str(store.wiki)
    rels = [p.relative_to(store.wiki).as_posix() for p in paths if p.is_relative_to(store.wiki)]
    folders = {rel.rpartition("/")[0] for rel in rels}
    if len(rels) != len(paths) or not folders <= saved.folders.keys():
        return False  # outside the wiki, or in a folder the stamp does not know
    try:
        now = {f: os.stat(os.path.join(wiki, f) if f else wiki).st_mtime_ns for f in folders}
    except OSError:
        return False
    fresh = _found(wiki, rels)
    if fresh is None:
        return False
    gone = _gone(conn, wiki, folders, session_id)
    rows = conn.execute(f"SELECT path FROM notes WHERE path {cat.IN_JSON}", (json.dumps(rels),))
    replaced = [path for (path,) in rows]
    seen = dict(saved.seen)
    seen.update((f.path, [f.size, f.mtime_ns]) for f in fresh if not cat.is_session_note(f.path))
    for path in gone:
        seen.pop(path, None)
    upd.apply_diff(conn, store, upd.Diff([*gone, *replaced], fresh, seen))
    mtimes = {**saved.folders, **now}
    conn.execute(cat.INSERT["meta"], ("fingerprint", cat.stamp_text(wiki, mtimes, seen)))
    return True
