"""The candidate catalogue brought up to date by the notes that changed since its stamp.

The wiki is looked at again only when its stamp changed. Then only the folders whose mtime
changed are listed again and only the changed notes' rows replaced (an edit in place of a
session note leaves its place among the newest as it was until its folder is listed again); the
vault-wide counts (how many notes share a heading or tag, how many names hold a word, which file
names are shared) are recounted for the keys, words and names those notes touch, so the tables
are what a scan from scratch would build. A stamp missing or more than ``CHANGES_MAX`` changed
notes mean a scan of the whole wiki.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Mapping
from typing import NamedTuple

from vaultkit.base.store import Store
from vaultkit.session.distill import catalogue as cat

_Listed = tuple[list[tuple[str, int, int, int]], list[str]]


def _list_folder(wiki: str, folder: str) -> _Listed | None:
    """The notes right in ``folder`` (a wiki path), as the full scan lists them, and its
    sub-folders; None when a link is met or the folder cannot be read."""
    prefix = folder + "/" if folder else ""
    found = []  # plain tuples: one for each of a folder's thousands of session notes
    below = []
    try:
        fd = os.open(os.path.join(wiki, folder) if folder else wiki, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        with os.scandir(fd) as listing:  # stat-ed by name in the folder: no path to walk
            for entry in listing:
                name = entry.name
                if name.startswith("."):
                    continue
                if entry.is_symlink():
                    return None
                rel = prefix + name
                if name[-3:].lower() == ".md" and rel != "INDEX.md" and entry.is_file():
                    info = entry.stat()
                    found.append((rel, info.st_size, info.st_mtime_ns, info.st_ino))
                elif entry.is_dir():
                    below.append(rel)
    except OSError:
        return None
    finally:
        os.close(fd)
    return found, below


def _folders_now(wiki: str, saved: cat.Saved) -> dict[str, int] | None:
    """The mtime of each folder the stamp knew and that is still there (a folder added
    changes its parent's, so the listing of the parent finds it); None when the wiki is a
    link or is gone."""
    if os.path.islink(wiki):
        return None
    current = {}
    for folder in saved.folders:
        with contextlib.suppress(OSError):
            current[folder] = os.stat(os.path.join(wiki, folder) if folder else wiki).st_mtime_ns
    return current if "" in current else None


def _listing(
    wiki: str, current: dict[str, int], relist: set[str]
) -> list[tuple[str, int, int, int]] | None:
    """The notes of the folders ``relist``; a new sub-folder found there has its mtime taken
    (into ``current``) before it is listed too (into ``relist``)."""
    queue = sorted(relist)
    listed = []
    while queue:
        got = _list_folder(wiki, queue.pop())
        if got is None:
            return None
        listed.extend(got[0])
        for folder in got[1]:
            if folder not in current:
                try:
                    current[folder] = os.stat(os.path.join(wiki, folder)).st_mtime_ns
                except OSError:
                    return None
                relist.add(folder)
                queue.append(folder)
    return listed


class Diff(NamedTuple):
    """What changed: the notes whose rows go (removed or changed), those (re)inserted with
    their size and mtime, and every watched note's ``[size, mtime_ns]`` now."""

    gone: list[str]
    fresh: list[cat.Found]
    seen: dict[str, list[int]]


def _edited(
    wiki: str, saved: cat.Saved, current: Mapping[str, int], relist: set[str]
) -> dict[str, cat.Found]:
    """The watched notes in the ``current`` folders but not in ``relist``, as they are now;
    the folder of one that cannot be stat-ed joins ``relist``."""
    base = os.path.join(wiki, "")
    now: dict[str, cat.Found] = {}
    for path in saved.seen:
        folder = path.rpartition("/")[0]
        if folder in relist or folder not in current:
            continue
        try:
            info = os.stat(base + path)
        except OSError:
            relist.add(folder)
            continue
        now[path] = cat.Found(path, info.st_size, info.st_mtime_ns, info.st_ino)
    return {p: found for p, found in now.items() if p.rpartition("/")[0] not in relist}


def _diff(
    conn: sqlite3.Connection, wiki: str, current: dict[str, int], saved: cat.Saved
) -> Diff | None:
    """The notes changed since ``saved``: only the folders whose mtime changed are listed again
    (a note added, removed or renamed changes its folder's); a watched note elsewhere is
    stat-ed. None when a folder cannot be listed as the full scan would."""
    relist = {f for f, m in current.items() if saved.folders.get(f) != m}
    watched = _edited(wiki, saved, current, relist)
    edited = [f for p, f in watched.items() if [f.size, f.mtime_ns] != saved.seen[p]]
    listed = _listing(wiki, current, relist)
    if listed is None:
        return None
    folders = json.dumps(sorted(relist | (saved.folders.keys() - current.keys())))
    rows = conn.execute(
        f"SELECT path, size, mtime_ns, inode FROM notes WHERE folder {cat.IN_JSON}", (folders,)
    )
    now = set(listed)
    was = set(rows)  # a row not listed as it is: a note removed or changed
    fresh = [cat.Found(*row) for row in now.difference(was)]
    gone = [row[0] for row in was.difference(now)]
    seen = {p: [f.size, f.mtime_ns] for p, f in watched.items()}
    seen.update((p, [size, mtime]) for p, size, mtime, _ in listed if p in saved.seen)
    seen.update((f.path, [f.size, f.mtime_ns]) for f in fresh if not cat.is_session_note(f.path))
    gone.extend(f.path for f in edited)
    return Diff(gone, fresh + edited, seen)


def _rows_of(conn: sqlite3.Connection, paths: list[str]) -> list[cat.Entry]:
    rows = conn.execute(
        f"SELECT path, size, mtime_ns, aliases, facts FROM notes WHERE path {cat.IN_JSON}",
        (json.dumps(paths),),
    )
    return [cat.entry_of(*row) for row in rows]


def _drop(conn: sqlite3.Connection, entry: cat.Entry) -> None:
    """A note's own rows deleted (its headings' and tags' lookup rows go with the recount)."""
    conn.execute("DELETE FROM notes WHERE path = ?", (entry.path,))
    conn.execute("DELETE FROM bag WHERE path = ?", (entry.path,))
    for lead in {cat.lead_of(key) for key in entry.keys if key}:
        conn.execute(
            "DELETE FROM lookup WHERE lead = ? AND kind = 0 AND path = ?", (lead, entry.path)
        )
    for key in entry.extra:
        conn.execute("DELETE FROM facet WHERE key = ? AND path = ?", (key, entry.path))
    for word in cat.name_words(entry):
        conn.execute("DELETE FROM words WHERE word = ? AND path = ?", (word, entry.path))


def _put(conn: sqlite3.Connection, entry: cat.Entry, inode: int) -> None:
    """A note's own rows inserted (its link name and bag row are set by the recount)."""
    conn.execute(cat.INSERT["notes"], cat.note_row(entry, None, inode))
    conn.executemany(cat.INSERT["lookup"], cat.name_rows(entry))
    conn.executemany(cat.INSERT["facet"], ((key, entry.path) for key in entry.extra))
    conn.executemany(cat.INSERT["words"], ((word, entry.path) for word in cat.name_words(entry)))


def _recount_facets(conn: sqlite3.Connection, keys: set[str]) -> None:
    """The lookup rows of these heading and tag keys again: every note carrying one, when at
    most ``SHARED_MAX`` notes do."""
    for key in keys:
        lead = cat.lead_of(key)
        conn.execute("DELETE FROM lookup WHERE lead = ? AND kind = 1 AND key = ?", (lead, key))
        paths = [row[0] for row in conn.execute("SELECT path FROM facet WHERE key = ?", (key,))]
        if len(paths) <= cat.SHARED_MAX:
            conn.executemany(cat.INSERT["lookup"], ((lead, 1, key, path) for path in paths))


def _recount_words(conn: sqlite3.Connection, words: set[str], put: set[str]) -> None:
    """The name counts of these words again, and the bag row of every note whose name has one
    (its rarest word may be another now) or that was ``put`` again."""
    for word in words:
        n = conn.execute("SELECT COUNT(*) FROM words WHERE word = ?", (word,)).fetchone()[0]
        if n:
            conn.execute(cat.INSERT["df"], (word, n))
        else:
            conn.execute("DELETE FROM df WHERE word = ?", (word,))
    said = json.dumps(sorted(words))
    rows = conn.execute(f"SELECT DISTINCT path FROM words WHERE word {cat.IN_JSON}", (said,))
    paths = put.union(row[0] for row in rows)
    parts = {path: cat.key_of(cat.title_words(path)).split() for path in paths}
    needed = json.dumps(sorted({w for name in parts.values() for w in name}))
    frequency = dict(conn.execute(f"SELECT word, n FROM df WHERE word {cat.IN_JSON}", (needed,)))
    for path, name in parts.items():
        row = cat.bag_row(path, name, frequency)
        if row is None:
            conn.execute("DELETE FROM bag WHERE path = ?", (path,))
        else:
            conn.execute(cat.INSERT["bag"], row)


def _relink(conn: sqlite3.Connection, stems: set[str]) -> None:
    """The link names of the notes with these (case-folded) file names again."""
    for stem in stems:
        paths = [row[0] for row in conn.execute("SELECT path FROM notes WHERE stem = ?", (stem,))]
        for path, link in cat.link_names(paths).items():
            conn.execute("UPDATE notes SET link = ? WHERE path = ?", (link, path))


def apply_diff(conn: sqlite3.Connection, store: Store, diff: Diff) -> None:
    """The changed notes' rows replaced, and the vault-wide counts they touch recounted."""
    old = _rows_of(conn, diff.gone)
    new = [cat.read_entry(store, f.path, f.size, f.mtime_ns) for f in diff.fresh]
    for entry in old:
        _drop(conn, entry)
    for entry, found in zip(new, diff.fresh, strict=True):
        _put(conn, entry, found.inode)
    moved = {e.path for e in old} ^ {e.path for e in new}  # added or removed, not edited
    _recount_facets(conn, {key for e in (*old, *new) for key in e.extra})
    words = {w for e in (*old, *new) if e.path in moved for w in cat.name_words(e)}
    _recount_words(conn, words, {e.path for e in new})
    _relink(
        conn,
        {cat.stem_of(e.path).casefold() for e in new} | {cat.stem_of(p).casefold() for p in moved},
    )
    count = conn.execute("SELECT COUNT(*) FROM notes").fetchone()[0]
    conn.execute(cat.INSERT["meta"], ("count", str(count)))


def _update_held(conn: sqlite3.Connection, store: Store) -> bool:
    """``update`` with the write lock held."""
    wiki = str(store.wiki)
    saved = cat.read_saved(wiki, cat.saved_stamp(conn))
    if saved is not None and cat.holds(wiki, saved):
        return True  # another selection brought it up to date
    current = _folders_now(wiki, saved) if saved is not None else None
    if current is None or saved is None:
        return False
    diff = _diff(conn, wiki, current, saved)
    if diff is None or len(diff.gone) + len(diff.fresh) > cat.CHANGES_MAX:
        return False
    apply_diff(conn, store, diff)
    read = [f.path for f in diff.fresh if f.path in diff.seen]
    conn.execute("DELETE FROM meta WHERE k = 'fingerprint'")
    if cat.watch(wiki, read) == [diff.seen[p] for p in read]:  # else one changed as it was read
        conn.execute(cat.INSERT["meta"], ("fingerprint", cat.stamp_text(wiki, current, diff.seen)))
    return True


def update(conn: sqlite3.Connection, store: Store) -> bool:
    """Bring the catalogue up to date by the notes that changed since its stamp; False (and
    nothing written) when that cannot be told: no stamp, a link met, too many changes."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        done = _update_held(conn, store)
        conn.execute("COMMIT" if done else "ROLLBACK")
        return done
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def open_catalogue(store: Store) -> sqlite3.Connection:
    """The catalogue, brought up to date when its stamp says the wiki changed: the rows of the
    notes that changed, when it can tell which (``update``), or every table again."""
    conn = cat.connect(store)
    if not cat.unchanged(str(store.wiki), cat.saved_stamp(conn)) and not update(conn, store):
        cat.rebuild(conn, store)
    return conn


def catalogue(store: Store) -> list[cat.Entry]:
    """Every wiki note with its aliases and facts, as the catalogue holds them."""
    conn = open_catalogue(store)
    try:
        return sorted(cat.known_entries(conn).values())
    finally:
        conn.close()
