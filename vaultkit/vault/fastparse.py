"""Exact fast path for plain notes: the tokens vaultkit reads from markdown-it, or None if unsure.

:func:`inline_blocks` reproduces, for a subset of Markdown, the ``inline`` tokens (and their
children) that the markdown-it parser of :mod:`vaultkit.vault.wikilink` produces: ATX headings,
paragraphs (their first line may be indented up to three spaces), thematic breaks,
``-``/``*``/``+`` bullet and ``1.``/``1)`` ordered lists (one space after each marker; items
nested at most three columns past their parent's content column and at most
``MAX_LIST_DEPTH`` deep, indented with spaces or tabs, and later paragraphs of an item:
:func:`list_blocks`), fenced code, column-0 ``$$`` math blocks, HTML comments and block-tag
HTML blocks (skipped: the walk reads nothing of them), column-0 GFM tables whose rows start
with ``|`` or are paragraph lines (one ``vk_row`` token a row line, as wikilink.table_rule
makes), blockquotes and callouts whose ``>`` lines hold any of these blocks (nested quotes
too, lazy lines that continue a paragraph: :func:`quote_blocks`), one-line footnote
definitions, and inline code spans, escapes, wikilinks, embeds, simple ``[text](dest)`` and
``[text](<dest>)`` links and images, open and closing HTML tags, a literal ``<`` (Templater's
``<% ... %>``), inline ``$math$`` and ``%%comments%%`` (including a paragraph extended over the
lines of a comment it leaves open).
Anything outside that subset (indented code, other HTML, other tables, setext headings, blocks
other than paragraphs inside list items, other lazy continuation lines, indented ``$$`` math
blocks, link reference definitions, autolinks, malformed wikilinks, unusual links...) makes
it return ``None``, and the caller uses markdown-it. :func:`simple_yaml` does the same for
frontmatter made only of plain ``key: value`` strings, dates and lists of them.

Every rule here mirrors a markdown-it-py (or PyYAML) rule; tests/vault/test_fastparse.py proves the
results equal on generated vaults, the fixtures and a Hypothesis grammar of nasty variants.
"""

from __future__ import annotations

import re
import string
from bisect import bisect_right
from collections.abc import Sequence
from datetime import date
from functools import partial
from typing import Any, NamedTuple

from vaultkit.vault import thresholds
from vaultkit.vault.wikisyntax import (
    COMMENT,
    FOOTNOTE,
    MATH,
    MathScan,
    comment_left_open,
    md_trim,
    plain_href,
    split_wikilink,
    wikilink_meta,
)

ESCAPABLE = frozenset(string.punctuation)  # what markdown-it's escape rule unescapes
_SPECIAL = re.compile(r"[\n!\[\]\\`<%$]")  # characters where an enabled inline rule may start
# The two common tokens, matched whole where a special character is: a wikilink with no bracket
# or newline inside (so its "]]" is the first one, nothing nested) and a one-backtick code span
# closed by the next backtick run when that run is a single backtick.
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]*)\]\]")
_CODE = re.compile(r"`(?!`)([^`]*)`(?!`)")
_LABEL_STOP = re.compile(r"[\[\]\\`<\n$]|!\[|%%")  # ends a label we can decide without markdown-it
_DEST = re.compile(r"[^\s()<>\\\x00-\x1f\x7f]+")  # link_href decodes "&" entities
_POINTY_DEST = re.compile(r"<([^<>\\\n]*)>\)")  # "<dest>)", no escape or line break in it
_CONTROL = re.compile(r"[\x00-\x20]")
_HR = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*")
_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*")
_ORDERED = re.compile(r"[0-9]+[.)]")
_ORDERED_ITEM = re.compile(r"([0-9]{1,9})[.)] (?=[^ \t])")  # a marker, one space, then text
_DELIMITER_CHARS = frozenset("|-: \t")
_DELIMITER_ROW = re.compile(r"[ \t]*[-:|][-:| \t]*")  # what may be a table's delimiter row

BLANK, TEXT, HEADING, FENCE, BULLET, ORDERED, FOOTNOTE_DEF = range(7)
_ITEMS = (BULLET, ORDERED)
_CONTAINERS = (BULLET, ORDERED, FOOTNOTE_DEF)  # blocks whose content may go on past a blank


_NONE: dict[str, Any] = {}  # shared by every Piece without meta or attrs; never mutated


class Piece(NamedTuple):
    """The fields of a markdown-it ``Token`` that :mod:`vaultkit.vault.parse` reads."""

    type: str
    content: str = ""
    meta: dict[str, Any] = _NONE
    attrs: dict[str, Any] = _NONE
    children: list[Piece] | None = None
    map: list[int] | None = None


_make = partial(tuple.__new__, Piece)  # builds a Piece from a full tuple without __new__'s call


def _text(content: str) -> Piece:
    return _make(("text", content, _NONE, _NONE, None, None))


InlineBlock = tuple[int, Piece]  # heading level (0: not a heading), the ``inline`` token


# --------------------------------------------------------------------------- block level


def _classify(line: str) -> int | None:
    """The block a top-level line starts (or continues), ``None`` when not modelled."""
    if not line:
        return BLANK
    first = line[0]
    if first.isalpha():
        return TEXT
    if not line.strip(" \t"):
        return BLANK
    if first in " \t>|:":
        return None  # indentation, blockquote, table row
    if first == "<":
        return TEXT if _opens_no_html_block(line) else None
    if first == "$" and line.startswith(MATH):
        return None  # maybe a math block
    if first == "[" and FOOTNOTE.match(line):
        return FOOTNOTE_DEF  # a footnote definition (it interrupts a paragraph)
    if first == "#":
        level = len(line) - len(line.lstrip("#"))
        if level <= 6 and (level == len(line) or line[level] in " \t"):
            return HEADING
        return TEXT
    if first in "`~":
        run = len(line) - len(line.lstrip(first))
        if run >= 3:
            return FENCE if first == "~" or "`" not in line[run:] else None
        return TEXT
    if first in "-*+":
        second = line[1:2]
        if second == " ":
            return BULLET if _item_content_ok(line[2:]) else None
        if second == "" or second == "\t" or not line[1:].strip(" \t"):
            return None  # an empty item
    if first in "-*_=" and (_HR.fullmatch(line) or _UNDERLINE.fullmatch(line)):
        return None
    if first == "-" and set(line) <= _DELIMITER_CHARS:
        return None
    if first.isdigit() and _ORDERED.match(line):
        item = _ORDERED_ITEM.match(line)
        return ORDERED if item and _item_content_ok(line[item.end() :]) else None
    return TEXT


