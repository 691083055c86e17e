"""Rank the notes holding every content word of a query together with those holding some.

A question ("How can I see how many words are in my note?") names words that a long catch-all
note holds every one of, while the note that answers it holds a few, in its title (*Word
count*). Ranking the complete matches first puts the catch-all note on top. For a query of
several content words the two lists are therefore blended into one (also when no note holds
every word), each candidate scored by three parts, each scaled to at most 1:

- its coverage (:mod:`vaultkit.search.loose`: the content words it holds, weighted by rarity,
  more in a title, heading or alias), over the best coverage among the candidates;
- its BM25 score, over the best (so how often and where the words stand still counts);
- the share of the query's content words its title or aliases name (a word counts when its
  stem is the stem of a title word, so *headings* names *Heading* but not *Headless*; a CJK
  word when the title holds it; a word most notes hold counts less), weighted ``TITLE``: a
  title that names the query is the strongest sign a note is about it.

The best ``RERANKED`` candidates by these are ranked again with their coverage replaced by the
most of the query one of their sections holds (:mod:`vaultkit.search.sections`): the note
that answers a question holds its words together, under one heading, where a long note
that mentions them in passing holds them apart (and its lead section, before the first
heading, says what the note is about, so words there count as in a heading). Beside it, each
is scored by what says it is *about* the query, weighted ``ABOUT``: the share of the query
(counted as the title share is) its lead field names (title, aliases, description and lead
section as one text), plus the share its headings name: of two sibling notes the one that
answers a question names it where it says what it is about, while the other may hold more of
its words throughout and win on whole-note coverage. A note holding every word keeps
``Hit.complete``; only the order is blended. These weights were set on
``benchmarks/recall_queries.py`` and checked on ``benchmarks/recall_heldout.py`` and
``benchmarks/recall_fresh.py`` (see benchmarks/README.md); nothing here knows a query.
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache

from vaultkit.search.grams import is_cjk
from vaultkit.search.loose import Loose, coverage, documents, id_list, idf, rarities
from vaultkit.search.query import Query, Unit
from vaultkit.search.sections import Read, best_sections
from vaultkit.search.words import stem_prefix

BM25 = 1.5  # the weight of the BM25 part against coverage (1)
TITLE = 2.0  # the weight of the share of the query the title and aliases name
SECTION = 1.0  # the weight of the most of the query one section holds (in place of coverage)
RERANKED = 30  # the best candidates (by coverage) whose sections are read
ABOUT = 1.0  # the weight of each about field's share of the query (lead field, headings)
COMMON = 2  # a word held by more than one note in this many counts less in a title
_TOKEN = re.compile(r"\w+")

Ranked = list[tuple[int, float]]  # file id, score


def _names(conn: sqlite3.Connection, ids: list[int]) -> dict[int, str]:
    """Each file's title and aliases (and tags), lower-cased."""
    # the heads table: a row without the body (a docs row would read the whole note)
    sql = f"SELECT rowid, title, aliases FROM heads WHERE rowid IN ({id_list(ids)})"
    return {int(i): f"{title}\n{aliases}".lower() for i, title, aliases in conn.execute(sql)}


@lru_cache(maxsize=8192)
def _stem(token: str) -> str:
    return stem_prefix(token)


Wanted = list[tuple[str, bool, float, float]]  # what :func:`_wanted` gives


def _wanted(units: tuple[Unit, ...], rarity: dict[str, float], common: float) -> Wanted:
    """Each unit as (what a title must hold, whether as a substring rather than a stem, its
    weight, the credit a title naming it earns: its weight, less for a word more common than
    one note in ``COMMON`` (whose idf is ``common``))."""
    wanted: Wanted = []
    for unit in units:
        word = unit.word.lower()
        loose = any(is_cjk(c) for c in word) or not word.isalnum()
        credit = unit.weight * min(1.0, rarity.get(unit.docs, common) / common)
        wanted.append((word if loose else stem_prefix(word), loose, unit.weight, credit))
    return wanted


def _has_stem(text: str, key: str) -> bool:
    """Whether a word of ``text`` has the stem ``key`` (a stem starts its word: look for it
    at word starts only, and stem just the words found there)."""
    at = text.find(key)
    while at >= 0:
        if at == 0 or not _TOKEN.match(text, at - 1):
            word = _TOKEN.match(text, at)
            if word is not None and _stem(word.group()) == key:
                return True
        at = text.find(key, at + 1)
    return False


def _named(text: str, wanted: Wanted) -> float:
    """The credit of the units the lower-cased ``text`` names (see :func:`_wanted`)."""
    return sum(c for key, loose, _, c in wanted if (key in text if loose else _has_stem(text, key)))


Credits = tuple[Wanted, float]  # what :func:`credits` gives


def credits(conn: sqlite3.Connection, units: tuple[Unit, ...], rarity: dict[str, float]) -> Credits:
    """The units as :func:`_wanted` gives them in this index, and their total weight: what
    :func:`title_share` and :func:`about_share` count a text's naming of the query by."""
    notes = documents(conn)
    wanted = _wanted(units, rarity, idf(notes / COMMON, notes))
    return wanted, sum(weight for _, _, weight, _ in wanted) or 1.0


def title_share(conn: sqlite3.Connection, named: Credits, ids: list[int]) -> dict[int, float]:
    """The share of the query's content words (by weight) each file's title or aliases name;
    a word held by more than one note in ``COMMON`` counts less (a title naming *note* in a
    vault of notes says little)."""
    wanted, total = named
    return {fid: _named(names, wanted) / total for fid, names in _names(conn, ids).items()}


def about_share(named: Credits, read: dict[int, Read]) -> dict[int, float]:
    """For each file read, the share of the query (as :func:`title_share` counts it) its lead
    field names plus the share its headings name (so at most 2)."""
    wanted, total = named
    return {
        fid: (_named(r.lead, wanted) + _named(r.headings, wanted)) / total
        for fid, r in read.items()
    }


def blend(
    conn: sqlite3.Connection, query: Query, complete: Ranked, loose: Loose, limit: int
) -> list[tuple[int, float, bool]]:
    """The best ``limit`` of the complete matches and the partial ones, best first: (file id,
    blended score, complete)."""
    bm25 = dict(complete) | dict(loose.ranked)  # lower is better
    ids = list(bm25)
    cover = dict(loose.cover)
    units = query.units()
    rarity = loose.rarity or rarities(conn, units)
    missing = [fid for fid in ids if fid not in cover]
    if missing:
        cover.update(coverage(conn, units, id_list(missing), rarity))
    top = max(cover.values(), default=0.0) or 1.0
    best = min(bm25.values(), default=0.0) or -1.0
    named = credits(conn, units, rarity)
    share = title_share(conn, named, ids)
    rest = {fid: BM25 * bm25[fid] / best + TITLE * share.get(fid, 0.0) for fid in ids}
    first = {fid: cover.get(fid, 0.0) / top + rest[fid] for fid in ids}
    order = sorted(ids, key=lambda fid: (-round(first[fid], 9), fid))[: max(limit, RERANKED)]
    read = best_sections(conn, units, order, rarity)
    held = {fid: r.held for fid, r in read.items()}
    most = max(held.values(), default=0.0) or 1.0
    about = about_share(named, read)
    score = {
        fid: SECTION * held.get(fid, 0.0) / most + ABOUT * about.get(fid, 0.0) + rest[fid]
        for fid in order
    }
    whole = {fid for fid, _ in complete}
    order = sorted(order, key=lambda fid: (-round(score[fid], 9), fid))[:limit]
    return [(fid, score[fid], fid in whole) for fid in order]
