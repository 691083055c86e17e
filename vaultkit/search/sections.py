"""How much of a query one section of a note holds (a heading and the text up to the next),
and the note's fields that say what it is about.

A word in a section's heading, in the note's title or aliases, or anywhere in the note's
lead section (the text before its first heading, or up to its second when the note opens
with a heading, as a note under its own H1 title does; where a help or reference note says
what it is about: "Outline is a core plugin that lists the headings in the active note"; all
of a note without headings) counts ``1 + HEADS_BONUS`` times; elsewhere once. The same read
gives :class:`Read` the note's *about* fields, its title, aliases, description and lead
section as one text and its headings as another (:mod:`vaultkit.search.blend` scores them).
"""

from __future__ import annotations

import re
import sqlite3
from bisect import bisect_right
from collections.abc import Callable

from vaultkit.base.record import Record
from vaultkit.search.grams import is_cjk
from vaultkit.search.loose import HEADS_BONUS, id_list
from vaultkit.search.query import Unit
from vaultkit.search.words import stem_prefix

# a line opening or closing a fence, or an ATX heading line (its text up to the line's end)
_LINES = re.compile(r"^(?:[ \t]*(?:```|~~~)|#{1,6}(?:[ \t][^\n]*)?$)", re.MULTILINE)

Finder = Callable[[str, int], int]  # where a lower-cased text holds a unit from an offset on


class Read(Record):
    """What the section re-ranking read of one note: the most of the query one section holds,
    and the note's about fields, lower-cased: its title, aliases, description and lead
    section (``lead``), and its headings (``headings``), a line each."""

    held: float
    lead: str
    headings: str


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


Cuts = tuple[list[int], list[int]]  # what :func:`sections` gives


def _best(names: str, text: str, cuts: Cuts, finders: list[tuple[Finder, float]]) -> float:
    """The most of the query one section of ``text`` holds, a unit in the section's
    heading, in the lead section (the first) or in the note's ``names`` (title, aliases: the
    heading of every section) counting ``1 + HEADS_BONUS`` times (as in a note's coverage).
    Each unit is looked for once a section: from its first place in one, on from the next
    section."""
    starts, heads = cuts
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


def _lead(body: str, starts: list[int]) -> str:
    """The lead section of ``body`` (cut at ``starts``): the text before its first heading
    (past an opening one), all of it when it has no other."""
    return body[: starts[1]] if len(starts) > 1 else body


def best_sections(
    conn: sqlite3.Connection, units: tuple[Unit, ...], ids: list[int], rarity: dict[str, float]
) -> dict[int, Read]:
    """For each of the files ``ids``, the most of the query (its units by weight and rarity)
    one of its sections holds (a note that answers a question holds its words together, a
    long note that mentions them in passing holds them apart), and its about fields."""
    finders = [(_finder(u), u.weight * rarity.get(u.docs, 1.0)) for u in units]
    sql = (
        "SELECT rowid, title, aliases, description, headings, body FROM docs"
        f" WHERE rowid IN ({id_list(ids)})"
    )
    read: dict[int, Read] = {}
    for fid, title, aliases, description, headings, body in conn.execute(sql):
        names, text = f"{title}\n{aliases}".lower(), str(body).lower()
        cuts = sections(text)
        lead = f"{names}\n{str(description).lower()}\n{_lead(text, cuts[0])}"
        read[int(fid)] = Read(_best(names, text, cuts, finders), lead, str(headings).lower())
    return read
