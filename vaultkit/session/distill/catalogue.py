"""The candidate catalogue: its schema, its stamp and the build of every table from scratch.

Names, aliases, headings and tags are read once and kept, by size and modification time, in the
SQLite catalogue ``.vaultkit/candidates.sqlite``, with the lookup a selection needs already
built: each key by its first two words, each several-word name by its rarest word, each note's
link name, the notes by modification time. The stamp is the mtimes of the wiki's folders (a note
added, removed or renamed changes its folder's) and the size and mtime of each note whose
aliases, headings and tags are read (a session note's facts are its name, so it is not watched).
A symbolic link in the wiki means no stamp, so every selection scans the whole wiki (the vault
engine judges where links may point).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from vaultkit.base.leanmeta import read_meta
from vaultkit.base.store import Store
from vaultkit.session.notes.naming import is_note_name, parse_name
from vaultkit.vault.load import list_vault_files

BAG_DF_MAX = 16  # names a word may be in and still bring a note in by the bag of words
CATALOGUE = "candidates.sqlite"  # in the store's .vaultkit/
CATALOGUE_VERSION = 6
CHANGES_MAX = 1_000  # notes changed since the last selection past which the tables are built again
READ_BYTES = 262_144  # of a note read for its aliases, headings and tags
SHARED_MAX = 5  # a heading or tag carried by more notes says nothing about one of them
_WORD = re.compile(r"[^\W_]+")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_TAG = re.compile(r"(?<![^\s(])#([^\W\d][\w/-]*)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


class Entry(NamedTuple):
    """A wiki note as the selection knows it (a tuple: 10,000 of them are made per session)."""

    path: str
    size: int
    mtime_ns: int
    aliases: tuple[str, ...]
    keys: tuple[str, ...]  # the name's and the aliases' words in comparison form
    extra: tuple[str, ...] = ()  # the headings' and tags' words in comparison form


def _word(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def key_of(text: str) -> str:
    return " ".join(_word(w) for w in _WORD.findall(text.casefold()))


def stem_of(path: str) -> str:
    return path.rsplit("/", 1)[-1][:-3]


def title_words(path: str) -> str:
    """What a note's name says: a session note's title part, any other note's file name."""
    parsed = parse_name(path) if "/" not in path else None
    return parsed.title if parsed is not None else stem_of(path)


class Found(NamedTuple):
    """A note file as listed: its wiki path, size, mtime and inode (a file replaced, as
    vaultkit writes notes, has a new one)."""

    path: str
    size: int
    mtime_ns: int
    inode: int


def _scan(wiki: Path) -> list[Found]:
    """Every note below ``wiki``, as the vault engine lists a store's wiki (dot-folders
    skipped; links the store may not follow, ``read_problem``, are not listed)."""
    found: list[Found] = []
    base = os.path.join(str(wiki), "")
    for rel in list_vault_files(wiki):
        if rel.lower().endswith(".md") and rel != "INDEX.md":
            with contextlib.suppress(OSError):
                info = os.stat(base + rel)
                found.append(Found(rel, info.st_size, info.st_mtime_ns, info.st_ino))
    return found


def _names(raw: object) -> list[str]:
    """A property's values as names: white space folded, repeats and link syntax left out."""
    kept = [" ".join(n.split()) for n in _names_raw(raw)]
    return [a for a in dict.fromkeys(kept) if a and not any(c in a for c in "[]|#^")]


