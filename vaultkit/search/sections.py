"""How much of a query one section of a note holds: a heading and the text up to the next.

A word in a section's heading, in the note's title or aliases, or anywhere in the note's
lead section (the text before its first heading, or up to its second when the note opens
with a heading, as a note under its own H1 title does; where a help or reference note says
what it is about: "Outline is a core plugin that lists the headings in the active note"; all
of a note without headings) counts ``1 + HEADS_BONUS`` times; elsewhere once.
"""

from __future__ import annotations

import re
import sqlite3
from bisect import bisect_right
from collections.abc import Callable

from vaultkit.search.grams import is_cjk
from vaultkit.search.loose import HEADS_BONUS, id_list
from vaultkit.search.query import Unit
from vaultkit.search.words import stem_prefix

# a line opening or closing a fence, or an ATX heading line (its text up to the line's end)
_LINES = re.compile(r"^(?:[ \t]*(?:```|~~~)|#{1,6}(?:[ \t][^\n]*)?$)", re.MULTILINE)

Finder = Callable[[str, int], int]  # where a lower-cased text holds a unit from an offset on


def sections(body: str) -> tuple[list[int], list[int]]:
    """Where each section of ``body`` starts, and where its heading line ends (its start
    for the text before the first heading): ``body`` is cut before each ATX heading line
    outside a fenced code block."""
    starts, heads = [0], [0]
    fenced = False
    for line in _LINES.finditer(body):
        if not line.group().startswith("#"):
            fenced = not fenced
        elif not fenced and line.start():
            starts.append(line.start())
            heads.append(line.end())
        elif not fenced:
            heads[0] = line.end()
    return starts, heads


def _word_start(text: str, at: int) -> bool:
    return at == 0 or not text[at - 1].isalnum()


def _finder(unit: Unit) -> Finder:
    """Where a lower-cased text holds ``unit`` from an offset on (-1: nowhere): a CJK piece or
    a phrase as a substring, a word by its stem at the start of a word (as the index finds
    it)."""
    word = unit.word.lower()
    if any(is_cjk(c) for c in word) or not word.isalnum():
        return lambda text, at: text.find(word, at)
    stem = stem_prefix(word)

    def find(text: str, at: int) -> int:
        at = text.find(stem, at)
        while at >= 0 and not _word_start(text, at):
            at = text.find(stem, at + 1)
        return at

    return find


def _best(names: str, text: str, finders: list[tuple[Finder, float]]) -> float:
    """The most of the query one section of ``text`` holds, a unit in the section's
    heading, in the lead section (the first) or in the note's ``names`` (title, aliases: the
    heading of every section) counting ``1 + HEADS_BONUS`` times (as in a note's coverage).
    Each unit is looked for once a section: from its first place in one, on from the next
    section."""
    starts, heads = sections(text)
    held = [0.0] * len(starts)
    for find, weight in finders:
        if find(names, 0) >= 0:
            held = [value + weight * (1.0 + HEADS_BONUS) for value in held]
            continue
        at = find(text, 0)
        while at >= 0:
            i = bisect_right(starts, at) - 1
            named = i == 0 or at < heads[i]  # the lead, or this section's heading
            held[i] += weight * (1.0 + HEADS_BONUS if named else 1.0)
            at = find(text, starts[i + 1]) if i + 1 < len(starts) else -1
    return max(held)


def best_sections(
    conn: sqlite3.Connection, units: tuple[Unit, ...], ids: list[int], rarity: dict[str, float]
) -> dict[int, float]:
    """For each of the files ``ids``, the most of the query (its units by weight and rarity)
    one of its sections holds: a note that answers a question holds its words together, a
    long note that mentions them in passing holds them apart."""
    finders = [(_finder(u), u.weight * rarity.get(u.docs, 1.0)) for u in units]
    sql = f"SELECT rowid, title, aliases, body FROM docs WHERE rowid IN ({id_list(ids)})"
    return {
        int(fid): _best(f"{title}\n{aliases}".lower(), str(body).lower(), finders)
        for fid, title, aliases, body in conn.execute(sql)
    }
