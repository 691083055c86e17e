"""Rank the documents that hold some of a query's content words, when too few hold all of them.

A question ("How do I make a callout collapsible?") names more words than the note that answers
it holds. The candidates are the best BM25 matches of any content word (:meth:`Query.units`);
each is then scored by its coverage: the content words it holds, each weighted by how rare it is
(the inverse document frequency BM25 uses) and counted twice when it stands in the title, a
heading or an alias; a body match counts a little less in a long note and more in a short one
(BM25's length normalisation, mildly). Coverage ranks first, BM25 breaks ties. The
documents holding every word are left out here when they were ranked before this; for a query
of several words whose matches were all ranked they are candidates too, and
:mod:`vaultkit.search.blend` orders the two together.
"""

from __future__ import annotations

import math
import sqlite3

from vaultkit.base.record import Record, field
from vaultkit.search.grams import bigrams
from vaultkit.search.query import Query, Unit

CANDIDATES = 200  # best BM25 matches of any unit looked at
COMMON = 10_000  # matches of any unit: above this the candidates are title/heading/alias matches
DF_CAP = 5_000  # document frequencies are counted up to this (rarer words weigh more)
HEADS_BONUS = 2.0  # a unit in the title, a heading or an alias counts this much more
K1, B = 1.2, 0.3  # BM25 saturation, and a mild length normalisation (see _lengths)


class Loose(Record):
    """Ranked partial matches (file id, BM25 score), and the units no candidate held."""

    ranked: list[tuple[int, float]]
    unmatched: tuple[str, ...]
    cover: dict[int, float] = field(default_factory=dict)  # file id -> its coverage
    rarity: dict[str, float] = field(default_factory=dict)  # unit's docs expression -> idf


def id_list(rows: list[int]) -> str:
    """File ids as a comma-separated SQL list (integers, written as literals)."""
    return ", ".join(str(int(i)) for i in rows)  # file ids: integers, written as literals


def _frequency(conn: sqlite3.Connection, table: str, unit: str) -> int:
    sql = f"SELECT count(*) FROM (SELECT rowid FROM {table} WHERE {table} MATCH ? LIMIT ?)"
    return int(conn.execute(sql, (unit, DF_CAP)).fetchone()[0])


def _holders(conn: sqlite3.Connection, table: str, unit: str, ids: str) -> set[int]:
    sql = f"SELECT rowid FROM {table} WHERE {table} MATCH ? AND +rowid IN ({ids})"
    return {int(r[0]) for r in conn.execute(sql, (unit,))}


def _lengths(conn: sqlite3.Connection, ids: str) -> dict[int, float]:
    """Each candidate's BM25 length factor for a word it holds once: above 1 for a note
    shorter than the average, below 1 for a longer one (a long note holds many words by
    chance, so holding one says less about it)."""
    average = float(conn.execute("SELECT avg(size) FROM files").fetchone()[0] or 1.0) or 1.0
    rows = conn.execute(f"SELECT id, size FROM files WHERE id IN ({ids})")
    return {int(fid): (K1 + 1) / (1 + K1 * (1 - B + B * int(size) / average)) for fid, size in rows}


def idf(df: float, total: int) -> float:
    """BM25's inverse document frequency of a unit ``df`` of ``total`` documents hold."""
    return math.log(1 + (total - df + 0.5) / (df + 0.5))


def documents(conn: sqlite3.Connection) -> int:
    """How many documents the index holds (at least 1)."""
    return max(1, int(conn.execute("SELECT count(*) FROM files").fetchone()[0]))


