"""Why a search found nothing, or only notes holding some of its words, and what to try next.

An empty answer tells an agent nothing: did the words not occur, did a filter hide the notes,
were too many words asked for at once? Each sentence here answers one of those from the index
itself (a few counts), so the advice is about this query and these notes, never generic.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from vaultkit.search.find import Filters, Hit
from vaultkit.search.query import Query, Unit

SHOWN = 4  # words named in one sentence


def _names(words: Sequence[str]) -> str:
    shown = ", ".join(repr(w) for w in words[:SHOWN])
    return shown + (f" and {len(words) - SHOWN} more" if len(words) > SHOWN else "")


def _filters(filters: Filters) -> list[str]:
    named = [f"--type {' '.join(filters.kinds)}"] if filters.kinds else []
    named += [f"--since {filters.since}"] if filters.since else []
    named += [f"--tag {t}" for t in filters.tags]
    named += [f"--agent {filters.agent}"] if filters.agent else []
    return named


def _count(conn: sqlite3.Connection, expression: str) -> int:
    sql = "SELECT count(*) FROM (SELECT rowid FROM docs WHERE docs MATCH ? LIMIT 100000)"
    try:
        return int(conn.execute(sql, (expression,)).fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _absent(conn: sqlite3.Connection, units: tuple[Unit, ...]) -> list[str]:
    return [u.word for u in units if _count(conn, u.docs) == 0]


def _empty(conn: sqlite3.Connection, query: Query, filters: Filters) -> list[str]:
    units = query.units()
    named = _filters(filters)
    advice: list[str] = []
    if named:
        unfiltered = _count(conn, query.loose_match() if units else query.match())
        if unfiltered:
            advice.append(
                f"{unfiltered} documents match without {' '.join(named)}: the filters left"
                " out every hit; drop or widen them"
            )
    absent = _absent(conn, units)
    if absent:
        advice.append(
            f"no document holds {_names(absent)}: check the spelling, try another word for it,"
            " or leave it out"
        )
    if len(query.groups) > 1 or not units:
        advice.append("no side of the OR matched: try other words on each side")
    elif len(units) > 1:
        advice.append('try fewer words, or allow alternatives: "a OR b"')
    else:
        advice.append("try a shorter form of the word with a prefix (migr*) or a related word")
    return advice


def _weak(conn: sqlite3.Connection, query: Query, hits: Sequence[Hit]) -> list[str]:
    units = query.units()
    absent = _absent(conn, units)
    advice = [
        "no document holds every word of the query; these hold the most of them"
        + (f" ({_names(absent)} found nowhere)" if absent else "")
    ]
    if len(units) > 2:
        advice.append(
            "fewer, more telling words narrow it down (leave out the ones every note has)"
        )
    return advice


def advise(
    conn: sqlite3.Connection, query: Query, filters: Filters, hits: Sequence[Hit]
) -> tuple[str, ...]:
    """Sentences saying why ``hits`` is empty or weak and what to try (none when every hit
    holds every word), and which common words were left out of the search."""
    if hits and any(hit.complete for hit in hits):
        return ()
    advice = _weak(conn, query, hits) if hits else _empty(conn, query, filters)
    left_out = query.left_out()
    if left_out:
        advice.append(f"common words left out of the search: {', '.join(left_out)}")
    return tuple(advice)
