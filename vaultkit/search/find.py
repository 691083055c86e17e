"""Run a query against a search index: BM25 with titles and headings weighted above the body,
filters by kind, date, tag and agent, and each hit placed on its first matching line."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from vaultkit.errors import VaultkitError
from vaultkit.search.query import HINT, Query

# bm25() weights per column: title, headings, body, title+heading bigrams, body bigrams, unigrams.
WEIGHTS = (10.0, 4.0, 1.0, 8.0, 1.0, 0.5)
SNIPPET_CHARS = 160


@dataclass(frozen=True, slots=True)
class Filters:
    """What narrows a search besides the query."""

    kinds: tuple[str, ...] = ()
    since: str = ""  # YYYY-MM-DD, inclusive
    tags: tuple[str, ...] = ()
    agent: str = ""
    limit: int = 10


@dataclass(frozen=True, slots=True)
class Hit:
    """One result: where it is (path, line), what it is, and the line that matched."""

    path: str
    line: int
    kind: str
    title: str
    date: str
    score: float
    snippet: str

    def as_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "kind": self.kind,
            "title": self.title,
            "date": self.date,
            "score": round(self.score, 4),
            "snippet": self.snippet,
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


def search(conn: sqlite3.Connection, query: Query, filters: Filters) -> list[Hit]:
    """The best ``filters.limit`` hits, best first."""
    where, args = _where(filters)
    narrow = f" AND docs.rowid IN (SELECT id FROM files WHERE {where})" if where else ""
    # Rank inside the FTS table first and join only the best rows: the join then costs
    # ``limit`` lookups instead of one per match (a common word matches most of a vault).
    sql = (
        "SELECT f.path, f.kind, f.title, f.date, f.body_line, d.body, best.score FROM"
        f" (SELECT docs.rowid AS id, bm25(docs, {', '.join(map(str, WEIGHTS))}) AS score"
        f" FROM docs WHERE docs MATCH ?{narrow} ORDER BY score, docs.rowid LIMIT ?) AS best"
        " JOIN files f ON f.id = best.id JOIN docs d ON d.rowid = best.id"
        " ORDER BY best.score, f.path"
    )
    try:
        rows = conn.execute(sql, [query.match(), *args, filters.limit]).fetchall()
    except sqlite3.OperationalError as exc:  # a query FTS5 still cannot take
        raise VaultkitError(f"search query {query.text!r}: {exc}", hint=HINT) from exc
    needles = query.needles()
    hits = []
    for path, kind, title, date, body_line, body, score in rows:
        line, snippet = locate(body, body_line, title, needles)
        hits.append(Hit(path, line, kind, title, date, -float(score), snippet))
    return hits