def _item_content_ok(content: str) -> bool:
    """A bullet item's text that can only be a plain paragraph (no nested block)."""
    if not content or content[0] in " \t":
        return False
    return _classify(content) == TEXT and _starts_paragraph(content)


def _item_continues(line: str, width: int) -> bool:
    """A line that continues a list item's paragraph at the item's content column."""
    return (
        line.startswith(" " * width)
        and line[width : width + 1] not in ("", " ", "\t")
        and _classify(line[width:]) == TEXT
    )


def _starts_at_one(line: str) -> bool:
    """An ordered item numbered 1 (``1.``, ``01)``...): the only one that interrupts a paragraph."""
    item = _ORDERED_ITEM.match(line)
    return item is not None and int(item[1]) == 1


def _item_width(line: str, kind: int) -> int:
    """The content column of a one-space bullet or ordered item's first line."""
    return 2 if kind == BULLET else line.index(" ") + 1


def _indented_text(line: str) -> bool:
    """A paragraph's first line indented one to three spaces (no tab): at a block's start
    markdown-it reads it as the paragraph the line's text would start at column 0."""
    if line[:1] != " ":
        return False
    text = line.lstrip(" ")
    return len(line) - len(text) <= 3 and _classify(text) == TEXT and _starts_paragraph(text)


def _starts_paragraph(line: str) -> bool:
    """False when a paragraph starting here could be a link reference definition: its first
    ``]`` (a label holds no unescaped ``[`` and ends at its first unescaped ``]``) is followed
    by ``:``, or a backslash or the line's end leaves the label unsure."""
    if not line.startswith("[") or line.startswith("[["):
        return True
    close = line.find("]")
    if close < 0 or "\\" in line[:close]:
        return False
    return "[" in line[1:close] or line[close + 1 : close + 2] != ":"


def _heading(line: str) -> tuple[int, str]:
    """markdown-it's ATX heading rule on one line: the level and the inline content."""
    level = len(line) - len(line.lstrip("#"))
    end = len(line)
    while end > level and line[end - 1] in " \t":
        end -= 1
    tail = end
    while tail > level and line[tail - 1] == "#":
        tail -= 1
    if tail > level and line[tail - 1] in " \t":
        end = tail
    return level, md_trim(line[level:end])


def _indent(line: str) -> tuple[int, int]:
    """(characters, columns) of a line's leading spaces and tabs, as markdown-it counts them."""
    chars = cols = 0
    for char in line:
        if char == " ":
            cols += 1
        elif char == "\t":
            cols += 4 - cols % 4
        else:
            break
        chars += 1
    return chars, cols


def _fence_end(lines: Sequence[str], start: int, line_max: int) -> int:
    """The line after a fence opened at ``start`` (``line_max`` when it is never closed)."""
    opening = lines[start]
    marker = opening[0]
    length = len(opening) - len(opening.lstrip(marker))
    for index in range(start + 1, line_max):
        line = lines[index]
        chars, cols = _indent(line)
        if not line.startswith(marker, chars) or cols >= 4:
            continue
        rest = line[chars:]
        run = len(rest) - len(rest.lstrip(marker))
        if run >= length and not rest[run:].strip(" \t"):
            return index + 1
    return line_max


def _comment_end(lines: Sequence[str], last: int, line_max: int) -> int:
    """Where a paragraph that leaves ``%%`` open ends (wikilink.paragraph_rule's extension)."""
    left_open = True
    while left_open and last < line_max:
        for index in range(last, line_max):
            text = lines[index].lstrip(" \t")
            if COMMENT in text:
                break
        else:
            return line_max
        last = index + 1
        left_open = comment_left_open(text) != left_open
    return last


def _paragraph(
    lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int
) -> tuple[str, int] | None:
    """(content, next line) of the paragraph starting at ``start``."""
    end = start + 1
    while end < line_max:
        kind = kinds[end]
        if kind == TEXT:
            end += 1
        elif kind is None and lines[end][:1] == ">":
            break  # a blockquote interrupts a paragraph
        elif kind is None or (kind == ORDERED and not _starts_at_one(lines[end])):
            return None  # only an ordered list starting at 1 interrupts a paragraph
        else:
            break
    content = md_trim(lines[start] if end == start + 1 else "\n".join(lines[start:end]))
    if comment_left_open(content):
        end = _comment_end(lines, end, line_max)
        content = "\n".join(lines[start:end]).strip()
    return content, end


# --------------------------------------------------------------------------- GFM tables

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
    if (line[0] == "-" and line[1] in " \t") or not set(line) <= _DELIMITER_CHARS:
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


def _table_rows(lines: Sequence[str], start: int, end: int) -> list[InlineBlock] | None:
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


# --------------------------------------------------------------------------- HTML blocks

# CommonMark's HTML block names (type 6; tests/vault/test_fastparse.py checks them against
# markdown-it)
_BLOCK_NAMES_TEXT = (
    "address article aside base basefont blockquote body caption center col colgroup dd details "
    "dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 "
    "head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option "
    "p param search section summary table tbody td tfoot th thead title tr track ul"
)
HTML_BLOCK_NAMES = tuple(_BLOCK_NAMES_TEXT.split())
_HTML_TYPE_6 = re.compile(
    r"</?(?a:(" + "|".join(HTML_BLOCK_NAMES) + r"))(?=(\s|/?>|$))", re.IGNORECASE
)
_HTML_TYPE_1 = re.compile(r"<(?a:(script|pre|style|textarea))(?=(\s|>|$))", re.IGNORECASE)


