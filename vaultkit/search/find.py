"""Run a query against a search index: BM25 with titles and headings weighted above the body,
filters by kind, date, tag, agent and author, and each hit placed on its first matching line.

FTS5 computes ``bm25()`` for every match before it can sort (about a microsecond each), so a
word in most of 100,000 notes costs ~100 ms. A query with more than ``COMMON`` matches is
therefore ranked over the ``heads`` table (titles and headings alone, whose doclists are short)
first: the best title and heading matches that also match the whole query are the hits. Only
when those cannot fill the limit is every match ranked. Below ``COMMON`` the ranking is plain
BM25 over all columns. Matches are counted first (unranked, about 0.1 µs each), or, for a
phrase, whose matching costs more than its ranking, counted in the ranking pass itself.

These are the documents holding every content word of the query. When they cannot fill the
limit, the documents holding some of the words follow (:mod:`vaultkit.search.loose`), marked
as partial (``Hit.complete`` False). For a query of several content words whose matches were
all ranked (not a common one), the two are blended instead (:mod:`vaultkit.search.blend`): a
note whose title names the question may come before a long note that holds every word.
"""

from __future__ import annotations

import sqlite3

from vaultkit.base.record import Record
from vaultkit.errors import VaultkitError
from vaultkit.search.blend import blend
from vaultkit.search.loose import rank_loose
from vaultkit.search.query import HINT, Query

# bm25() weights per column: title, headings, aliases (and tags), description, body, the
# bigrams of title, headings and aliases, the bigrams of description and body, unigrams.
WEIGHTS = (10.0, 4.0, 8.0, 2.0, 1.0, 8.0, 1.0, 0.5)
# ... and of the ``heads`` table: title, headings, aliases, their bigrams, their single CJK
# characters.
HEAD_WEIGHTS = (10.0, 4.0, 8.0, 8.0, 4.0)
COMMON = 10_000  # matches: above this a query is ranked by its title and heading matches first
CANDIDATES = 20  # title and heading candidates looked at per hit wanted ...
MAX_CANDIDATES = 2_000  # ... up to this many (never fewer than the limit)
SNIPPET_CHARS = 160


class Filters(Record):
    """What narrows a search besides the query."""

    kinds: tuple[str, ...] = ()
    since: str = ""  # YYYY-MM-DD, inclusive
    tags: tuple[str, ...] = ()
    agent: str = ""
    limit: int = 10
    author: str = ""  # frontmatter ``author:``, compared without regard to (ASCII) case


class Hit(Record):
    """One result: where it is (path, line), what it is, and the line that matched."""

    path: str
    line: int
    kind: str
    title: str
    date: str
    score: float
    snippet: str
    author: str = ""
    complete: bool = True  # holds every content word of the query (else some of them)

    def as_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "kind": self.kind,
            "title": self.title,
            "date": self.date,
            "author": self.author,
            "score": round(self.score, 4),
            "snippet": self.snippet,
            "complete": self.complete,
        }


def _where(filters: Filters) -> tuple[str, list[object]]:
    """The filter on ``files`` rows (``""`` when nothing narrows the search) and its values."""
    clauses: list[str] = []
    args: list[object] = []
    if filters.kinds:
        clauses.append(f"kind IN ({', '.join('?' * len(filters.kinds))})")
        args.extend(filters.kinds)
    if filters.since:
        clauses.append("date >= ?")
        args.append(filters.since)
    for tag in filters.tags:
        clauses.append("id IN (SELECT id FROM tags WHERE tag = ? OR tag LIKE ? ESCAPE '\\')")
        lowered = tag.lower().lstrip("#")
        escaped = lowered.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        args.extend([lowered, escaped + "/%"])
    if filters.agent:
        clauses.append("agent = ?")
        args.append(filters.agent)
    if filters.author:
        clauses.append("author = ? COLLATE NOCASE")
        args.append(filters.author.strip())
    return " AND ".join(clauses), args


