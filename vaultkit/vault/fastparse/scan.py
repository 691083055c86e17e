"""markdown-it's block tokenizer loop: the block rules in order over the body, each line
handed to the rule whose block it starts."""

from __future__ import annotations

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
    DELIMITER_ROW,
    FENCE,
    FOOTNOTE_DEF,
    HEADING,
    HR,
    ITEMS,
    TEXT,
    InlineBlock,
    Piece,
)
from vaultkit.vault.wikisyntax import (
    MATH,
)


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
        if "|" in line and index + 1 < line_max and DELIMITER_ROW.fullmatch(lines[index + 1]):
            end = table_end(lines, kinds, index, line_max)  # the table rule comes first
            rows = None if end is None else table_rows(lines, index, end)
            if end is None or rows is None:
                return found, index
            found += rows
            index = end
            continue
        if (kind == TEXT and starts_paragraph(line)) or (kind is None and indented_text(line)):
            paragraph = paragraph_at(lines, kinds, index, line_max)
            if paragraph is None:
                return found, index
            content, after = paragraph
        elif kind == HEADING:
            level, content = atx_heading(line)
            after = index + 1
        elif kind in ITEMS:
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
            index = fence_end(lines, index, line_max)
            continue
        elif line.startswith(">"):
            quote = quote_blocks(lines, kinds, index, line_max, depth, scan_blocks)
            if quote is None:
                return found, index
            found += quote[0]
            index = quote[1]
            continue
        elif HR.fullmatch(line):
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
