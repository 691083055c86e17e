"""The hybrid plan: fast regions and markdown-it regions of one body, cut where markdown-it
surely starts afresh, and the windows of a very long body."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import compress, repeat
from operator import eq
from typing import NamedTuple

from vaultkit.vault import thresholds
from vaultkit.vault.fastparse.blocks import (
    block_kinds,
    body_end,
    indent_of,
    starts_paragraph,
)
from vaultkit.vault.fastparse.scan import (
    scan_blocks,
)
from vaultkit.vault.fastparse.tokens import (
    BLANK,
    CONTAINERS,
    HEADING,
    REFERENCE,
    TEXT,
    InlineBlock,
)
from vaultkit.vault.wikisyntax import (
    COMMENT,
    MATH,
)

_FENCE_LINE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")  # a fence line, before any container
_RAW_HTML = re.compile(r"<(?:script|pre|style|textarea|!|\?)", re.IGNORECASE)  # types 1-5


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
    chars, cols = indent_of(line)
    if cols >= 4 or not line.startswith(marker, chars):
        return False
    rest = line[chars:]
    run = len(rest) - len(rest.lstrip(marker))
    return run >= length and not rest[run:].strip(" \t")


def _runs_on(line: str) -> bool:
    """True when a block that may start on ``line`` can run on over blank lines, so no later
    line is a sure cut: a paragraph leaving a ``%%`` comment open (an odd count, or one with a
    backtick), a ``$$`` math block, or an HTML block of types 1-5."""
    if COMMENT in line and ("`" in line or line.count(COMMENT) % 2):
        return True
    if MATH in line and _MATH_START.match(line):
        return True
    return "<" in line and _RAW_HTML.search(line) is not None


# What makes a line more than a paragraph start or a blank to :func:`cuts`: a comment or math
# marker, an HTML start, a fence's character. Lines with none of them are skipped in bulk.
_MARKS = (COMMENT, MATH, "<", "`", "~")
_CHUNK = 1024  # lines joined at a time by _marked


def _marked(lines: Sequence[str], low: int, high: int, marks: Sequence[str]) -> Iterator[int]:
    """The lines of ``lines[low:high]`` holding one of ``marks``, in order (a chunk of lines
    without one is passed over by a few searches of the chunk joined)."""
    for base in range(low, high, _CHUNK):
        chunk = lines[base : min(base + _CHUNK, high)]
        text = "\n".join(chunk)
        if any(mark in text for mark in marks):
            for offset, line in enumerate(chunk):
                if any(mark in line for mark in marks):
                    yield base + offset


def _paragraph_starts(
    lines: Sequence[str], kinds: Sequence[int | None], low: int, high: int
) -> list[int]:
    """The lines of ``(low, high)`` after a blank line where a paragraph or heading starts."""
    after_blank = compress(range(low + 1, high), map(eq, kinds[low : high - 1], repeat(BLANK)))
    return [
        index
        for index in after_blank
        if kinds[index] in (TEXT, HEADING) and starts_paragraph(lines[index])
    ]


def cuts(lines: Sequence[str], kinds: Sequence[int | None], start: int, line_max: int) -> list[int]:
    """The lines before which markdown-it surely starts afresh at the top level, in order.

    A cut is ``start`` or a column-0 paragraph or ATX heading line after a blank line, with
    nothing before it that can run on over blank lines: no open top-level fence, and no cut
    at all after an HTML block of types 1-5, a fence line whose container we cannot tell
    (indented 1-3 spaces, or right under a possible HTML block), or a line outside a fence
    with an odd number of ``%%`` or with ``%%`` and a backtick, or starting (in whatever
    container) with ``$$``, where a math block may open. (When every ``%%`` line has
    an even count and no backtick, a code span holds whole lines of them, so no paragraph
    can leave a comment open.) Outside a fence and a possible HTML block, the lines up to
    the next one holding a _MARKS character are only looked at for paragraph starts.
    """
    found = [start]
    fence: tuple[str, int] | None = None
    blank_before = True
    maybe_html = False
    marked = _marked(lines, start, line_max, _MARKS)
    mark = next(marked, line_max)
    index = start
    while index < line_max:
        if mark < index:
            mark = next(marked, line_max)
            continue
        if fence is None and not maybe_html and mark > index:
            first = blank_before and index > start and kinds[index] in (TEXT, HEADING)
            if first and starts_paragraph(lines[index]):
                found.append(index)
            found += _paragraph_starts(lines, kinds, index, mark)
            blank_before, index = kinds[mark - 1] == BLANK, mark
            continue
        line = lines[index]
        index += 1
        if fence is not None:
            if _closes(line, *fence):
                fence = None
                blank_before = False
            continue
        kind = kinds[index - 1]
        if kind == BLANK:
            blank_before = True
            maybe_html = False
            continue
        if (
            blank_before
            and index - 1 > start
            and kind in (TEXT, HEADING)
            and starts_paragraph(line)
        ):
            found.append(index - 1)
        blank_before = False
        if (COMMENT in line or MATH in line or "<" in line) and _runs_on(line):  # (cheap first)
            break
        opening = _fence_opening(line) if "`" in line or "~" in line else None
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
    if kinds[last[0]] not in CONTAINERS and lines[last[0]][:1] not in (" ", "\t"):
        return True  # (an indented first line is a paragraph in a list item)
    first = lines[stop][:1]
    return (
        kinds[stop - 1] == BLANK
        and first not in ("", " ", "\t", "-", "*", "+")
        and not first.isdigit()
    )


Segment = tuple[int, int, list[InlineBlock] | None]  # lines [lo, hi): fast blocks, or None


class Windows(NamedTuple):
    """A very long body's window bounds and the :func:`.blocks.block_kinds` of all its lines
    (each window planned with them, its lines blanked in both once walked: see
    :func:`let_go`)."""

    bounds: list[int]
    kinds: list[int | None]


def let_go(lines: list[str], kinds: list[int | None], low: int, high: int) -> None:
    """Blank ``lines[low:high]`` and their kinds: a walked window, never read again (each
    later window's plan then sees what a plan made afresh from its start would)."""
    lines[low:high] = repeat("", high - low)
    kinds[low:high] = repeat(BLANK, high - low)


def body_plan(
    lines: Sequence[str],
    start: int,
    window: int | None = None,
    kinds: Sequence[int | None] | None = None,
) -> list[Segment] | None:
    """The body split into fast regions and regions for markdown-it, in document order.

    ``None`` when a line could be a link reference definition: those are document-wide, so
    the whole body goes to markdown-it. A markdown-it region runs from the block the fast
    scanner could not model (or, when the scanner cannot prove markdown-it starts afresh
    there, from the last cut before it) to the first cut after it. ``window``: plan only
    the lines from ``start`` to this one, a cut of the whole body (see :func:`windows`).
    ``kinds``: the lines' kinds when known, blank before ``start`` (:attr:`Windows.kinds`);
    none is read at ``line_max`` or after.
    """
    line_max = body_end(lines) if window is None else window
    last = len(lines) if window is None else window
    if kinds is None:
        kinds = block_kinds(lines, start, line_max)
    blocks, stop = scan_blocks(lines, kinds, start, line_max)
    if stop == line_max:
        return [(start, line_max, blocks)]  # no block the scanner accepts defines a reference
    text = "\n".join(lines[start:line_max])
    if REFERENCE.search(_FOOTNOTE_OPENING.sub(" ", text) if "[^" in text else text):
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


def windows(lines: Sequence[str], start: int) -> Windows | None:
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
    if any(REFERENCE.search(lines[at]) for at in _marked(lines, start, line_max, ("]:",))):
        return None
    bounds, kinds = [start], block_kinds(lines, start, line_max)
    for cut in cuts(lines, kinds, start, line_max):
        if cut - bounds[-1] >= thresholds.TABLE.window_lines:
            bounds.append(cut)
    return Windows([*bounds, line_max] if bounds[-1] != line_max else bounds, kinds)