def read_facts(path: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A note's aliases, and its headings' and tags' comparison forms (front matter
    ``tags`` and ``#tags`` in the text; code blocks left out)."""
    try:
        with path.open("rb") as handle:
            text = handle.read(READ_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return (), ()
    meta, body = read_meta(text.replace("\r\n", "\n"))[:2]
    aliases = tuple(_names(meta.get("aliases")))
    tags = [t.lstrip("#") for t in _names_raw(meta.get("tags"))]
    body = _FENCE.sub("", body)
    found = [*_HEADING.findall(body), *tags, *_TAG.findall(body)]
    return aliases, tuple(k for k in dict.fromkeys(map(key_of, found)) if k)


def _names_raw(raw: object) -> list[str]:
    """A property's value (one or a list) as strings; other kinds of value left out."""
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return [str(t) for t in items if isinstance(t, str | int | float)]


# notes: one row a note (folder and case-folded stem for the update); lookup: keys by their
# lead; facet: every heading and tag key of every note (how many notes share one); words: the
# words of each note's name; df: in how many names each word is; bag: each several-word name
# by its rarest word, when that word is in at most BAG_DF_MAX names.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER,
    aliases TEXT, facts TEXT, link TEXT, folder TEXT, stem TEXT, inode INTEGER);
CREATE INDEX IF NOT EXISTS notes_newest ON notes(mtime_ns DESC, path DESC);
CREATE INDEX IF NOT EXISTS notes_folder ON notes(folder, path, size, mtime_ns, inode);
CREATE INDEX IF NOT EXISTS notes_stem ON notes(stem);
CREATE TABLE IF NOT EXISTS lookup(lead TEXT, kind INTEGER, key TEXT, path TEXT);
CREATE INDEX IF NOT EXISTS lookup_lead ON lookup(lead);
CREATE TABLE IF NOT EXISTS facet(key TEXT, path TEXT);
CREATE INDEX IF NOT EXISTS facet_key ON facet(key);
CREATE TABLE IF NOT EXISTS words(word TEXT, path TEXT);
CREATE INDEX IF NOT EXISTS words_word ON words(word);
CREATE TABLE IF NOT EXISTS df(word TEXT PRIMARY KEY, n INTEGER);
CREATE TABLE IF NOT EXISTS bag(path TEXT PRIMARY KEY, word TEXT, parts TEXT);
CREATE INDEX IF NOT EXISTS bag_word ON bag(word);
"""
TABLES = ("meta", "notes", "lookup", "facet", "words", "df", "bag")


def _folders(wiki: str) -> list[str] | None:
    """Every folder below ``wiki`` (itself first; dot-folders skipped), or None when a symbolic
    link is met (where it may point is for the full scan to judge)."""
    if os.path.islink(wiki):
        return None
    found = [wiki]
    for folder in found:
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    if entry.name.startswith("."):
                        continue
                    if entry.is_symlink():
                        return None
                    if entry.is_dir(follow_symlinks=False):
                        found.append(entry.path)
        except OSError:
            return None
    return sorted(found)  # the wiki first: a prefix of every other


def _mtimes(folders: Iterable[str]) -> list[int] | None:
    try:
        return [os.stat(folder).st_mtime_ns for folder in folders]
    except OSError:
        return None


def watch(wiki: str, paths: Iterable[str]) -> list[list[int]] | None:
    """``[size, mtime_ns]`` of each of the notes ``paths`` (None when one is gone)."""
    base = os.path.join(wiki, "")
    try:
        return [[(s := os.stat(base + rel)).st_size, s.st_mtime_ns] for rel in paths]
    except OSError:
        return None


def is_session_note(path: str) -> bool:
    return "/" not in path and path[:1].isdigit() and is_note_name(path)


# Separators in the catalogue's text columns: whitespace to ``str.split``, so never in an alias
# (``_names`` folds whitespace) nor in a key (words only).
_UNIT = "\x1f"
_ROWS = "\x1e"


def split_units(text: str) -> tuple[str, ...]:
    return tuple(text.split(_UNIT)) if text else ()


class _Folders(NamedTuple):
    paths: list[str]
    mtimes: list[int]


def _look(wiki: str) -> _Folders | None:
    folders = _folders(wiki)
    mtimes = _mtimes(folders) if folders is not None else None
    return _Folders(folders, mtimes) if folders is not None and mtimes is not None else None


def _stamp(wiki: str, before: _Folders | None, entries: list[Entry]) -> str | None:
    """What says the wiki is as ``entries`` found it: every folder's modification time, taken
    before the scan (a note added, removed or renamed changes its folder's), and the size and
    mtime of each note whose aliases, headings and tags are read (a note edited in place
    changes only its own; a session note's facts are its name). None when that cannot be told
    (a link met, a note changed during the scan): the next selection scans again."""
    watched = [e for e in entries if not is_session_note(e.path)]
    seen = [[e.size, e.mtime_ns] for e in watched]
    if before is None or watch(wiki, (e.path for e in watched)) != seen:
        return None
    folders = {_relative(wiki, f): m for f, m in zip(before.paths, before.mtimes, strict=True)}
    return stamp_text(wiki, folders, {e.path: s for e, s in zip(watched, seen, strict=True)})


class Saved(NamedTuple):
    """What the last stamp recorded: each folder's mtime and each watched note's
    ``[size, mtime_ns]``, by wiki path (a folder's is ``""`` for the wiki itself)."""

    folders: dict[str, int]
    seen: dict[str, list[int]]


def _relative(wiki: str, folder: str) -> str:
    return "" if folder == wiki else folder[len(wiki) + 1 :]


def read_saved(wiki: str, stamp: str | None) -> Saved | None:
    """The stamp read back (None: none, damaged, or taken where the wiki was elsewhere)."""
    if stamp is None:
        return None
    try:
        saved = json.loads(stamp)
        folders, mtimes = saved["folders"], saved["mtimes"]
        if not folders or folders[0] != wiki:
            return None
        rel = {_relative(wiki, f): int(m) for f, m in zip(folders, mtimes, strict=True)}
        return Saved(rel, dict(zip(saved["notes"], saved["seen"], strict=True)))
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def stamp_text(wiki: str, folders: Mapping[str, int], seen: Mapping[str, list[int]]) -> str:
    """The stamp of ``folders``' mtimes (wiki paths) and the watched notes' ``seen``."""
    paths = sorted((os.path.join(wiki, f) if f else wiki, m) for f, m in folders.items())
    notes = sorted(seen)
    fields = {
        "folders": [f for f, _ in paths],
        "mtimes": [m for _, m in paths],
        "notes": notes,
        "seen": [seen[p] for p in notes],
    }
    return json.dumps(fields)


def holds(wiki: str, saved: Saved) -> bool:
    """Whether every folder and watched note is as ``saved`` recorded it."""
    folders = [os.path.join(wiki, f) if f else wiki for f in saved.folders]
    notes = list(saved.seen)
    return bool(
        _mtimes(folders) == list(saved.folders.values())
        and watch(wiki, notes) == [saved.seen[p] for p in notes]
    )


def unchanged(wiki: str, stamp: str | None) -> bool:
    """Whether the wiki is as ``stamp`` recorded it, where it is now (a store copied or moved
    with its catalogue is not told by the folders it was copied from)."""
    saved = read_saved(wiki, stamp)
    return saved is not None and holds(wiki, saved)


def connect(store: Store) -> sqlite3.Connection:
    """The catalogue's database in the store's ``.vaultkit/`` (in memory when that cannot be
    written; started afresh when it is damaged or of another version)."""
    path = os.path.join(store.at("state"), CATALOGUE)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA synchronous = OFF")  # a cache: a damaged file is made again
        if conn.execute("PRAGMA user_version").fetchone()[0] != CATALOGUE_VERSION:
            drops = "".join(f"DROP TABLE IF EXISTS {table}; " for table in TABLES)
            conn.executescript(f"{drops}PRAGMA user_version = {CATALOGUE_VERSION};")
            with contextlib.suppress(OSError):  # the JSON catalogue of version 3 and before
                os.remove(os.path.join(store.at("state"), "candidates.json"))
        conn.executescript(_SCHEMA)
        return conn
    except (OSError, sqlite3.Error):
        with contextlib.suppress(OSError):
            os.remove(path)
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.executescript(_SCHEMA)
        return conn


def saved_stamp(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT v FROM meta WHERE k = 'fingerprint'").fetchone()
    return str(row[0]) if row else None


def entry_of(path: str, size: int, mtime: int, aliases: str, facts: str) -> Entry:
    """A ``notes`` row's ``path, size, mtime_ns, aliases, facts`` as an entry."""
    keys, extra = facts.split(_ROWS)
    return Entry(path, size, mtime, split_units(aliases), split_units(keys), split_units(extra))


def known_entries(conn: sqlite3.Connection) -> dict[str, Entry]:
    rows = conn.execute("SELECT path, size, mtime_ns, aliases, facts FROM notes")
    return {row[0]: entry_of(*row) for row in rows}


def read_entry(store: Store, rel: str, size: int, mtime: int) -> Entry:
    """The note ``rel`` as its file says (a session note's facts are its name only)."""
    aliases, extra = ((), ()) if is_session_note(rel) else read_facts(store.wiki / rel)
    keys = (key_of(title_words(rel)), *map(key_of, aliases))
    return Entry(rel, size, mtime, aliases, keys, extra)


def _entries(store: Store, known: Mapping[str, Entry], found: list[Found]) -> list[Entry]:
    """The ``found`` notes with their facts (read again only when size or mtime changed)."""
    entries = []
    for rel, size, mtime, _ in found:
        old = known.get(rel)
        if old is not None and old.size == size and old.mtime_ns == mtime:
            entries.append(old)
            continue
        entries.append(read_entry(store, rel, size, mtime))
    return entries


def lead_of(key: str) -> str:
    """A key's first two words: a key written in the transcript has them next to each other."""
    return " ".join(key.split(" ", 2)[:2])


def name_rows(entry: Entry) -> Iterator[tuple[str, int, str, str]]:
    """The lookup rows of a note's name and aliases (kind 0)."""
    return ((lead_of(key), 0, key, entry.path) for key in entry.keys if key)


def _lookup_rows(entries: list[Entry]) -> Iterable[tuple[str, int, str, str]]:
    """``(lead, kind, key, path)``: each key by its first two words; kind 0 a name or alias,
    1 a heading or a tag carried by at most ``SHARED_MAX`` notes."""
    shared = Counter(k for e in entries for k in e.extra)
    for entry in entries:
        yield from name_rows(entry)
        for key in entry.extra:
            if shared[key] <= SHARED_MAX:
                yield lead_of(key), 1, key, entry.path


def name_words(entry: Entry) -> set[str]:
    return set(entry.keys[0].split()) if entry.keys else set()


def bag_row(path: str, parts: list[str], frequency: Mapping[str, int]) -> tuple[str, ...] | None:
    """``(path, word, parts)``: a several-word name by its rarest word, when that word is in at
    most ``BAG_DF_MAX`` names (a name of common words only says little, and would be looked at
    in most sessions)."""
    if len(parts) < 2:
        return None
    rarest = min(parts, key=lambda w: (frequency[w], w))
    return (path, rarest, " ".join(parts)) if frequency[rarest] <= BAG_DF_MAX else None


def note_row(entry: Entry, link: str | None, inode: int) -> tuple[object, ...]:
    facts = _UNIT.join(entry.keys) + _ROWS + _UNIT.join(entry.extra)
    folder = entry.path.rpartition("/")[0]
    aliases = _UNIT.join(entry.aliases)
    stem = stem_of(entry.path).casefold()
    return (entry.path, entry.size, entry.mtime_ns, aliases, facts, link, folder, stem, inode)


IN_JSON = "IN (SELECT value FROM json_each(?))"


def link_names(paths: Iterable[str]) -> Mapping[str, str]:
    listed = list(paths)
    counts = Counter(stem_of(p).casefold() for p in listed)
    return {p: stem_of(p) if counts[stem_of(p).casefold()] == 1 else p[:-3] for p in listed}


INSERT = {
    "notes": "INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "lookup": "INSERT INTO lookup VALUES (?, ?, ?, ?)",
    "facet": "INSERT INTO facet VALUES (?, ?)",
    "words": "INSERT INTO words VALUES (?, ?)",
    "df": "INSERT OR REPLACE INTO df VALUES (?, ?)",
    "bag": "INSERT OR REPLACE INTO bag VALUES (?, ?, ?)",
    "meta": "INSERT OR REPLACE INTO meta VALUES (?, ?)",
}


def _write_all(
    conn: sqlite3.Connection, entries: list[Entry], inodes: Mapping[str, int], stamp: str | None
) -> None:
    """Every table made again from ``entries``."""
    for table in TABLES:
        conn.execute(f"DROP TABLE {table}")  # faster than deleting every row, index and all
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    links = link_names(e.path for e in entries)
    rows = (note_row(e, links[e.path], inodes[e.path]) for e in entries)
    conn.executemany(INSERT["notes"], rows)
    conn.executemany(INSERT["lookup"], _lookup_rows(entries))
    conn.executemany(INSERT["facet"], ((k, e.path) for e in entries for k in e.extra))
    conn.executemany(INSERT["words"], ((w, e.path) for e in entries for w in name_words(e)))
    frequency = Counter(w for e in entries for w in name_words(e))
    conn.executemany(INSERT["df"], frequency.items())
    bag = (bag_row(e.path, e.keys[0].split() if e.keys else [], frequency) for e in entries)
    conn.executemany(INSERT["bag"], (row for row in bag if row is not None))
    conn.execute(INSERT["meta"], ("count", str(len(entries))))
    if stamp is not None:
        conn.execute(INSERT["meta"], ("fingerprint", stamp))


def rebuild(conn: sqlite3.Connection, store: Store) -> None:
    """Scan the wiki again and store the notes, the lookup by words and the bag of rare words."""
    wiki = str(store.wiki)
    before = _look(wiki)
    found = _scan(store.wiki)
    entries = _entries(store, known_entries(conn), found)
    stamp = _stamp(wiki, before, entries)
    conn.execute("BEGIN IMMEDIATE")
    try:
        _write_all(conn, entries, {f.path: f.inode for f in found}, stamp)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
