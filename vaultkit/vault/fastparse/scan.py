"""markdown-it's block tokenizer loop: the block rules in order over the body, each line
handed to the rule whose block it starts."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vaultkit.vault.fastparse.blocks import (
    atx_heading,
    block_kinds,
    body_end,
    fence_end,
    indented_text,
    paragraph_at,
    starts_paragraph,
)
from vaultkit.vault.fastparse.html import (
    html_end,
    math_end,
)
from vaultkit.vault.fastparse.inline import (
    inline_children,
)
from vaultkit.vault.fastparse.lists import (
    footnote_text,
    list_blocks,
)
from vaultkit.vault.fastparse.quotes import (
    quote_blocks,
)
from vaultkit.vault.fastparse.tables import (
    table_end,
    table_rows,
)
from vaultkit.vault.fastparse.tokens import (
    BLANK,
    BULK_GAP,
    BULK_META,
    DELIMITER_ROW,
    EMPTY_WIKILINK,
    FENCE,
    FOOTNOTE_DEF,
    HEADING,
    HR,
    ITEMS,
    NONE,
    TEXT,
    InlineBlock,
    Piece,
    make_piece,
)
from vaultkit.vault.wikisyntax import (
    MATH,
    SIMPLE_WIKILINK,
)

Step = tuple[list[InlineBlock], int] | None  # a block's inline tokens and the line after it


def _inline_block(content: str, level: int, index: int, after: int) -> Step:
    """The one inline token of a paragraph, heading or footnote (None: not modelled)."""
    children = inline_children(content)
    if children is None:
        return None
    return [(level, Piece("inline", content, children=children, map=[index, after]))], after


# Content made of runs of characters BULK_GAP does not match and simple wikilinks, whole: what
# is left of it with its simple wikilinks taken out holds no BULK_GAP character. Each character
# opens one kind of part, so the possessive quantifiers lose no reading (and never backtrack).
_BULK_SHAPE = re.compile(rf"(?:[^{BULK_GAP.pattern[1:-1]}]++|{SIMPLE_WIKILINK.pattern})*+")


def is_bulk(content: str) -> bool:
    """True when the only inline syntax in ``content`` is simple wikilinks and embeds that
    name something (see BULK_META): the inline rules would make text, breaks and those links."""
    return (
        "\\" not in content
        and _BULK_SHAPE.fullmatch(content) is not None
        and EMPTY_WIKILINK.search(content) is None
    )


def _paragraph(content: str, index: int, after: int, depth: int) -> Step:
    """A paragraph's inline token: childless (BULK_META) for a top-level one that
    :func:`is_bulk` accepts, else with markdown-it's children."""
    if depth == 0 and "[[" in content and is_bulk(content):
        token = make_piece(("inline", content, BULK_META, NONE, None, [index, after]))
        return [(0, token)], after
    return _inline_block(content, 0, index, after)


def _skipped(end: int | None) -> Step:
    """A block the walk reads nothing of (fence, HTML, math) that ends before ``end``."""
    return None if end is None else ([], end)


def _table(lines: Sequence[str], kinds: Sequence[int | None], index: int, line_max: int) -> Step:
    end = table_end(lines, kinds, index, line_max)  # the table rule comes first
    rows = None if end is None else table_rows(lines, index, end)
    return None if end is None or rows is None else (rows, end)


def _block_at(
    lines: Sequence[str], kinds: Sequence[int | None], index: int, line_max: int, depth: int
) -> Step:
    """markdown-it's block rules, in its order, on the non-blank line ``index``."""
    line, kind = lines[index], kinds[index]
    if "|" in line and index + 1 < line_max and DELIMITER_ROW.fullmatch(lines[index + 1]):
        return _table(lines, kinds, index, line_max)
    if (kind == TEXT and starts_paragraph(line)) or (kind is None and indented_text(line)):
        paragraph = paragraph_at(lines, kinds, index, line_max)
        return None if paragraph is None else _paragraph(paragraph[0], index, paragraph[1], depth)
    if kind == HEADING:
        level, content = atx_heading(line)
        return _inline_block(content, level, index, index + 1)
    if kind in ITEMS:
        return list_blocks(lines, index, line_max)
    if kind == FOOTNOTE_DEF:
        definition = footnote_text(lines, kinds, index, line_max)
        return None if definition is None else _inline_block(definition, 0, index, index + 1)
    if kind == FENCE:
        return [], fence_end(lines, index, line_max)
    if line.startswith(">"):
        return quote_blocks(lines, kinds, index, line_max, depth, scan_blocks)
    if HR.fullmatch(line):
        return [], index + 1  # a thematic break: at a block's start it is no setext underline
    if line.startswith("<"):
        return _skipped(html_end(lines, index, line_max))  # an html_block: nothing read
    if line.startswith(MATH):
        return _skipped(math_end(lines, index, line_max))  # a math block: no links, no tokens
    return None


def scan_blocks(
    lines: Sequence[str], kinds: Sequence[int | None], index: int, line_max: int, depth: int = 0
) -> tuple[list[InlineBlock], int]:
    """The inline tokens of the modelled blocks from ``index`` on, and where they stop:
    ``line_max`` when every block was modelled, else the first line of the block that was not.

    ``index`` must be a line where markdown-it starts a fresh top-level block (a cut).
    ``depth``: how many blockquotes hold ``lines`` (see :func:`.quotes.quote_blocks`).
    """
    found: list[InlineBlock] = []
    while index < line_max:
        if kinds[index] == BLANK:
            index += 1
            continue
        step = _block_at(lines, kinds, index, line_max, depth)
        if step is None:
            return found, index
        found += step[0]
        index = step[1]
    return found, line_max


def inline_blocks(lines: Sequence[str], start: int) -> list[InlineBlock] | None:
    """The inline tokens markdown-it makes of ``lines[start:]``, or ``None`` when not sure.

    ``lines`` is the whole file split on ``\\n``; lines before ``start`` (the frontmatter)
    are blank to markdown-it.
    """
    line_max = body_end(lines)
    found, stop = scan_blocks(lines, block_kinds(lines, start, line_max), start, line_max)
    return [expanded(block) for block in found] if stop == line_max else None


def expanded(block: InlineBlock) -> InlineBlock:
    """``block`` with its children: a bulk paragraph's (BULK_META) made by the inline rules."""
    level, token = block
    if token.meta is not BULK_META:
        return block
    children = inline_children(token.content)
    if children is None:
        raise AssertionError(f"a bulk paragraph the inline rules decline: {token.content!r}")
    return level, Piece("inline", token.content, children=children, map=token.map)
