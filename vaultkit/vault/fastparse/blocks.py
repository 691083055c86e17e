"""Each top-level line's block kind, and the one-line blocks: markdown-it's paragraph, ATX
heading, fence and thematic break rules (and vaultkit's paragraph_rule, which runs a paragraph
on over a ``%%`` comment it leaves open)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from vaultkit.vault.fastparse.html import (
    opens_no_html_block,
)
from vaultkit.vault.fastparse.tokens import (
    BLANK,
    BULLET,
    DELIMITER_CHARS,
    FENCE,
    FOOTNOTE_DEF,
    HEADING,
    HR,
    ORDERED,
    ORDERED_ITEM,
    ORDERED_MARKER,
    TEXT,
    UNDERLINE,
)
from vaultkit.vault.wikisyntax import (
    COMMENT,
    FOOTNOTE,
    MATH,
    comment_left_open,
    md_trim,
)


def classify(line: str) -> int | None:
    """The block a top-level line starts (or continues), ``None`` when not modelled."""
    if not line:
        return BLANK
    first = line[0]
    if first.isalpha():
        return TEXT
    if not line.strip(" \t"):
        return BLANK
    rule = _BY_FIRST.get(first)
    if rule is not None:
        return rule(line)
    if first.isdigit() and ORDERED_MARKER.match(line):
        item = ORDERED_ITEM.match(line)
        return ORDERED if item and _item_content_ok(line[item.end() :]) else None
    return TEXT


def _unmodelled(line: str) -> int | None:
    return None  # indentation, blockquote, table row


def _html_kind(line: str) -> int | None:
    return TEXT if opens_no_html_block(line) else None


def _math_kind(line: str) -> int | None:
    return None if line.startswith(MATH) else TEXT  # maybe a math block


def _footnote_kind(line: str) -> int | None:
    return FOOTNOTE_DEF if FOOTNOTE.match(line) else TEXT  # a definition interrupts a paragraph


def _heading_kind(line: str) -> int | None:
    level = len(line) - len(line.lstrip("#"))
    if level <= 6 and (level == len(line) or line[level] in " \t"):
        return HEADING
    return TEXT


def _fence_kind(line: str) -> int | None:
    first = line[0]
    run = len(line) - len(line.lstrip(first))
    if run >= 3:
        return FENCE if first == "~" or "`" not in line[run:] else None
    return TEXT


def _bullet_kind(line: str) -> int | None:
    second = line[1:2]
    if second == " ":
        return BULLET if _item_content_ok(line[2:]) else None
    if second == "" or second == "\t" or not line[1:].strip(" \t"):
        return None  # an empty item
    return TEXT if line[0] == "+" else _rule_kind(line)


def _rule_kind(line: str) -> int | None:
    """A thematic break, a setext underline or a table's delimiter row: not modelled here."""
    if HR.fullmatch(line) or UNDERLINE.fullmatch(line):
        return None
    if line[0] == "-" and set(line) <= DELIMITER_CHARS:
        return None
    return TEXT


# The line kinds decided by a line's first character (letters, blanks and digits aside).
_BY_FIRST: dict[str, Callable[[str], int | None]] = {
    **dict.fromkeys(" \t>|:", _unmodelled),
    "<": _html_kind,
    "$": _math_kind,
    "[": _footnote_kind,
    "#": _heading_kind,
    **dict.fromkeys("`~", _fence_kind),
    **dict.fromkeys("-*+", _bullet_kind),
    **dict.fromkeys("_=", _rule_kind),
}


def _item_content_ok(content: str) -> bool:
    """A bullet item's text that can only be a plain paragraph (no nested block)."""
    if not content or content[0] in " \t":
        return False
    return classify(content) == TEXT and starts_paragraph(content)


def item_continues(line: str, width: int) -> bool:
    """A line that continues a list item's paragraph at the item's content column."""
    return (
        line.startswith(" " * width)
        and line[width : width + 1] not in ("", " ", "\t")
        and classify(line[width:]) == TEXT
    )


def starts_at_one(line: str) -> bool:
    """An ordered item numbered 1 (``1.``, ``01)``...): the only one that interrupts a paragraph."""
    item = ORDERED_ITEM.match(line)
    return item is not None and int(item[1]) == 1


def item_width(line: str, kind: int) -> int:
    """The content column of a one-space bullet or ordered item's first line."""
    return 2 if kind == BULLET else line.index(" ") + 1


def indented_text(line: str) -> bool:
    """A paragraph's first line indented one to three spaces (no tab): at a block's start
    markdown-it reads it as the paragraph the line's text would start at column 0."""
    if line[:1] != " ":
        return False
    text = line.lstrip(" ")
    return len(line) - len(text) <= 3 and classify(text) == TEXT and starts_paragraph(text)


def starts_paragraph(line: str) -> bool:
    """False when a paragraph starting here could be a link reference definition: its first
    ``]`` (a label holds no unescaped ``[`` and ends at its first unescaped ``]``) is followed
    by ``:``, or a backslash or the line's end leaves the label unsure."""
    if not line.startswith("[") or line.startswith("[["):
        return True
    close = line.find("]")
    if close < 0 or "\\" in line[:close]:
        return False
    return "[" in line[1:close] or line[close + 1 : close + 2] != ":"


def atx_heading(line: str) -> tuple[int, str]:
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


def indent_of(line: str) -> tuple[int, int]:
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


def fence_end(lines: Sequence[str], start: int, line_max: int) -> int:
    """The line after a fence opened at ``start`` (``line_max`` when it is never closed)."""
    opening = lines[start]
    marker = opening[0]
    length = len(opening) - len(opening.lstrip(marker))
    for index in range(start + 1, line_max):
        line = lines[index]
        chars, cols = indent_of(line)
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


def _text_run_end(kinds: Sequence[int | None], low: int, line_max: int) -> int:
    """The next blank line's index when it is near (a paragraph's usual end) and only TEXT
    lines lie between, else ``low``: two C searches instead of a loop over the lines."""
    near = min(line_max, low + 64)
    try:
        blank = kinds.index(BLANK, low, near)
    except ValueError:
        return low
    return blank if kinds[low:blank].count(TEXT) == blank - low else low


def paragraph_at(
    lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int
) -> tuple[str, int] | None:
    """(content, next line) of the paragraph starting at ``start``."""
    end = _text_run_end(kinds, start + 1, line_max)
    while end < line_max:
        kind = kinds[end]
        if kind == TEXT:
            end += 1
        elif kind is None and lines[end][:1] == ">":
            break  # a blockquote interrupts a paragraph
        elif kind is None or (kind == ORDERED and not starts_at_one(lines[end])):
            return None  # only an ordered list starting at 1 interrupts a paragraph
        else:
            break
    content = md_trim(lines[start] if end == start + 1 else "\n".join(lines[start:end]))
    if comment_left_open(content):
        end = _comment_end(lines, end, line_max)
        content = "\n".join(lines[start:end]).strip()
    return content, end


def block_kinds(lines: Sequence[str], start: int, line_max: int) -> list[int | None]:
    """Each line's :func:`classify` kind (lines before ``start`` are blank)."""
    # (a line starting with a letter is TEXT: decided here, without a call)
    body = lines[start:line_max]
    return [BLANK] * start + [TEXT if line[:1].isalpha() else classify(line) for line in body]


def body_end(lines: Sequence[str]) -> int:
    """The number of lines markdown-it sees (a final empty line is no line)."""
    return len(lines) - 1 if lines and lines[-1] == "" else len(lines)