# An open or closing tag as markdown-it's html_inline rule (and HTML block type 7) reads one
_ATTRIBUTE = r"""\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^"'=<>`\x00-\x20]+|'[^']*'|"[^"]*"))?"""
TAG = re.compile(rf"<[A-Za-z][A-Za-z0-9-]*(?:{_ATTRIBUTE})*\s*/?>|</[A-Za-z][A-Za-z0-9-]*\s*>")
_TAG_LINE = re.compile(rf"(?:{TAG.pattern})\s*")  # HTML block type 7: a whole line


def _opens_no_html_block(line: str) -> bool:
    """True when a line starting with ``<`` opens no HTML block of any type: ``<`` is not
    followed by ``!``, ``?``, ``/`` or an ASCII letter (``<%``, ``<=``), or it starts a tag
    that is neither a type 1 or 6 name nor (type 7) a whole tag alone on the line."""
    second = line[1:2]
    if second != "/" and not (second.isascii() and second.isalpha()):
        return second not in ("!", "?")
    return not (_HTML_TYPE_1.match(line) or _HTML_TYPE_6.match(line) or _TAG_LINE.fullmatch(line))


def html_end(lines: Sequence[str], start: int, line_max: int) -> int | None:
    """The line after a column-0 HTML block of type 2 (``<!--``, to the line holding ``-->``)
    or type 6 (a block tag, to the next blank line), as markdown-it's html_block rule ends
    it at the top level; ``None`` for the other types, or no HTML block."""
    line = lines[start]
    if line.startswith("<!--"):
        for index in range(start, line_max):
            if "-->" in lines[index]:
                return index + 1
        return line_max
    if line.startswith(("<?", "<!")) or _HTML_TYPE_1.match(line) or not _HTML_TYPE_6.match(line):
        return None  # types 1, 3-5 (their own closers), type 7 or none: not modelled
    for index in range(start + 1, line_max):
        if not lines[index].strip(" \t"):
            return index
    return line_max


def math_end(lines: Sequence[str], start: int, line_max: int) -> int | None:
    """The line after a ``$$`` math block opened at column 0 on ``lines[start]``, as
    wikilink.math_block_rule closes it at the top level; ``None`` when it opens none."""
    rest = lines[start][2:]
    if MATH in rest:
        return start + 1 if not rest.split(MATH, 1)[1].strip() else None
    for index in range(start + 1, line_max):
        if MATH in lines[index]:
            return index + 1
    return None


MAX_QUOTE_DEPTH = 3  # quotes nested deeper go to markdown-it (its nesting limit drops blocks)
_QUOTE_ENDS = (HEADING, FENCE, BULLET, ORDERED)  # non-quote lines that end a quote (terminators)


def _quote_lines(
    lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int
) -> tuple[list[str], list[int], int] | None:
    """(the quote's content lines, which of them are lazy, the line after the quote) of the
    blockquote (a callout too) whose first ``>`` line is ``start``, as markdown-it's
    blockquote rule delimits it: ``>`` lines give their text after the marker and one
    optional space; a blank line, any line after an empty ``>`` line, or a line starting a
    block that ends a quote (heading, fence, list item, thematic break) ends it; a paragraph
    line (``_classify``: TEXT) is a lazy continuation line, kept whole. ``None`` for what is
    not modelled: a tab after the marker, indented ``>`` lines, other lines."""
    content: list[str] = []
    lazy: list[int] = []
    index, empty = start, False
    while index < line_max:
        line = lines[index]
        if line.startswith(">"):
            text = line[2:] if line.startswith("> ") else line[1:]
            stripped = text.lstrip(" ")
            if stripped.startswith("\t"):
                return None  # tab stops after a quote marker are not modelled
            empty = not stripped.strip(" \t")
            content.append(text)
            index += 1
            continue
        kind = kinds[index]
        if kind == BLANK or empty or kind in _QUOTE_ENDS or _HR.fullmatch(line):
            break
        if kind != TEXT:
            return None
        lazy.append(len(content))
        content.append(line)
        index += 1
    return content, lazy, index


def quote_blocks(
    lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int, depth: int
) -> tuple[list[InlineBlock], int] | None:
    """The inline tokens of the blockquote starting at ``start`` and the line after it: its
    content lines are scanned as blocks of their own (:func:`scan_blocks`, nested quotes up to
    ``MAX_QUOTE_DEPTH``), and every lazy line must continue a paragraph that a ``>`` line
    opened (markdown-it drops a lazy line that would open a block). ``None`` when any of it
    is not modelled, or it holds ``%%`` or ``$$`` (comments and math left open would run
    over the quote's end)."""
    if depth >= MAX_QUOTE_DEPTH:
        return None
    simple = _quote_paragraph(lines, kinds, start, line_max)
    if simple is not None:  # the common callout: one paragraph, no need to scan it as blocks
        content_text, after = simple
        children = inline_children(content_text)
        if children is None:
            return None
        return [(0, Piece("inline", content_text, children=children, map=[start, after]))], after
    quote = _quote_lines(lines, kinds, start, line_max)
    if quote is None:
        return None
    content, lazy, end = quote
    if any(COMMENT in text or MATH in text for text in content):
        return None
    inner_kinds = block_kinds(content, 0, len(content))
    blocks, stop = scan_blocks(content, inner_kinds, 0, len(content), depth + 1)
    if stop != len(content) or not _lazy_lines_continue(blocks, inner_kinds, lazy):
        return None
    for _level, token in blocks:
        if token.map is not None:  # each block's own list, just made: moved to file lines
            token.map[0] += start
            token.map[1] += start
    return blocks, end


