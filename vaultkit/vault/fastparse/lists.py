"""markdown-it's list rule (bullet and ordered items, nested lists, later paragraphs) and
vaultkit's ``wikilink.footnote_rule`` for one-line footnote definitions."""

from __future__ import annotations

from collections.abc import Sequence

from vaultkit.vault.fastparse.blocks import (
    classify,
    indent_of,
    item_continues,
    item_width,
    starts_at_one,
    starts_paragraph,
)
from vaultkit.vault.fastparse.inline import (
    inline_children,
)
from vaultkit.vault.fastparse.tokens import (
    BLANK,
    FENCE,
    FOOTNOTE_DEF,
    HEADING,
    ITEMS,
    TEXT,
    InlineBlock,
    Piece,
)
from vaultkit.vault.wikisyntax import (
    FOOTNOTE,
    comment_left_open,
    md_trim,
)


def _item_column(text: str, column: int) -> int | None:
    """The content column of a one-space item whose marker is ``text``'s start, at ``column``."""
    kind = classify(text)
    return column + item_width(text, kind) if kind in ITEMS else None


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
    while after < line_max and item_continues(lines[after], column):
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
    chars, column = indent_of(line)
    if "\t" in line[:chars] and line[:chars].strip("\t"):
        return None  # tabs mixed with spaces: tab stops inside containers are not modelled
    text = line[chars:]
    depth = _owner(columns, column)
    if depth is None:
        return None
    content = _item_column(text, column)
    if content is not None:
        if not blank and depth == len(columns) and text[0].isdigit() and not starts_at_one(text):
            return None  # an ordered list that does not start at 1 cannot interrupt a paragraph
        return [*columns[:depth], content], text[content - column :]
    if not blank:
        if not chars and (text[0] == ">" or classify(text) in (HEADING, FENCE)):
            return _LIST_OVER  # it interrupts the paragraph, and no item holds column 0
        return None  # a lazy continuation line, or a block right after a paragraph
    if depth == 0:
        return _LIST_OVER
    if classify(text) != TEXT or not starts_paragraph(text):
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
    if not text or classify(text) != TEXT or not starts_paragraph(text):
        return None
    if index + 1 < line_max and kinds[index + 1] not in (BLANK, FOOTNOTE_DEF):
        return None  # a lazy continuation line, or a block inside the definition
    content = md_trim(text)
    return None if comment_left_open(content) else content
