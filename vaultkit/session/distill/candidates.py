"""The existing notes a distillation prompt offers for linking: the most related first.

Every folder of the wiki counts (concept and decision notes live in sub-folders). The condensed
transcript is indexed once (its words, compared without case and a plural ``s``, and its text in
that form), and every note's name and aliases are looked up in it: a note comes first when its
name or an alias is written there (longest first), then when every word of its name is there
(the rarest names first, and only names with a word in at most ``BAG_DF_MAX`` names); then when
one of its headings or tags is written there (those carried by at most ``SHARED_MAX`` notes,
longest first); then the newest notes. The list is cut by a budget in tokens (about four
characters each), and each note comes with its aliases so the LLM can link ``[[Note|alias]]``.

The notes' names, aliases, headings and tags come from the catalogue (``catalogue``), kept up to
date by ``catalogue_update``. A selection reads only the rows its transcript's words and word
pairs find.

The search index is not asked: an OR query of the transcript's frequent words cost its FTS5
ranking 145 s on a 10,000-note store (every word matches most notes), against the 100 ms a
selection may take.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from vaultkit.base.store import Store
from vaultkit.session.distill.catalogue import IN_JSON, key_of, split_units
from vaultkit.session.distill.catalogue_update import open_catalogue
from vaultkit.session.notes.naming import names_session, parse_name

BAG_MAX = 30  # notes with every word of their name in the transcript, but not as a phrase
CHARS_PER_TOKEN = 4

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


def _counts(key: str, words: set[str], transcript: str) -> int:
    """How many words ``key`` has when it is written in the transcript (0: it is not); a
    single short or common word does not count."""
    parts = key.split()
    if not parts or not words.issuperset(parts):
        return 0
    if len(parts) == 1 and (len(key) < 4 or key in STOP):
        return 0
    return len(parts) if f" {key} " in transcript else 0


def _count(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT v FROM meta WHERE k = 'count'").fetchone()
    return int(row[0]) if row else int(conn.execute("SELECT COUNT(*) FROM notes").fetchone()[0])


def _bag(conn: sqlite3.Connection, words: set[str], taken: set[str]) -> list[str]:
    """Notes not ``taken`` with every word of their (several-word) name in the transcript,
    those whose words are rarest in the vault first (each word counts log(1 + notes / names
    it is in))."""
    said = json.dumps(list(words))
    rows = conn.execute(f"SELECT parts, path FROM bag WHERE word {IN_JSON}", (said,))
    found = [
        (parts.split(), path)
        for parts, path in rows
        if path not in taken and words.issuperset(parts.split())
    ]
    needed = json.dumps(list({w for parts, _ in found for w in parts}))
    notes = _count(conn) if found else 0
    weight = {
        word: math.log(1 + notes / n)
        for word, n in conn.execute(f"SELECT word, n FROM df WHERE word {IN_JSON}", (needed,))
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
        f"SELECT kind, key, path FROM lookup WHERE lead {IN_JSON}", (json.dumps(list(leads)),)
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


def _offers(conn: sqlite3.Connection, named: list[str]) -> Iterator[tuple[str, str, str]]:
    """``(path, link, aliases)`` of the ``named`` notes in their order, then of every note,
    newest first."""
    rows = conn.execute(
        f"SELECT path, link, aliases FROM notes WHERE path {IN_JSON}", (json.dumps(named),)
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
        named = _named(conn, f" {key_of(transcript)} ")
        chosen: list[Candidate] = []
        seen: set[str] = set()
        spent = 0
        for path, link, aliases in _offers(conn, named):
            if path in seen or _is_own(path, own):
                continue
            seen.add(path)
            candidate = Candidate(path, link, split_units(aliases))
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