def _quote_paragraph(
    lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int
) -> tuple[str, int] | None:
    """(content, next line) of a blockquote that is one plain paragraph: every line is ``> ``
    then text that :func:`_classify` calls a paragraph's, and a blank line or the body's end
    follows. ``None`` for any other quote (:func:`quote_blocks` then scans it as blocks)."""
    end = start
    while end < line_max and lines[end].startswith("> "):
        end += 1
    if end < line_max and kinds[end] != BLANK:
        return None  # a lazy continuation line, or a block right after the quote
    body = [line[2:] for line in lines[start:end]]
    for text in body:
        if text[:1] in ("", " ", "\t") or _classify(text) != TEXT:
            return None
    content = md_trim("\n".join(body))
    if not _starts_paragraph(body[0]) and _REFERENCE.search(content):
        return None  # maybe a link reference definition inside the quote
    return None if comment_left_open(content) else (content, end)


def _lazy_lines_continue(
    blocks: Sequence[InlineBlock], kinds: Sequence[int | None], lazy: Sequence[int]
) -> bool:
    """True when each lazy content line is inside a paragraph that starts on an earlier,
    non-lazy line at the quote's own level (a paragraph line: not a list item's, a table
    row, a heading or a footnote)."""
    if not lazy:
        return True
    lazy_set = set(lazy)
    spans = [
        token.map
        for level, token in blocks
        if token.map and not level and token.meta is _NONE and kinds[token.map[0]] == TEXT
    ]
    for line in lazy:
        owner = next((span for span in spans if span[0] <= line < span[1]), None)
        if owner is None or owner[0] == line or owner[0] in lazy_set:
            return False
    return True


# --------------------------------------------------------------------------- lists, footnotes


def _item_column(text: str, column: int) -> int | None:
    """The content column of a one-space item whose marker is ``text``'s start, at ``column``."""
    kind = _classify(text)
    return column + _item_width(text, kind) if kind in _ITEMS else None


def _owner(columns: Sequence[int], column: int) -> int | None:
    """How many open items (content ``columns``, outermost first) hold a line indented to
    ``column``: the deepest whose content column it reaches, when it is less than four
    columns past it (more would be indented code); ``None`` when it is. 0: the top level."""
    depth = len(columns)
    while depth and columns[depth - 1] > column:
        depth -= 1
    base = columns[depth - 1] if depth else 0
    return depth if column - base <= 3 else None


def _item_paragraph(
    lines: Sequence[str], index: int, text: str, column: int, line_max: int
) -> tuple[InlineBlock, int] | None:
    """The inline token of a paragraph in a list item whose first line's text is ``text``
    and whose content column is ``column``; its other lines are indented exactly that far."""
    after = index + 1
    while after < line_max and _item_continues(lines[after], column):
        after += 1
    body = [text, *(line[column:] for line in lines[index + 1 : after])]
    content = md_trim("\n".join(body))
    if comment_left_open(content):
        return None
    children = inline_children(content)
    if children is None:
        return None
    return (0, Piece("inline", content, children=children, map=[index, after])), after


_LIST_OVER: tuple[list[int], str] = ([], "")
MAX_LIST_DEPTH = 6  # deeper lists go to markdown-it: past its nesting limit it drops blocks


def _list_line(line: str, columns: list[int], blank: bool) -> tuple[list[int], str] | None:
    """What a non-blank line does to the open items (content ``columns``): (the columns
    after it, the text its paragraph starts with) when it starts an item or a paragraph in
    one; ``_LIST_OVER`` when it ends the list (a blank line, then less indentation than any
    item's content, or a column-0 heading, fence or quote); ``None`` when not modelled (a
    lazy line, indented code, mixed tabs...)."""
    chars, column = _indent(line)
    if "\t" in line[:chars] and line[:chars].strip("\t"):
        return None  # tabs mixed with spaces: tab stops inside containers are not modelled
    text = line[chars:]
    depth = _owner(columns, column)
    if depth is None:
        return None
    content = _item_column(text, column)
    if content is not None:
        if not blank and depth == len(columns) and text[0].isdigit() and not _starts_at_one(text):
            return None  # an ordered list that does not start at 1 cannot interrupt a paragraph
        return [*columns[:depth], content], text[content - column :]
    if not blank:
        if not chars and (text[0] == ">" or _classify(text) in (HEADING, FENCE)):
            return _LIST_OVER  # it interrupts the paragraph, and no item holds column 0
        return None  # a lazy continuation line, or a block right after a paragraph
    if depth == 0:
        return _LIST_OVER
    if _classify(text) != TEXT or not _starts_paragraph(text):
        return None
    return columns[:depth], text


def list_blocks(
    lines: Sequence[str], start: int, line_max: int
) -> tuple[list[InlineBlock], int] | None:
    """The inline tokens of the list whose first item is the column-0 item at ``start``,
    nested lists and later paragraphs of its items included, and the line after the list:
    every item has one space after its marker and a plain paragraph (no other block inside),
    a nested item's marker is at most three columns past its parent's content column, and
    every paragraph line after an item's first is indented exactly to its content column.
    ``None`` when the list holds anything else."""
    found: list[InlineBlock] = []
    columns: list[int] = []
    index, blank = start, False
    while index < line_max:
        line = lines[index]
        if not line.strip(" \t"):
            index, blank = index + 1, True
            continue
        step = _list_line(line, columns, blank or not columns)
        if step is None:
            return None
        if step is _LIST_OVER:
            break
        columns, text = step
        if text[:1] in ("", " ", "\t") or len(columns) > MAX_LIST_DEPTH:
            return None
        paragraph = _item_paragraph(lines, index, text, columns[-1], line_max)
        if paragraph is None:
            return None
        found.append(paragraph[0])
        index, blank = paragraph[1], False
    return found, index