def rarities(conn: sqlite3.Connection, units: tuple[Unit, ...]) -> dict[str, float]:
    """Each unit's inverse document frequency (BM25's), by its ``docs`` expression; for a
    unit of a Korean word, no more than its stem's (``Unit.stem``: 보관소 and 링크한 count as
    보관 and 링크 do); 0 for a bigram of a Chinese or Japanese piece that is rarer than both its
    neighbours (see :func:`_valleys`)."""
    total = documents(conn)
    found: dict[str, float] = {}
    for unit in units:
        if unit.docs not in found:
            found[unit.docs] = idf(_frequency(conn, "docs", unit.docs), total)
    stems: dict[str, float] = {}  # a unit of a Korean word counts no more than its stem
    for unit in units:
        if unit.stem:
            if unit.stem not in stems:
                stems[unit.stem] = idf(_frequency(conn, "docs", unit.stem), total)
            found[unit.docs] = min(found[unit.docs], stems[unit.stem])
    # each run's bigrams in order, a repeated one at each of its places (its unit is kept
    # once), all judged by their own rarity before any is dropped
    docs = {u.word: u.docs for u in units}
    runs = {u.run for u in units if u.run}
    low = {g for run in runs for g in _valleys([docs[b] for b in bigrams(run) if b in docs], found)}
    return found | dict.fromkeys(low, 0.0)


def _valleys(grams: list[str], rarity: dict[str, float]) -> list[str]:
    """The bigrams of a run that are rarer than the bigrams on both sides of them: a bigram
    across a word boundary (the 记有 of 笔记有, the ドシ of キーボードショートカット), which
    the words around it hold far more often than it."""
    rare = [rarity[g] for g in grams]
    return [g for i, g in enumerate(grams[1:-1], 1) if rare[i] > max(rare[i - 1], rare[i + 1])]


def coverage(
    conn: sqlite3.Connection, units: tuple[Unit, ...], ids: str, rarity: dict[str, float]
) -> dict[int, float]:
    """The coverage of each of the files ``ids`` (a comma-separated list) that holds a unit,
    given each unit's :func:`rarities`."""
    length = _lengths(conn, ids)
    cover: dict[int, float] = {}
    for unit in units:
        idf = rarity[unit.docs]
        for fid in _holders(conn, "docs", unit.docs, ids):
            cover[fid] = cover.get(fid, 0.0) + unit.weight * idf * length.get(fid, 1.0)
        if unit.heads:
            for fid in _holders(conn, "heads", unit.heads, ids):
                cover[fid] = cover.get(fid, 0.0) + unit.weight * idf * HEADS_BONUS
    return cover


def _candidates(
    conn: sqlite3.Connection, query: Query, sqls: tuple[str, str], args: list[object]
) -> list[tuple[int, float]]:
    """The best BM25 matches of any unit; when more than ``COMMON`` documents match (ranking
    them all would cost about a microsecond each), the best title, heading and alias matches."""
    common = COMMON
    expression = query.loose_match()
    count = "SELECT count(*) FROM (SELECT rowid FROM docs WHERE docs MATCH ? LIMIT ?)"
    if int(conn.execute(count, (expression, common + 1)).fetchone()[0]) > common:
        sql, expression = sqls[1], query.loose_match(heads=True)
    else:
        sql = sqls[0]
    return [(int(i), float(s)) for i, s in conn.execute(sql, [expression, *args, CANDIDATES])]


def rank_loose(
    conn: sqlite3.Connection,
    query: Query,
    sqls: tuple[str, str],
    args: list[object],
    skip: set[int],
) -> Loose:
    """The partial matches of ``query`` best first, without the ids in ``skip``.

    ``sqls`` select ``(rowid, bm25)`` of the documents (of the ``docs`` table, of the
    ``heads`` table) matching their first parameter, narrowed by the filters in ``args``, best
    first, as many as the last parameter."""
    units = query.units()
    if not units:
        return Loose([], ())
    rows = _candidates(conn, query, sqls, args)
    found = [(int(i), float(s)) for i, s in rows if int(i) not in skip]
    if not found:
        return Loose([], tuple(u.word for u in units))
    rarity = rarities(conn, units)
    cover = coverage(conn, units, id_list([i for i, _ in found]), rarity)
    found.sort(key=lambda row: (-round(cover.get(row[0], 0.0), 6), row[1], row[0]))
    return Loose(found, (), cover, rarity)
