"""The existing notes a distillation prompt offers for linking: the most related first.

Every folder of the wiki counts (concept and decision notes live in sub-folders). The condensed
transcript is indexed once (its words, compared without case and a plural ``s``, and its text in
that form), and every note's name and aliases are looked up in it: a note comes first when its
name or an alias is written there (longest first), then when every word of its name is there
(the rarest names first, and only names with a word in at most ``BAG_DF_MAX`` names); then when
one of its headings or tags is written there (those carried by at most ``SHARED_MAX`` notes,
longest first); then the newest notes. The list is cut by a budget in tokens (about four
characters each), and each note comes with its aliases so the LLM can link ``[[Note|alias]]``.

Names, aliases, headings and tags are read once and kept, by size and modification time, in the
SQLite catalogue ``.vaultkit/candidates.sqlite``, with the lookup a selection needs already
built: each key by its first two words, each several-word name by its rarest word, each note's
link name, the notes by modification time. A selection reads only the rows its transcript's
words and word pairs find. The wiki is looked at again only when its stamp changed: the mtimes
of its folders (a note added, removed or renamed changes its folder's) and the size and mtime of
each note whose aliases, headings and tags are read (an edit in place changes only the note's;
a session note's facts are its name, so it is not watched: an edit in place of one leaves its
place among the newest as it was until its folder is listed again). Then only the folders whose
mtime changed are listed again and only the changed notes' rows replaced; the vault-wide counts
(how many notes share a heading or tag, how many names hold a word, which file names are
shared) are recounted for the keys, words and names those notes touch, so the tables are what a
scan from scratch would build. A symbolic link in the wiki, a stamp missing or more than
``CHANGES_MAX`` changed notes mean a scan of the whole wiki (the vault engine judges where links
may point).

The search index is not asked: an OR query of the transcript's frequent words cost its FTS5
ranking 145 s on a 10,000-note store (every word matches most notes), against the 100 ms a
selection may take.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from vaultkit.base.leanmeta import read_meta
from vaultkit.base.store import Store
from vaultkit.session.notes.naming import is_note_name, names_session, parse_name
from vaultkit.vault.load import list_vault_files

BAG_MAX = 30  # notes with every word of their name in the transcript, but not as a phrase
BAG_DF_MAX = 16  # names a word may be in and still bring a note in by the bag of words
CHARS_PER_TOKEN = 4
CATALOGUE = "candidates.sqlite"  # in the store's .vaultkit/
CATALOGUE_VERSION = 6
CHANGES_MAX = 1_000  # notes changed since the last selection past which the tables are built again
READ_BYTES = 262_144  # of a note read for its aliases, headings and tags
SHARED_MAX = 5  # a heading or tag carried by more notes says nothing about one of them
_WORD = re.compile(r"[^\W_]+")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_TAG = re.compile(r"(?<![^\s(])#([^\W\d][\w/-]*)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
# Words too common in coding sessions to say what one is about (English; others pass through).
_STOP_WORDS = """the and for with that this from have has had are was were will would could should
can not but all any its you your our their there here what when where which who why how into onto
than then them they these those been being also just only some such more most very use used using
make made like need needs want let lets get got now new one two file files run ran test tests code
line lines add added see yes okay please thanks sure done does did doing work works working change
changes changed user assistant tool tools output note notes session sessions write wrote read set
look check way each other about after before again"""
STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True, slots=True)
class Candidate:
    """One note offered: its wiki path, the name a link should use, and its aliases."""

    path: str  # below wiki/, e.g. "concepts/Idempotency keys.md"
    link: str  # what goes between [[ ]]: the file name, or the path when the name is shared
    aliases: tuple[str, ...] = ()

    def line(self) -> str:
        """The prompt line: ``- [[link]]`` and, with aliases, how to link through one."""
        if not self.aliases:
            return f"- [[{self.link}]]"
        shown = ", ".join(f"[[{self.link}|{alias}]]" for alias in self.aliases)
        return f"- [[{self.link}]] (also written {shown})"


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


def _key(text: str) -> str:
    return " ".join(_word(w) for w in _WORD.findall(text.casefold()))


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1][:-3]


def _title_words(path: str) -> str:
    """What a note's name says: a session note's title part, any other note's file name."""
    parsed = parse_name(path) if "/" not in path else None
    return parsed.title if parsed is not None else _stem(path)


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