def footnote_text(
    lines: Sequence[str], kinds: Sequence[int | None], index: int, line_max: int
) -> str | None:
    """The paragraph of a column-0 footnote definition (wikilink.footnote_rule) that is one
    line of plain text followed by a blank line, another definition or the body's end."""
    line = lines[index]
    opening = FOOTNOTE.match(line)
    if opening is None:
        return None
    text = line[opening.end() :].lstrip(" \t")
    if not text or _classify(text) != TEXT or not _starts_paragraph(text):
        return None
    if index + 1 < line_max and kinds[index + 1] not in (BLANK, FOOTNOTE_DEF):
        return None  # a lazy continuation line, or a block inside the definition
    content = md_trim(text)
    return None if comment_left_open(content) else content


def block_kinds(lines: Sequence[str], start: int, line_max: int) -> list[int | None]:
    """Each line's :func:`_classify` kind (lines before ``start`` are blank)."""
    return [BLANK] * start + [_classify(line) for line in lines[start:line_max]]


def body_end(lines: Sequence[str]) -> int:
    """The number of lines markdown-it sees (a final empty line is no line)."""
    return len(lines) - 1 if lines and lines[-1] == "" else len(lines)


def scan_blocks(
    lines: Sequence[str], kinds: Sequence[int | None], index: int, line_max: int, depth: int = 0
) -> tuple[list[InlineBlock], int]:
    """The inline tokens of the modelled blocks from ``index`` on, and where they stop:
    ``line_max`` when every block was modelled, else the first line of the block that was not.

    ``index`` must be a line where markdown-it starts a fresh top-level block (a cut).
    ``depth``: how many blockquotes hold ``lines`` (see :func:`quote_blocks`).
    """
    found: list[InlineBlock] = []
    while index < line_max:
        kind = kinds[index]
        if kind == BLANK:
            index += 1
            continue
        line = lines[index]
        level = 0
        if "|" in line and index + 1 < line_max and _DELIMITER_ROW.fullmatch(lines[index + 1]):
            end = table_end(lines, kinds, index, line_max)  # the table rule comes first
            rows = None if end is None else _table_rows(lines, index, end)
            if end is None or rows is None:
                return found, index
            found += rows
            index = end
            continue
        if (kind == TEXT and _starts_paragraph(line)) or (kind is None and _indented_text(line)):
            paragraph = _paragraph(lines, kinds, index, line_max)
            if paragraph is None:
                return found, index
            content, after = paragraph
        elif kind == HEADING:
            level, content = _heading(line)
            after = index + 1
        elif kind in _ITEMS:
            items = list_blocks(lines, index, line_max)
            if items is None:
                return found, index
            found += items[0]
            index = items[1]
            continue
        elif kind == FOOTNOTE_DEF:
            definition = footnote_text(lines, kinds, index, line_max)
            if definition is None:
                return found, index
            content, after = definition, index + 1
        elif kind == FENCE:
            index = _fence_end(lines, index, line_max)
            continue
        elif line.startswith(">"):
            quote = quote_blocks(lines, kinds, index, line_max, depth)
            if quote is None:
                return found, index
            found += quote[0]
            index = quote[1]
            continue
        elif _HR.fullmatch(line):
            index += 1  # a thematic break: at a block's start it is no setext underline
            continue
        elif line.startswith("<"):
            end = html_end(lines, index, line_max)  # an html_block: the walk reads none of it
            if end is None:
                return found, index
            index = end
            continue
        elif line.startswith(MATH):
            end = math_end(lines, index, line_max)  # a math block: no links, no tokens read
            if end is None:
                return found, index
            index = end
            continue
        else:
            return found, index
        children = inline_children(content)
        if children is None:
            return found, index
        found.append((level, Piece("inline", content, children=children, map=[index, after])))
        index = after
    return found, line_max


def inline_blocks(lines: Sequence[str], start: int) -> list[InlineBlock] | None:
    """The inline tokens markdown-it makes of ``lines[start:]``, or ``None`` when not sure.

    ``lines`` is the whole file split on ``\\n``; lines before ``start`` (the frontmatter)
    are blank to markdown-it.
    """
    line_max = body_end(lines)
    found, stop = scan_blocks(lines, block_kinds(lines, start, line_max), start, line_max)
    return found if stop == line_max else None


# --------------------------------------------------------------------------- hybrid plan

_FENCE_LINE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")  # a fence line, before any container
_RAW_HTML = re.compile(r"<(?:script|pre|style|textarea|!|\?)", re.IGNORECASE)  # types 1-5
# Where a link reference definition could end its label: "]:", except the "]]:" of a
# wikilink before a colon (a label cannot hold an unescaped "]", so only "\]]:" may be one).
_REFERENCE = re.compile(r"(?<!\])\]:|\\\]\]:")
# A footnote definition's "[^label]:" is no reference's end: the footnote rule comes before the
# reference rule wherever a block starts, and a label holding its unescaped "[" is no label.
_FOOTNOTE_OPENING = re.compile(r"(?<!\\)\[\^[^\[\]\s]+\]:")
_HTML_START = re.compile(r"[ \t>]*(?:(?:[-*+]|[0-9]+[.)])[ \t]+[ \t>]*)*<")  # maybe types 6-7
_MATH_START = re.compile(r"[ \t>]*(?:(?:[-*+]|[0-9]+[.)])[ \t]+[ \t>]*)*\$\$")  # maybe a block


def _fence_opening(line: str) -> tuple[str, int, bool] | None:
    """(marker, length, at column 0) of a line markdown-it could open a fence with."""
    match = _FENCE_LINE.match(line)
    if match is None:
        return None
    run = match.group(2)
    if run[0] == "`" and "`" in match.group(3):
        return None  # an info string with a backtick: not a fence
    return run[0], len(run), not match.group(1)


def _closes(line: str, marker: str, length: int) -> bool:
    """True when ``line`` closes a top-level fence of ``length`` ``marker`` characters."""
    chars, cols = _indent(line)
    if cols >= 4 or not line.startswith(marker, chars):
        return False
    rest = line[chars:]
    run = len(rest) - len(rest.lstrip(marker))
    return run >= length and not rest[run:].strip(" \t")


