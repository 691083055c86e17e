"""markdown-it's GFM table rule, as vaultkit's ``wikilink.table_rule`` runs it: one ``vk_row``
inline token a row line."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from vaultkit.vault.fastparse.inline import (
    inline_children,
)
from vaultkit.vault.fastparse.tokens import (
    DELIMITER_CHARS,
    FENCE,
    HEADING,
    TEXT,
    InlineBlock,
    Piece,
)
from vaultkit.vault.wikisyntax import (
    comment_left_open,
    md_trim,
)

MAX_AUTOCOMPLETED_CELLS = 0x10000  # markdown-it's table rule stops a table past this many
_ALIGN = re.compile(r":?-+:?")
ROW_META: dict[str, Any] = {"vk_row": True}  # a table row's inline token (wikilink.table_rule)


def escaped_split(text: str) -> list[str]:
    """markdown-it's ``escapedSplit``: cells split at each ``|`` not escaped by a backslash."""
    if "\\" not in text:
        return text.split("|")  # nothing is escaped: every "|" splits
    result: list[str] = []
    current, last, escaped = "", 0, False
    for pos, char in enumerate(text):
        if char == "|":
            if not escaped:
                result.append(current + text[last:pos])
                current, last = "", pos + 1
            else:
                current += text[last : pos - 1]
                last = pos
        escaped = char == "\\"
    result.append(current + text[last:])
    return result


def _cells(line: str) -> list[str]:
    """A row's cells as markdown-it counts them (a leading and a trailing empty one dropped)."""
    columns = escaped_split(md_trim(line))
    if columns and columns[0] == "":
        columns.pop(0)
    if columns and columns[-1] == "":
        columns.pop()
    return columns


def _delimiter_columns(line: str) -> int | None:
    """The column count of a column-0 delimiter row as markdown-it's table rule reads it."""
    if len(line) < 2 or line[0] not in "|-:" or line[1] not in "|-: \t":
        return None
    if (line[0] == "-" and line[1] in " \t") or not set(line) <= DELIMITER_CHARS:
        return None
    columns = line.split("|")
    count = 0
    for index, column in enumerate(columns):
        trimmed = md_trim(column)
        if not trimmed:
            if index == 0 or index == len(columns) - 1:
                continue
            return None
        if not _ALIGN.fullmatch(trimmed):
            return None
        count += 1
    return count


def table_end(
    lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int
) -> int | None:
    """The line after a column-0 GFM table whose header is ``lines[start]``, when markdown-it
    surely makes exactly that table of it: every body row starts with ``|`` (no block rule
    that ends a table starts with one) or is a paragraph line by its ``kinds`` entry
    (TEXT: it starts no block either, so it is a row too), and a blank line, the body's end,
    or a column-0 heading or fence (blocks that end a table) closes it.
    ``None`` when unsure, or when markdown-it makes no table here."""
    header, delimiter = lines[start], lines[start + 1]
    if header[:1] in ("", " ", "\t") or "|" not in md_trim(header):
        return None
    count = _delimiter_columns(delimiter)
    if not count or len(_cells(header)) != count:
        return None
    autocompleted = 0
    end = start + 2
    while end < line_max:
        line = lines[end]
        if not line.startswith("|"):
            if not md_trim(line):
                return end
            kind = kinds[end]
            if kind in (HEADING, FENCE):
                return end
            if kind != TEXT:
                return None
        autocompleted += count - len(_cells(line))
        if autocompleted > MAX_AUTOCOMPLETED_CELLS:
            return None
        end += 1
    return end


def table_rows(lines: Sequence[str], start: int, end: int) -> list[InlineBlock] | None:
    """The ``vk_row`` inline token of each table line but the delimiter row."""
    rows: list[InlineBlock] = []
    for index in (start, *range(start + 2, end)):
        content = md_trim(lines[index])
        if comment_left_open(content):
            return None  # the comment runs on over the next rows (wikilink.table_rule)
        children = inline_children(content)
        if children is None:
            return None
        rows.append(
            (0, Piece("inline", content, ROW_META, children=children, map=[index, index + 1]))
        )
    return rows