def _snippet(line: str, needle: str) -> str:
    text = " ".join(line.split())
    if len(text) <= SNIPPET_CHARS:
        return text
    at = max(0, text.lower().find(needle) - SNIPPET_CHARS // 3) if needle else 0
    piece = text[at : at + SNIPPET_CHARS]
    return ("…" if at else "") + piece + ("…" if at + SNIPPET_CHARS < len(text) else "")


def locate(body: str, body_line: int, title: str, needles: tuple[str, ...]) -> tuple[int, str]:
    """The file line of the first body line holding a needle, and a snippet of it; a hit that
    matched only the title (or frontmatter) is placed on line 1 with the title as snippet."""
    for offset, line in enumerate(body.split("\n")):
        lowered = line.lower()
        for needle in needles:
            if needle in lowered:
                return body_line + offset, _snippet(line, needle)
    return 1, title


Ranked = list[tuple[int, float]]  # file id, bm25 score (lower is better)


def _weights(values: tuple[float, ...]) -> str:
    return ", ".join(map(str, values))


def _narrow(table: str, where: str) -> str:
    return f" AND {table}.rowid IN (SELECT id FROM files WHERE {where})" if where else ""


def _ranking_sql(where: str) -> str:
    """Every match of the first parameter, narrowed by ``where``, ranked by BM25 over all
    columns; the last parameter is the limit."""
    return (
        f"SELECT docs.rowid, bm25(docs, {_weights(WEIGHTS)}) AS score FROM docs"
        f" WHERE docs MATCH ?{_narrow('docs', where)} ORDER BY score, docs.rowid LIMIT ?"
    )


def _heads_sql(where: str) -> str:
    """Like :func:`_ranking_sql` over the ``heads`` table (titles, headings, aliases)."""
    return (
        f"SELECT heads.rowid, bm25(heads, {_weights(HEAD_WEIGHTS)}) AS score FROM heads"
        f" WHERE heads MATCH ?{_narrow('heads', where)} ORDER BY score, heads.rowid LIMIT ?"
    )


def _all_ranked(
    conn: sqlite3.Connection, match: str, where: tuple[str, list[object]], limit: int
) -> Ranked:
    """Every match ranked by BM25 over all columns: the best ``limit``."""
    sql = _ranking_sql(where[0])
    return [(int(i), float(s)) for i, s in conn.execute(sql, [match, *where[1], limit])]


def _bounded(
    conn: sqlite3.Connection, match: str, where: tuple[str, list[object]], limit: int, common: int
) -> Ranked | None:
    """The best ``limit`` matches, or None when there are more than ``common`` matches (only
    the first ``common + 1`` are scored to find out)."""
    sql = (
        "SELECT id, score, count(*) OVER () FROM"
        f" (SELECT docs.rowid AS id, bm25(docs, {_weights(WEIGHTS)}) AS score FROM docs"
        f" WHERE docs MATCH ?{_narrow('docs', where[0])} LIMIT ?)"
        " ORDER BY score, id LIMIT ?"
    )
    rows = conn.execute(sql, [match, *where[1], common + 1, limit]).fetchall()
    if rows and rows[0][2] > common:
        return None
    return [(int(i), float(s)) for i, s, _ in rows]


def _by_heads(
    conn: sqlite3.Connection, query: Query, where: tuple[str, list[object]], limit: int
) -> Ranked | None:
    """The best ``limit`` title and heading matches that match the whole query, or None when
    there are not that many among the first ``CANDIDATES * limit``. Documents whose titles
    and headings hold every word of the query come first; then those holding any."""
    sql = (
        f"SELECT heads.rowid, bm25(heads, {_weights(HEAD_WEIGHTS)}) AS score FROM heads"
        f" WHERE heads MATCH ?{_narrow('heads', where[0])} ORDER BY score, heads.rowid LIMIT ?"
    )
    wanted = max(limit, min(CANDIDATES * limit, MAX_CANDIDATES))
    tiers = {query.heads_match(every): every for every in (True, False)}
    for expression, every in tiers.items():
        found = [(int(i), float(s)) for i, s in conn.execute(sql, [expression, *where[1], wanted])]
        if len(found) >= limit and not query.heads_imply_match(every):
            found = _matching(conn, query, found, limit)
        if len(found) >= limit:
            return found[:limit]
    return None


def _matching(conn: sqlite3.Connection, query: Query, found: Ranked, limit: int) -> Ranked:
    """The rows of ``found`` whose documents match the whole query, in order. The first
    ``2 * limit`` are looked up one by one (FTS5 evaluates the query per id: cheap, unless a
    prefix stands for many words); when too few of them match, ``+rowid`` keeps the ids out
    of FTS5's lookup, so the matches are scanned once, unranked, and tested against the list."""
    first = found[: 2 * limit]
    if not query.has_prefix():
        whole = _whole(conn, query.match(), first, "rowid")
        kept = [row for row in first if row[0] in whole]
        if len(kept) >= limit or len(first) == len(found):
            return kept
    whole = _whole(conn, query.match(), found, "+rowid")
    return [row for row in found if row[0] in whole]


def _whole(conn: sqlite3.Connection, match: str, rows: Ranked, rowid: str) -> set[int]:
    ids = ", ".join(str(int(i)) for i, _ in rows)  # file ids: integers, written as literals
    check = f"SELECT rowid FROM docs WHERE docs MATCH ? AND {rowid} IN ({ids})"
    return {int(r[0]) for r in conn.execute(check, (match,))}


def _count(conn: sqlite3.Connection, match: str, where: tuple[str, list[object]], most: int) -> int:
    """How many documents match, counting no further than ``most`` (unranked: cheap)."""
    sql = (
        "SELECT count(*) FROM (SELECT docs.rowid FROM docs"
        f" WHERE docs MATCH ?{_narrow('docs', where[0])} LIMIT ?)"
    )
    return int(conn.execute(sql, [match, *where[1], most]).fetchone()[0])


def _ranked(
    conn: sqlite3.Connection, query: Query, filters: Filters, common: int
) -> tuple[Ranked, bool]:
    """The best complete matches, and whether they were ranked over their titles and
    headings first (a common query: see the module docstring)."""
    where, match, limit = _where(filters), query.match(), filters.limit
    if query.has_phrase():  # matching costs most: count while ranking, in one pass
        bounded = _bounded(conn, match, where, limit, common)
        if bounded is not None:
            return bounded, False
    elif _count(conn, match, where, common + 1) <= common:
        return _all_ranked(conn, match, where, limit), False
    heads = _by_heads(conn, query, where, limit)
    if heads is not None:
        return heads, True
    return _all_ranked(conn, match, where, limit), False


def search(
    conn: sqlite3.Connection, query: Query, filters: Filters, common: int = COMMON
) -> list[Hit]:
    """The best ``filters.limit`` hits, best first (see the module docstring for ``common``):
    the documents holding every content word, then those holding the most of them."""
    try:
        rows = _ordered(conn, query, filters, common)
    except sqlite3.OperationalError as exc:  # a query FTS5 still cannot take
        raise VaultkitError(f"search query {query.text!r}: {exc}", hint=HINT) from exc
    needles = query.needles()
    hits = []
    for (score, path, kind, title, date, author, body_line, body), whole in rows:
        line, snippet = locate(body, body_line, title, needles)
        hits.append(Hit(path, line, kind, title, date, -score, snippet, author, whole))
    return hits


def _ordered(
    conn: sqlite3.Connection, query: Query, filters: Filters, common: int
) -> list[tuple[Row, bool]]:
    """The rows of the hits, best first, each with whether it holds every content word: the
    complete matches blended with the partial ones when the query has several content words
    and its matches were all ranked (not a common query, whose partial matches are too many)
    (:mod:`vaultkit.search.blend`), else the complete matches first (by BM25), then the
    partial ones (by coverage)."""
    ranked, common_query = _ranked(conn, query, filters, common)
    several = len(query.units()) > 1 and not common_query
    if len(ranked) >= filters.limit and not several:
        return [(row, True) for row in sorted(_rows(conn, ranked), key=lambda r: r[:2])]
    where = _where(filters)
    sqls = (_ranking_sql(where[0]), _heads_sql(where[0]))
    if several:
        loose = rank_loose(conn, query, sqls, where[1], set())
        order = blend(conn, query, ranked, loose, filters.limit)
        return [(row, whole) for fid, score, whole in order for row in _rows(conn, [(fid, -score)])]
    loose = rank_loose(conn, query, sqls, where[1], {fid for fid, _ in ranked})
    partial = loose.ranked[: filters.limit - len(ranked)]
    complete = sorted(_rows(conn, ranked), key=lambda r: r[:2])
    return [(row, True) for row in complete] + [(row, False) for row in _rows(conn, partial)]


# score, path, kind, title, date, author, body line, body
Row = tuple[float, str, str, str, str, str, int, str]


def _rows(conn: sqlite3.Connection, ranked: Ranked) -> list[Row]:
    """What a hit shows of each ranked file, in order (``limit`` lookups, not one a match)."""
    rows: list[Row] = []
    for fid, score in ranked:
        row = conn.execute(
            "SELECT f.path, f.kind, f.title, f.date, f.author, f.body_line, d.body FROM files f"
            " JOIN docs d ON d.rowid = f.id WHERE f.id = ?",
            (fid,),
        ).fetchone()
        if row is not None:
            rows.append((score, *row))
    return rows