def cuts(lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int) -> list[int]:
    """The lines before which markdown-it surely starts afresh at the top level, in order.

    A cut is ``start`` or a column-0 paragraph or ATX heading line after a blank line, with
    nothing before it that can run on over blank lines: no open top-level fence, and no cut
    at all after an HTML block of types 1-5, a fence line whose container we cannot tell
    (indented 1-3 spaces, or right under a possible HTML block), or a line outside a fence
    with an odd number of ``%%`` or with ``%%`` and a backtick, or starting (in whatever
    container) with ``$$``, where a math block may open. (When every ``%%`` line has
    an even count and no backtick, a code span holds whole lines of them, so no paragraph
    can leave a comment open.)
    """
    found = [start]
    fence: tuple[str, int] | None = None
    blank_before = True
    maybe_html = False
    for index in range(start, line_max):
        line = lines[index]
        if fence is not None:
            if _closes(line, *fence):
                fence = None
                blank_before = False
            continue
        kind = kinds[index]
        if kind == BLANK:
            blank_before = True
            maybe_html = False
            continue
        if blank_before and index > start and kind in (TEXT, HEADING) and _starts_paragraph(line):
            found.append(index)
        blank_before = False
        if COMMENT in line and ("`" in line or line.count(COMMENT) % 2):
            break  # a paragraph here may leave a comment open, which runs on to its "%%"
        if MATH in line and _MATH_START.match(line):
            break  # a math block may open here and run on over blank lines
        if "<" in line and _RAW_HTML.search(line):
            break
        if "`" in line or "~" in line:
            opening = _fence_opening(line)
            if opening is not None:
                marker, length, top = opening
                if not top or maybe_html:
                    break  # in a list item, or inside an HTML block, or not: unsure
                fence = marker, length
                continue
        if "<" in line and _HTML_START.match(line):
            maybe_html = True
    return found


def _fresh(
    lines: Sequence[str], kinds: Sequence[int | None], blocks: list[InlineBlock], stop: int
) -> bool:
    """True when markdown-it surely starts a top-level block at ``stop``, where the fast
    scanner stopped after ``blocks``: every block before it was closed (a paragraph, a
    heading, a fence), or a bullet list is surely over (a blank line, then column 0 and no
    list marker). The scanner starts at a cut, so with no block only blanks and fences lie
    between."""
    if not blocks:
        return True
    last = blocks[-1][1].map
    if last is None:
        return True
    if kinds[last[0]] not in _CONTAINERS and lines[last[0]][:1] not in (" ", "\t"):
        return True  # (an indented first line is a paragraph in a list item)
    first = lines[stop][:1]
    return (
        kinds[stop - 1] == BLANK
        and first not in ("", " ", "\t", "-", "*", "+")
        and not first.isdigit()
    )


Segment = tuple[int, int, list[InlineBlock] | None]  # lines [lo, hi): fast blocks, or None


def body_plan(lines: Sequence[str], start: int, window: int | None = None) -> list[Segment] | None:
    """The body split into fast regions and regions for markdown-it, in document order.

    ``None`` when a line could be a link reference definition: those are document-wide, so
    the whole body goes to markdown-it. A markdown-it region runs from the block the fast
    scanner could not model (or, when the scanner cannot prove markdown-it starts afresh
    there, from the last cut before it) to the first cut after it. ``window``: plan only
    the lines from ``start`` to this one, a cut of the whole body (see :func:`windows`).
    """
    line_max = body_end(lines) if window is None else window
    last = len(lines) if window is None else window
    kinds = block_kinds(lines, start, line_max)
    blocks, stop = scan_blocks(lines, kinds, start, line_max)
    if stop == line_max:
        return [(start, line_max, blocks)]  # no block the scanner accepts defines a reference
    text = "\n".join(lines[start:line_max])
    if _REFERENCE.search(_FOOTNOTE_OPENING.sub(" ", text) if "[^" in text else text):
        return None
    found = cuts(lines, kinds, start, line_max)
    plan: list[Segment] = []
    index = start
    while True:
        if stop == line_max:
            plan.append((index, line_max, blocks))
            break
        at = bisect_right(found, stop)
        cut = stop if _fresh(lines, kinds, blocks, stop) else found[at - 1]
        end = found[at] if at < len(found) else last
        if cut > index:
            kept = [block for block in blocks if block[1].map and block[1].map[0] < cut]
            plan.append((index, cut, kept))
        if plan and plan[-1][2] is None and plan[-1][1] == cut:
            cut = plan.pop()[0]
        plan.append((cut, end, None))
        index = end
        if index >= line_max:
            break
        blocks, stop = scan_blocks(lines, kinds, index, line_max)
    return plan


def windows(lines: Sequence[str], start: int) -> list[int] | None:
    """Window bounds for a very long body (``start``, cuts about ``window_lines`` apart,
    the body's end), or None for a body of ordinary length or one that may hold a link
    reference definition (document-wide, so never planned piecemeal).

    Each inner bound is a cut of the whole body, where markdown-it surely starts afresh, so
    planning and walking the windows one after the other finds what one plan of the whole
    body finds, while only one window's blocks are held at a time: a 50 MB note's inline
    pieces would otherwise take several times its size.
    """
    line_max = body_end(lines)
    if line_max - start < thresholds.TABLE.big_body_lines:
        return None
    if any("]:" in line and _REFERENCE.search(line) for line in lines[start:line_max]):
        return None
    bounds = [start]
    for cut in cuts(lines, block_kinds(lines, start, line_max), start, line_max):
        if cut - bounds[-1] >= thresholds.TABLE.window_lines:
            bounds.append(cut)
    return [*bounds, line_max] if bounds[-1] != line_max else bounds


# --------------------------------------------------------------------------- inline level


