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
words and word pairs find. The wiki is scanned again only when its stamp changed: the mtimes of
its folders (a note added, removed or renamed changes its folder's) and the size and mtime of
each note whose aliases, headings and tags are read (an edit in place changes only the note's;
a session note's facts are its name, so it is not watched: an edit in place of one leaves its
place among the newest as it was until the next scan). A symbolic link in the wiki means a
scan every time (the vault engine judges where links may point).

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
CATALOGUE_VERSION = 5
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


def _scan(wiki: Path) -> list[tuple[str, int, int]]:
    """``(path, size, mtime_ns)`` of every note below ``wiki``, as the vault engine lists a
    store's wiki (dot-folders skipped; links the store may not follow, ``read_problem``, are
    not listed)."""
    found: list[tuple[str, int, int]] = []
    base = os.path.join(str(wiki), "")
    for rel in list_vault_files(wiki):
        if rel.lower().endswith(".md") and rel != "INDEX.md":
            with contextlib.suppress(OSError):
                info = os.stat(base + rel)
                found.append((rel, info.st_size, info.st_mtime_ns))
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


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER,
    aliases TEXT, facts TEXT, link TEXT);
CREATE INDEX IF NOT EXISTS notes_newest ON notes(mtime_ns DESC, path DESC);
CREATE TABLE IF NOT EXISTS lookup(lead TEXT, kind INTEGER, key TEXT, path TEXT);
CREATE INDEX IF NOT EXISTS lookup_lead ON lookup(lead);
CREATE TABLE IF NOT EXISTS bag(word TEXT, parts TEXT, rarity REAL, path TEXT);
CREATE INDEX IF NOT EXISTS bag_word ON bag(word);
"""


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
    return found


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
            conn.executescript(
                "DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS notes;"
                " DROP TABLE IF EXISTS lookup; DROP TABLE IF EXISTS bag;"
                f" PRAGMA user_version = {CATALOGUE_VERSION};"
            )
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


def _entries(store: Store, known: Mapping[str, Entry]) -> list[Entry]:
    """Every wiki note with its facts (read again only when its size or mtime changed)."""
    entries = []
    for rel, size, mtime in _scan(store.wiki):
        old = known.get(rel)
        if old is not None and old.size == size and old.mtime_ns == mtime:
            entries.append(old)
            continue
        aliases, extra = ((), ()) if _is_session_note(rel) else _read_facts(store.wiki / rel)
        keys = (_key(_title_words(rel)), *map(_key, aliases))
        entries.append(Entry(rel, size, mtime, aliases, keys, extra))
    return entries


def _lookup_rows(entries: list[Entry]) -> Iterable[tuple[str, int, str, str]]:
    """``(lead, kind, key, path)``: each key by its first two words (a key written in the
    transcript has them next to each other); kind 0 a name or alias, 1 a heading or a tag
    carried by at most ``SHARED_MAX`` notes."""
    shared = Counter(k for e in entries for k in e.extra)
    for entry in entries:
        for kind, keys in ((0, entry.keys), (1, entry.extra)):
            for key in keys:
                if key and (kind == 0 or shared[key] <= SHARED_MAX):
                    yield " ".join(key.split(" ", 2)[:2]), kind, key, entry.path


def _bag_rows(entries: list[Entry]) -> Iterable[tuple[str, str, float, str]]:
    """``(word, parts, rarity, path)``: each several-word name by its rarest word, when that
    word is in at most ``BAG_DF_MAX`` names (a name of common words only says little, and
    would be looked at in most sessions)."""
    frequency = Counter(w for e in entries if e.keys for w in set(e.keys[0].split()))
    for entry in entries:
        parts = entry.keys[0].split() if entry.keys else []
        if len(parts) > 1:
            rarest = min(parts, key=lambda w: (frequency[w], w))
            if frequency[rarest] <= BAG_DF_MAX:
                rarity = sum(math.log(1 + len(entries) / frequency[w]) for w in parts)
                yield rarest, " ".join(parts), rarity, entry.path


def _rebuild(conn: sqlite3.Connection, store: Store) -> None:
    """Scan the wiki again and store the notes, the lookup by words and the bag of rare words."""
    wiki = str(store.wiki)
    before = _look(wiki)
    entries = _entries(store, _known(conn))
    stamp = _stamp(wiki, before, entries)
    links = _link_names(e.path for e in entries)
    conn.execute("BEGIN IMMEDIATE")
    try:
        for table in ("meta", "notes", "lookup", "bag"):
            conn.execute(f"DROP TABLE {table}")  # faster than deleting every row, index and all
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.executemany(
            "INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?)",
            (
                (
                    e.path,
                    e.size,
                    e.mtime_ns,
                    _UNIT.join(e.aliases),
                    _UNIT.join(e.keys) + _ROWS + _UNIT.join(e.extra),
                    links[e.path],
                )
                for e in entries
            ),
        )
        conn.executemany("INSERT INTO lookup VALUES (?, ?, ?, ?)", _lookup_rows(entries))
        conn.executemany("INSERT INTO bag VALUES (?, ?, ?, ?)", _bag_rows(entries))
        if stamp is not None:
            conn.execute("INSERT INTO meta VALUES ('fingerprint', ?)", (stamp,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def open_catalogue(store: Store) -> sqlite3.Connection:
    """The catalogue, the wiki scanned again only when its stamp says it changed."""
    conn = _connect(store)
    if not _unchanged(str(store.wiki), _saved_stamp(conn)):
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


def _bag(conn: sqlite3.Connection, words: set[str], taken: set[str]) -> list[str]:
    """Notes not ``taken`` with every word of their (several-word) name in the transcript,
    those whose words are rarest in the vault first."""
    said = json.dumps(list(words))
    rows = conn.execute(f"SELECT parts, rarity, path FROM bag WHERE word {_IN}", (said,))
    found = [
        (-rarity, path)
        for parts, rarity, path in rows
        if path not in taken and words.issuperset(parts.split())
    ]
    return [path for _, path in sorted(found)[:BAG_MAX]]


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
