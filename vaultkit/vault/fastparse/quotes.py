"""markdown-it's blockquote rule (callouts too): a quote's lines, its lazy continuation lines
and the blocks inside it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from vaultkit.vault.fastparse.blocks import (
    block_kinds,
    classify,
    starts_paragraph,
)
from vaultkit.vault.fastparse.inline import (
    inline_children,
)
from vaultkit.vault.fastparse.tokens import (
    BLANK,
    BULLET,
    FENCE,
    HEADING,
    HR,
    NONE,
    ORDERED,
    REFERENCE,
    TEXT,
    InlineBlock,
    Piece,
)
from vaultkit.vault.wikisyntax import (
    COMMENT,
    MATH,
    comment_left_open,
    md_trim,
)

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
    line (``classify``: TEXT) is a lazy continuation line, kept whole. ``None`` for what is
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
        if kind == BLANK or empty or kind in _QUOTE_ENDS or HR.fullmatch(line):
            break
        if kind != TEXT:
            return None
        lazy.append(len(content))
        content.append(line)
        index += 1
    return content, lazy, index


BlockScan = Callable[
    [Sequence[str], Sequence[int | None], int, int, int], tuple[list[InlineBlock], int]
]


def quote_blocks(
    lines: Sequence[str],
    kinds: Sequence[int | None],
    start: int,
    line_max: int,
    depth: int,
    scan: BlockScan,
) -> tuple[list[InlineBlock], int] | None:
    """The inline tokens of the blockquote starting at ``start`` and the line after it: its
    content lines are scanned as blocks of their own (``scan``: :func:`.scan.scan_blocks`, which
    calls this for a quote, so it is handed in; nested quotes up to
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
    blocks, stop = scan(content, inner_kinds, 0, len(content), depth + 1)
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
    then text that :func:`classify` calls a paragraph's, and a blank line or the body's end
    follows. ``None`` for any other quote (:func:`quote_blocks` then scans it as blocks)."""
    end = start
    while end < line_max and lines[end].startswith("> "):
        end += 1
    if end < line_max and kinds[end] != BLANK:
        return None  # a lazy continuation line, or a block right after the quote
    body = [line[2:] for line in lines[start:end]]
    for text in body:
        if text[:1] in ("", " ", "\t") or classify(text) != TEXT:
            return None
    content = md_trim("\n".join(body))
    if not starts_paragraph(body[0]) and REFERENCE.search(content):
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
        if token.map and not level and token.meta is NONE and kinds[token.map[0]] == TEXT
    ]
    for line in lazy:
        owner = next((span for span in spans if span[0] <= line < span[1]), None)
        if owner is None or owner[0] == line or owner[0] in lazy_set:
            return False
    return True