def _last_runs(src: str) -> dict[int, int]:
    """Each backtick run length's last position (markdown-it's backtick cache)."""
    runs: dict[int, int] = {}
    pos = src.find("`")
    while pos >= 0:
        end = pos + 1
        while end < len(src) and src[end] == "`":
            end += 1
        runs[end - pos] = pos
        pos = src.find("`", end)
    return runs


def _code_span(src: str, start: int, runs: dict[int, int]) -> tuple[int, str | None]:
    """markdown-it's backtick rule: (end, code content or ``None`` for a literal run)."""
    end = start + 1
    while end < len(src) and src[end] == "`":
        end += 1
    length = end - start
    if runs.get(length, -1) >= end:
        close_end = end
        close = src.find("`", close_end)
        while close != -1:
            close_end = close + 1
            while close_end < len(src) and src[close_end] == "`":
                close_end += 1
            if close_end - close == length:
                return close_end, _code_content(src[end:close])
            close = src.find("`", close_end)
    return end, None


def _code_content(raw: str) -> str:
    """A code span's text: newlines become spaces, one space trimmed from both ends."""
    content = raw.replace("\n", " ")
    if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
        return content[1:-1]
    return content


def _label_end(src: str, open_at: int) -> int | None:
    """Index of the ``]`` closing a plain label opened at ``open_at``; -1 when no ``]``
    follows at all; ``None`` when the label holds syntax we do not model."""
    stop = _LABEL_STOP.search(src, open_at + 1)
    if stop is None:
        return -1
    return stop.start() if src[stop.start()] == "]" else None


def _destination(src: str, open_paren: int) -> tuple[str | None, int] | None:
    """(href or ``None`` when markdown-it rejects it, index after ``)``) of a plain ``(dest)``."""
    match = _DEST.match(src, open_paren + 1)
    if match is None or src[match.end() : match.end() + 1] != ")":
        pointy = _POINTY_DEST.match(src, open_paren + 1)
        if pointy is None:
            return None
        href = _href(pointy.group(1))
        return None if href is None else (href, pointy.end())
    return _href(match.group()), match.end() + 1


def _href(destination: str) -> str | None:
    """The href markdown-it gives ``destination`` (None: it refuses it); markdown-it itself is
    imported only for a destination :func:`plain_href` cannot decide."""
    href = plain_href(destination)
    if href is None:
        from vaultkit.vault.wikilink import link_href

        href = link_href(destination)
    return href


Found = tuple[tuple[Piece, ...], int]  # pieces a rule pushed (none: literal text), next pos


def _skip_spaces(src: str, pos: int) -> int:
    while pos < len(src) and src[pos] in " \t":
        pos += 1
    return pos


def _escape(src: str, pos: int) -> Found | None:
    """markdown-it's escape rule at a backslash."""
    if pos + 1 >= len(src):
        return (), pos + 1
    char = src[pos + 1]
    if char == "\n":
        return (Piece("hardbreak"),), _skip_spaces(src, pos + 2)
    if 0xD800 <= ord(char) <= 0xDFFF:
        return None
    return (Piece("text_special", char if char in ESCAPABLE else "\\" + char),), pos + 2


def _wikilink(src: str, pos: int, embed: bool) -> Found | None:
    """vaultkit's wikilink rule; ``None`` for what it would report or hand to ``link``."""
    inner = pos + (3 if embed else 2)
    close = src.find("]]", inner)
    if close < 0:
        return None  # unclosed: markdown-it reports it
    line_end = src.find("\n", pos, close)
    nested = src.find("[[", inner, close)
    if line_end >= 0 or nested >= 0:
        return None
    parts = split_wikilink(src[inner:close])
    if parts is None:
        return None
    return (Piece("wikilink", "", wikilink_meta(parts, embed, pos)),), close + 2


def _link(src: str, pos: int, image: bool) -> Found | None:
    """``[label](dest)`` (``![label](dest)`` when ``image``) or a literal ``[``/``!``."""
    bracket = pos + 1 if image else pos
    close = _label_end(src, bracket)
    if close is None:
        return None
    if close < 0 or src[close + 1 : close + 2] != "(":
        return (), pos + 1  # no reference definitions exist: not a link
    target = _destination(src, close + 1)
    if target is None:
        return None
    href, end = target
    if href is None:
        return (), pos + 1
    label = src[bracket + 1 : close]
    if image:
        return (Piece("image", label, {"pos": pos}, {"src": href, "alt": ""}),), end
    opening = Piece("link_open", "", {"pos": pos}, {"href": href})
    if label:
        return (opening, _text(label), Piece("link_close")), end
    return (opening, Piece("link_close")), end


def _angle(src: str, pos: int) -> Found | None:
    """markdown-it's autolink, then html_inline rule at ``<``: an open or closing tag is an
    ``html_inline`` token (the walk reads none), a ``<`` that starts neither is literal
    (``<%``, ``<=``, ``< b``); ``None`` for what may be an autolink (a ``:`` or ``@`` and no
    space or control character before the first ``>``), a comment or another ``<!``/``<?``."""
    close = src.find(">", pos + 1)
    if close >= 0:
        inner = src[pos + 1 : close]
        maybe = ("@" in inner or ":" in inner) and "<" not in inner
        if maybe and not _CONTROL.search(inner.rstrip("\n")):
            return None  # maybe an autolink: its text is the normalised URL
    if pos + 2 >= len(src):
        return (), pos + 1
    second = src[pos + 1]
    if second in "!?":
        return None
    if second == "/" or (second.isascii() and second.isalpha()):
        tag = TAG.match(src, pos)
        if tag is not None:
            return (_make(("html_inline", tag.group(), _NONE, _NONE, None, None)),), tag.end()
    return (), pos + 1