def _read_facts(path: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
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
    return aliases, tuple(k for k in dict.fromkeys(map(_key, found)) if k)


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


def _watch(wiki: str, paths: Iterable[str]) -> list[list[int]] | None:
    """``[size, mtime_ns]`` of each of the notes ``paths`` (None when one is gone)."""
    base = os.path.join(wiki, "")
    try:
        return [[(s := os.stat(base + rel)).st_size, s.st_mtime_ns] for rel in paths]
    except OSError:
        return None


def _is_session_note(path: str) -> bool:
    return "/" not in path and path[:1].isdigit() and is_note_name(path)


# Separators in the catalogue's text columns: whitespace to ``str.split``, so never in an alias
# (``_names`` folds whitespace) nor in a key (words only).
_UNIT = "\x1f"
_ROWS = "\x1e"


def _split(text: str) -> tuple[str, ...]:
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
    watched = [e for e in entries if not _is_session_note(e.path)]
    seen = [[e.size, e.mtime_ns] for e in watched]
    if before is None or _watch(wiki, (e.path for e in watched)) != seen:
        return None
    notes = [e.path for e in watched]
    return json.dumps(
        {"folders": before.paths, "mtimes": before.mtimes, "notes": notes, "seen": seen}
    )


def _unchanged(wiki: str, stamp: str | None) -> bool:
    """Whether the wiki is as ``stamp`` recorded it."""
    if stamp is None:
        return False
    try:
        saved = json.loads(stamp)
        folders, mtimes, notes, seen = (
            saved["folders"],
            saved["mtimes"],
            saved["notes"],
            saved["seen"],
        )
    except (ValueError, TypeError, KeyError):
        return False
    return bool(_mtimes(folders) == mtimes and _watch(wiki, notes) == seen)


def _connect(store: Store) -> sqlite3.Connection:
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


def _saved_stamp(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT v FROM meta WHERE k = 'fingerprint'").fetchone()
    return str(row[0]) if row else None


def _known(conn: sqlite3.Connection) -> dict[str, Entry]:
    known = {}
    for path, size, mtime, aliases, facts in conn.execute(
        "SELECT path, size, mtime_ns, aliases, facts FROM notes"
    ):
        keys, extra = facts.split(_ROWS)
        known[path] = Entry(path, size, mtime, _split(aliases), _split(keys), _split(extra))
    return known


def _entries(store: Store, known: Mapping[str, Entry], found: list[Found]) -> list[Entry]:
    """The ``found`` notes with their facts (read again only when size or mtime changed)."""
    entries = []
    for rel, size, mtime, _ in found:
        old = known.get(rel)
        if old is not None and old.size == size and old.mtime_ns == mtime:
            entries.append(old)
            continue
        aliases, extra = ((), ()) if _is_session_note(rel) else _read_facts(store.wiki / rel)
        keys = (_key(_title_words(rel)), *map(_key, aliases))
        entries.append(Entry(rel, size, mtime, aliases, keys, extra))
    return entries


def _lead(key: str) -> str:
    """A key's first two words: a key written in the transcript has them next to each other."""
    return " ".join(key.split(" ", 2)[:2])


def _name_rows(entry: Entry) -> Iterator[tuple[str, int, str, str]]:
    """The lookup rows of a note's name and aliases (kind 0)."""
    return ((_lead(key), 0, key, entry.path) for key in entry.keys if key)


def _lookup_rows(entries: list[Entry]) -> Iterable[tuple[str, int, str, str]]:
    """``(lead, kind, key, path)``: each key by its first two words; kind 0 a name or alias,
    1 a heading or a tag carried by at most ``SHARED_MAX`` notes."""
    shared = Counter(k for e in entries for k in e.extra)
    for entry in entries:
        yield from _name_rows(entry)
        for key in entry.extra:
            if shared[key] <= SHARED_MAX:
                yield _lead(key), 1, key, entry.path


def _name_words(entry: Entry) -> set[str]:
    return set(entry.keys[0].split()) if entry.keys else set()


def _bag_row(path: str, parts: list[str], frequency: Mapping[str, int]) -> tuple[str, ...] | None:
    """``(path, word, parts)``: a several-word name by its rarest word, when that word is in at
    most ``BAG_DF_MAX`` names (a name of common words only says little, and would be looked at
    in most sessions)."""
    if len(parts) < 2:
        return None
    rarest = min(parts, key=lambda w: (frequency[w], w))
    return (path, rarest, " ".join(parts)) if frequency[rarest] <= BAG_DF_MAX else None


def _note_row(entry: Entry, link: str | None, inode: int) -> tuple[object, ...]:
    facts = _UNIT.join(entry.keys) + _ROWS + _UNIT.join(entry.extra)
    folder = entry.path.rpartition("/")[0]
    aliases = _UNIT.join(entry.aliases)
    stem = _stem(entry.path).casefold()
    return (entry.path, entry.size, entry.mtime_ns, aliases, facts, link, folder, stem, inode)


_INSERT = {
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
    links = _link_names(e.path for e in entries)
    rows = (_note_row(e, links[e.path], inodes[e.path]) for e in entries)
    conn.executemany(_INSERT["notes"], rows)
    conn.executemany(_INSERT["lookup"], _lookup_rows(entries))
    conn.executemany(_INSERT["facet"], ((k, e.path) for e in entries for k in e.extra))
    conn.executemany(_INSERT["words"], ((w, e.path) for e in entries for w in _name_words(e)))
    frequency = Counter(w for e in entries for w in _name_words(e))
    conn.executemany(_INSERT["df"], frequency.items())
    bag = (_bag_row(e.path, e.keys[0].split() if e.keys else [], frequency) for e in entries)
    conn.executemany(_INSERT["bag"], (row for row in bag if row is not None))
    conn.execute(_INSERT["meta"], ("count", str(len(entries))))
    if stamp is not None:
        conn.execute(_INSERT["meta"], ("fingerprint", stamp))


def _rebuild(conn: sqlite3.Connection, store: Store) -> None:
    """Scan the wiki again and store the notes, the lookup by words and the bag of rare words."""
    wiki = str(store.wiki)
    before = _look(wiki)
    found = _scan(store.wiki)
    entries = _entries(store, _known(conn), found)
    stamp = _stamp(wiki, before, entries)
    conn.execute("BEGIN IMMEDIATE")
    try:
        _write_all(conn, entries, {f.path: f.inode for f in found}, stamp)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


class _Saved(NamedTuple):
    """What the last stamp recorded: each folder's mtime and each watched note's
    ``[size, mtime_ns]``, by wiki path (a folder's is ``""`` for the wiki itself)."""

    folders: dict[str, int]
    seen: dict[str, list[int]]


def _relative(wiki: str, folder: str) -> str:
    return "" if folder == wiki else folder[len(wiki) + 1 :]


def _saved(wiki: str, stamp: str | None) -> _Saved | None:
    """The stamp read back (None: none, damaged, or taken where the wiki was elsewhere)."""
    if stamp is None:
        return None
    try:
        saved = json.loads(stamp)
        folders, mtimes = saved["folders"], saved["mtimes"]
        if not folders or folders[0] != wiki:
            return None
        rel = {_relative(wiki, f): int(m) for f, m in zip(folders, mtimes, strict=True)}
        return _Saved(rel, dict(zip(saved["notes"], saved["seen"], strict=True)))
    except (ValueError, TypeError, KeyError, IndexError):
        return None


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


def _folders_now(wiki: str, saved: _Saved) -> dict[str, int] | None:
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


class _Diff(NamedTuple):
    """What changed: the notes whose rows go (removed or changed), those (re)inserted with
    their size and mtime, and every watched note's ``[size, mtime_ns]`` now."""

    gone: list[str]
    fresh: list[Found]
    seen: dict[str, list[int]]


def _edited(
    wiki: str, saved: _Saved, current: Mapping[str, int], relist: set[str]
) -> dict[str, Found]:
    """The watched notes in the ``current`` folders but not in ``relist``, as they are now;
    the folder of one that cannot be stat-ed joins ``relist``."""
    base = os.path.join(wiki, "")
    now: dict[str, Found] = {}
    for path in saved.seen:
        folder = path.rpartition("/")[0]
        if folder in relist or folder not in current:
            continue
        try:
            info = os.stat(base + path)
        except OSError:
            relist.add(folder)
            continue
        now[path] = Found(path, info.st_size, info.st_mtime_ns, info.st_ino)
    return {p: found for p, found in now.items() if p.rpartition("/")[0] not in relist}


def _diff(
    conn: sqlite3.Connection, wiki: str, current: dict[str, int], saved: _Saved
) -> _Diff | None:
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
        f"SELECT path, size, mtime_ns, inode FROM notes WHERE folder {_IN}", (folders,)
    )
    now = set(listed)
    was = set(rows)  # a row not listed as it is: a note removed or changed
    fresh = [Found(*row) for row in now.difference(was)]
    gone = [row[0] for row in was.difference(now)]
    seen = {p: [f.size, f.mtime_ns] for p, f in watched.items()}
    seen.update((p, [size, mtime]) for p, size, mtime, _ in listed if p in saved.seen)
    seen.update((f.path, [f.size, f.mtime_ns]) for f in fresh if not _is_session_note(f.path))
    gone.extend(f.path for f in edited)
    return _Diff(gone, fresh + edited, seen)


def _rows_of(conn: sqlite3.Connection, paths: list[str]) -> list[Entry]:
    rows = conn.execute(
        f"SELECT path, size, mtime_ns, aliases, facts FROM notes WHERE path {_IN}",
        (json.dumps(paths),),
    )
    found = []
    for path, size, mtime, aliases, facts in rows:
        keys, extra = facts.split(_ROWS)
        found.append(Entry(path, size, mtime, _split(aliases), _split(keys), _split(extra)))
    return found


def _read_entries(store: Store, fresh: list[Found]) -> list[Entry]:
    entries = []
    for rel, size, mtime, _ in fresh:
        aliases, extra = ((), ()) if _is_session_note(rel) else _read_facts(store.wiki / rel)
        keys = (_key(_title_words(rel)), *map(_key, aliases))
        entries.append(Entry(rel, size, mtime, aliases, keys, extra))
    return entries


def _drop(conn: sqlite3.Connection, entry: Entry) -> None:
    """A note's own rows deleted (its headings' and tags' lookup rows go with the recount)."""
    conn.execute("DELETE FROM notes WHERE path = ?", (entry.path,))
    conn.execute("DELETE FROM bag WHERE path = ?", (entry.path,))
    for lead in {_lead(key) for key in entry.keys if key}:
        conn.execute(
            "DELETE FROM lookup WHERE lead = ? AND kind = 0 AND path = ?", (lead, entry.path)
        )
    for key in entry.extra:
        conn.execute("DELETE FROM facet WHERE key = ? AND path = ?", (key, entry.path))
    for word in _name_words(entry):
        conn.execute("DELETE FROM words WHERE word = ? AND path = ?", (word, entry.path))


def _put(conn: sqlite3.Connection, entry: Entry, inode: int) -> None:
    """A note's own rows inserted (its link name and bag row are set by the recount)."""
    conn.execute(_INSERT["notes"], _note_row(entry, None, inode))
    conn.executemany(_INSERT["lookup"], _name_rows(entry))
    conn.executemany(_INSERT["facet"], ((key, entry.path) for key in entry.extra))
    conn.executemany(_INSERT["words"], ((word, entry.path) for word in _name_words(entry)))


def _recount_facets(conn: sqlite3.Connection, keys: set[str]) -> None:
    """The lookup rows of these heading and tag keys again: every note carrying one, when at
    most ``SHARED_MAX`` notes do."""
    for key in keys:
        lead = _lead(key)
        conn.execute("DELETE FROM lookup WHERE lead = ? AND kind = 1 AND key = ?", (lead, key))
        paths = [row[0] for row in conn.execute("SELECT path FROM facet WHERE key = ?", (key,))]
        if len(paths) <= SHARED_MAX:
            conn.executemany(_INSERT["lookup"], ((lead, 1, key, path) for path in paths))


def _recount_words(conn: sqlite3.Connection, words: set[str], put: set[str]) -> None:
    """The name counts of these words again, and the bag row of every note whose name has one
    (its rarest word may be another now) or that was ``put`` again."""
    for word in words:
        n = conn.execute("SELECT COUNT(*) FROM words WHERE word = ?", (word,)).fetchone()[0]
        if n:
            conn.execute(_INSERT["df"], (word, n))
        else:
            conn.execute("DELETE FROM df WHERE word = ?", (word,))
    said = json.dumps(sorted(words))
    rows = conn.execute(f"SELECT DISTINCT path FROM words WHERE word {_IN}", (said,))
    paths = put.union(row[0] for row in rows)
    parts = {path: _key(_title_words(path)).split() for path in paths}
    needed = json.dumps(sorted({w for name in parts.values() for w in name}))
    frequency = dict(conn.execute(f"SELECT word, n FROM df WHERE word {_IN}", (needed,)))
    for path, name in parts.items():
        row = _bag_row(path, name, frequency)
        if row is None:
            conn.execute("DELETE FROM bag WHERE path = ?", (path,))
        else:
            conn.execute(_INSERT["bag"], row)


def _relink(conn: sqlite3.Connection, stems: set[str]) -> None:
    """The link names of the notes with these (case-folded) file names again."""
    for stem in stems:
        paths = [row[0] for row in conn.execute("SELECT path FROM notes WHERE stem = ?", (stem,))]
        for path, link in _link_names(paths).items():
            conn.execute("UPDATE notes SET link = ? WHERE path = ?", (link, path))


def _apply(conn: sqlite3.Connection, store: Store, diff: _Diff) -> None:
    """The changed notes' rows replaced, and the vault-wide counts they touch recounted."""
    old = _rows_of(conn, diff.gone)
    new = _read_entries(store, diff.fresh)
    for entry in old:
        _drop(conn, entry)
    for entry, found in zip(new, diff.fresh, strict=True):
        _put(conn, entry, found.inode)
    moved = {e.path for e in old} ^ {e.path for e in new}  # added or removed, not edited
    _recount_facets(conn, {key for e in (*old, *new) for key in e.extra})
    words = {w for e in (*old, *new) if e.path in moved for w in _name_words(e)}
    _recount_words(conn, words, {e.path for e in new})
    _relink(conn, {_stem(e.path).casefold() for e in new} | {_stem(p).casefold() for p in moved})
    count = conn.execute("SELECT COUNT(*) FROM notes").fetchone()[0]
    conn.execute(_INSERT["meta"], ("count", str(count)))


def _update_held(conn: sqlite3.Connection, store: Store) -> bool:
    """``update`` with the write lock held."""
    wiki = str(store.wiki)
    stamp = _saved_stamp(conn)
    if _unchanged(wiki, stamp):
        return True  # another selection brought it up to date
    saved = _saved(wiki, stamp)
    current = _folders_now(wiki, saved) if saved is not None else None
    if current is None or saved is None:
        return False
    diff = _diff(conn, wiki, current, saved)
    if diff is None or len(diff.gone) + len(diff.fresh) > CHANGES_MAX:
        return False
    _apply(conn, store, diff)
    notes = sorted(diff.seen)
    seen = [diff.seen[p] for p in notes]
    read = [f.path for f in diff.fresh if f.path in diff.seen]
    conn.execute("DELETE FROM meta WHERE k = 'fingerprint'")
    if _watch(wiki, read) == [diff.seen[p] for p in read]:  # else one changed as it was read
        folders = sorted((os.path.join(wiki, f) if f else wiki, m) for f, m in current.items())
        fields = {
            "folders": [f for f, _ in folders],
            "mtimes": [m for _, m in folders],
            "notes": notes,
            "seen": seen,
        }
        conn.execute(_INSERT["meta"], ("fingerprint", json.dumps(fields)))
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
    conn = _connect(store)
    if not _unchanged(str(store.wiki), _saved_stamp(conn)) and not update(conn, store):
        _rebuild(conn, store)
    return conn


def catalogue(store: Store) -> list[Entry]:
    """Every wiki note with its aliases and facts, as the catalogue holds them."""
    conn = open_catalogue(store)
    try:
        return sorted(_known(conn).values())
    finally:
        conn.close()


def _counts(key: str, words: set[str], transcript: str) -> int:
    """How many words ``key`` has when it is written in the transcript (0: it is not); a
    single short or common word does not count."""
    parts = key.split()
    if not parts or not words.issuperset(parts):
        return 0
    if len(parts) == 1 and (len(key) < 4 or key in STOP):
        return 0
    return len(parts) if f" {key} " in transcript else 0


_IN = "IN (SELECT value FROM json_each(?))"


def _count(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT v FROM meta WHERE k = 'count'").fetchone()
    return int(row[0]) if row else int(conn.execute("SELECT COUNT(*) FROM notes").fetchone()[0])


def _bag(conn: sqlite3.Connection, words: set[str], taken: set[str]) -> list[str]:
    """Notes not ``taken`` with every word of their (several-word) name in the transcript,
    those whose words are rarest in the vault first (each word counts log(1 + notes / names
    it is in))."""
    said = json.dumps(list(words))
    rows = conn.execute(f"SELECT parts, path FROM bag WHERE word {_IN}", (said,))
    found = [
        (parts.split(), path)
        for parts, path in rows
        if path not in taken and words.issuperset(parts.split())
    ]
    needed = json.dumps(list({w for parts, _ in found for w in parts}))
    notes = _count(conn) if found else 0
    weight = {
        word: math.log(1 + notes / n)
        for word, n in conn.execute(f"SELECT word, n FROM df WHERE word {_IN}", (needed,))
    }
    ranked = sorted((-sum(weight[w] for w in parts), path) for parts, path in found)
    return [path for _, path in ranked[:BAG_MAX]]


def _named(conn: sqlite3.Connection, transcript: str) -> list[str]:
    """Notes whose name or an alias is written in the transcript (longest names first), then
    those with every word of their name in it (rarest words first, at most ``BAG_MAX``),
    then those with a heading or tag of theirs written there (longest first)."""
    said = transcript.split()
    words = set(said)
    leads = words.union(map(" ".join, pairwise(said)))
    best: dict[tuple[int, str], int] = {}
    rows = conn.execute(
        f"SELECT kind, key, path FROM lookup WHERE lead {_IN}", (json.dumps(list(leads)),)
    )
    for kind, key, path in rows:
        length = _counts(key, words, transcript)
        if length > best.get((kind, path), 0):
            best[(kind, path)] = length
    ranked = sorted(best.items(), key=lambda n: (n[0][0], -n[1], n[0][1]))
    phrase = [path for (kind, path), _ in ranked if kind == 0]
    heading = [path for (kind, path), _ in ranked if kind == 1]
    return [*phrase, *_bag(conn, words, set(phrase)), *heading]


def _is_own(path: str, own: str | None) -> bool:
    """Whether ``path`` is a note of the session ``own`` (short or long id in its name)."""
    if own is None or "/" in path:
        return False
    parsed = parse_name(path)
    return parsed is not None and names_session(parsed.session, own)


def _link_names(paths: Iterable[str]) -> Mapping[str, str]:
    listed = list(paths)
    counts = Counter(_stem(p).casefold() for p in listed)
    return {p: _stem(p) if counts[_stem(p).casefold()] == 1 else p[:-3] for p in listed}


def _offers(conn: sqlite3.Connection, named: list[str]) -> Iterator[tuple[str, str, str]]:
    """``(path, link, aliases)`` of the ``named`` notes in their order, then of every note,
    newest first."""
    rows = conn.execute(
        f"SELECT path, link, aliases FROM notes WHERE path {_IN}", (json.dumps(named),)
    )
    by_path = {row[0]: row for row in rows}
    yield from (by_path[p] for p in named if p in by_path)
    yield from conn.execute(
        "SELECT path, link, aliases FROM notes ORDER BY mtime_ns DESC, path DESC"
    )


def select(store: Store, transcript: str, exclude_session: str, budget: int) -> list[Candidate]:
    """The notes to offer, most related first, within ``budget`` tokens of prompt lines."""
    own = exclude_session or None
    conn = open_catalogue(store)
    try:
        named = _named(conn, f" {_key(transcript)} ")
        chosen: list[Candidate] = []
        seen: set[str] = set()
        spent = 0
        for path, link, aliases in _offers(conn, named):
            if path in seen or _is_own(path, own):
                continue
            seen.add(path)
            candidate = Candidate(path, link, _split(aliases))
            cost = len(candidate.line()) // CHARS_PER_TOKEN + 1
            if spent + cost > budget:
                if spent + 8 > budget:
                    break
                continue
            chosen.append(candidate)
            spent += cost
        return chosen
    finally:
        conn.close()