def _comment(src: str, pos: int) -> Found:
    """vaultkit's ``%%comment%%`` rule (back-to-back comments are one token)."""
    end = pos
    while end < len(src) and src.startswith(COMMENT, end):
        close = src.find(COMMENT, end + 2)
        end = len(src) if close < 0 else close + 2
    return (Piece("vk_comment", "", {"pos": pos}),), end


def _newline(src: str, text_start: int, pos: int) -> tuple[int, Piece]:
    """markdown-it's newline rule: where the pending text ends, and the break token."""
    end = pos
    while end > text_start and src[end - 1] == " ":
        end -= 1
    if pos - end >= 2:
        return end, Piece("hardbreak")
    return (pos - 1 if pos - end == 1 else pos), Piece("softbreak")


def inline_children(src: str) -> list[Piece] | None:
    """The children markdown-it gives an inline token with this content, or ``None``.

    Pending text is always the slice ``src[text_start:pos]``: every character a rule leaves
    as literal text is contiguous with it.
    """
    children: list[Piece] = []
    text_start = pos = 0
    runs: dict[int, int] | None = None
    math: MathScan | None = None
    search = _SPECIAL.search
    while (special := search(src, pos)) is not None:
        at = special.start()
        char = src[at]
        if char in "[!" and (match := _WIKILINK.match(src, at)):
            parts = split_wikilink(match.group(2))
            if parts is None:
                return None
            if at > text_start:
                children.append(_text(src[text_start:at]))
            embed = bool(match.group(1))
            meta = {
                "target": parts.target,
                "subpath": parts.subpath,
                "display": parts.display,
                "embed": embed,
                "pos": at,
            }
            children.append(_make(("wikilink", "", meta, _NONE, None, None)))
            pos = text_start = match.end()
            continue
        if char == "`" and (match := _CODE.match(src, at)):
            if at > text_start:
                children.append(_text(src[text_start:at]))
            code = _code_content(match.group(1))
            children.append(_make(("code_inline", code, _NONE, _NONE, None, None)))
            pos = text_start = match.end()
            continue
        found: Found | None
        if char == "\n":
            text_end, piece = _newline(src, text_start, at)
            if text_end > text_start:
                children.append(_text(src[text_start:text_end]))
            children.append(piece)
            pos = text_start = _skip_spaces(src, at + 1)
            continue
        if char == "[":
            found = _wikilink(src, at, False) if src.startswith("[[", at) else _link(src, at, False)
        elif char == "`":
            if runs is None:
                runs = _last_runs(src)
            end, span = _code_span(src, at, runs)
            found = ((Piece("code_inline", span),), end) if span is not None else ((), end)
        elif char == "%":
            found = _comment(src, at) if src.startswith(COMMENT, at) else ((), at + 1)
        elif char == "!":
            if src.startswith("![[", at):
                found = _wikilink(src, at, True)
            elif src.startswith("![", at):
                found = _link(src, at, True)
            else:
                found = (), at + 1
        elif char == "$":
            if math is None:
                math = MathScan.build(src)
            end = math.end(at)
            found = ((Piece("math_inline", src[at:end]),), end) if end >= 0 else ((), at + 1)
        elif char == "]":
            found = (), at + 1
        elif char == "\\":
            found = _escape(src, at)
        else:
            found = _angle(src, at)
        if found is None:
            return None
        pieces, pos = found
        if pieces:
            if at > text_start:
                children.append(_text(src[text_start:at]))
            children.extend(pieces)
            text_start = pos
    if text_start < len(src):
        children.append(_text(src[text_start:]))
    return children


# --------------------------------------------------------------------------- frontmatter

_KEY = r"[A-Za-z_][A-Za-z0-9_-]*"
_PLAIN = r"[^\W\d_](?:[\w .\-/()']*[\w.\-/()'])?"  # a word-led plain scalar, no trailing space
_DATE = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
_SCALAR = f"(?:{_PLAIN}|{_DATE})"
_ENTRY = re.compile(rf"({_KEY}):(?:[ ]+(.*))?")
_FLOW = re.compile(r"\[([^\[\]]*)\]")
_ITEM = re.compile(rf"( *)- ({_SCALAR})")
_SCALAR_RE = re.compile(_SCALAR)
_DATE_RE = re.compile(_DATE)
_SPECIAL_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})


def _scalar(text: str) -> str | None:
    """The string PyYAML (with vaultkit's date constructor) makes of a plain scalar, or None."""
    if not _SCALAR_RE.fullmatch(text):
        return None
    if _DATE_RE.fullmatch(text):
        year, month, day = (int(part) for part in text.split("-"))
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            return text
    return None if text.lower() in _SPECIAL_WORDS else text


def _flow_list(text: str) -> list[object] | None:
    match = _FLOW.fullmatch(text)
    if match is None:
        return None
    inner = match.group(1)
    if not inner.strip(" "):
        return []
    items: list[object] = []
    for item in inner.split(","):
        value = _scalar(item.strip(" "))
        if value is None:
            return None
        items.append(value)
    return items


def simple_yaml(body: Sequence[str]) -> dict[str, object] | None:
    """The mapping of frontmatter lines made only of plain strings, dates and lists of them,
    exactly as vaultkit's YAML loader returns it; ``None`` for anything else."""
    data: dict[str, object] = {}
    index = 0
    while index < len(body):
        match = _ENTRY.fullmatch(body[index])
        if match is None:
            return None
        key, text = match.group(1), match.group(2)
        if key in data or _scalar(key) != key:
            return None
        index += 1
        value: object
        if text is None:
            items: list[object] = []
            indent = None
            while index < len(body) and (item := _ITEM.fullmatch(body[index])):
                if indent is not None and item.group(1) != indent:
                    return None
                indent = item.group(1)
                scalar = _scalar(item.group(2))
                if scalar is None:
                    return None
                items.append(scalar)
                index += 1
            if not items:
                return None
            value = items
        elif text.startswith("["):
            value = _flow_list(text)
        else:
            value = _scalar(text)
        if value is None:
            return None
        data[key] = value
    return data or None
