"""The simple wikilinks of a run of bulk paragraphs, found in one regex pass over their lines.

A bulk paragraph (``fastparse.BULK_META``) is a top-level paragraph whose content is its lines
joined and trimmed of whitespace, and whose only inline syntax is simple wikilinks: searched in
its lines as the file has them, every link is where the inline rules would find it in the
content, and its column is its place in the file's line. A link-dense 50 MB note has 200,000 of
these paragraphs and 1.6 million links, so every step here is one C-level pass over the run
(a regex ``split``, then ``map`` over its pieces): no Python code runs per line or per link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import accumulate, chain, repeat
from operator import add, itemgetter, le, sub
from typing import NamedTuple

from vaultkit.vault.wikisyntax import SIMPLE_WIKILINK

# SIMPLE_WIKILINK less its leading "(!?)": the same matches in text without a "!", found
# several times faster (the search skips to each "[[").
_SIMPLE_BODY = re.compile(SIMPLE_WIKILINK.pattern.removeprefix("(!?)"))
_NEXT = (1).__add__
_FRAME = 4  # a simple link's brackets: "[[" and "]]"
EMBED_KEY = "![["  # before an embed's inner text in its key
_EMBED_KEYS = {"": "", "!": EMBED_KEY}


class BulkLinks(NamedTuple):
    """The links of a run of bulk paragraphs, in the order found, as three parallel lists."""

    # each link's inner text, after EMBED_KEY for an embed: "a#h|b", "![[pic.png" (an inner
    # text holds no "[", so no key is ambiguous)
    keys: list[str]
    lines: list[int]  # 1-based file line of each
    cols: list[int]  # 1-based column of each (its "!" for an embed)
    ordered: bool  # the paragraphs were in document order, so the links are too


def simple_pattern(text: str) -> re.Pattern[str]:
    """A pattern whose matches in ``text`` are SIMPLE_WIKILINK's, whole (an embed's "!" too):
    its groups are the inner text, after the "!" or "" for SIMPLE_WIKILINK itself."""
    return SIMPLE_WIKILINK if "!" in text else _SIMPLE_BODY


def scan_bulk(lines: Sequence[str], spans: Sequence[tuple[int, int]]) -> BulkLinks:
    """The simple wikilinks of the bulk paragraphs on ``lines[low:high]`` for each span, in
    order (``lines``: the file's lines; a span: a paragraph's token map)."""
    lows, highs = list(map(itemgetter(0), spans)), list(map(itemgetter(1), spans))
    run = list(chain.from_iterable(map(lines.__getitem__, map(slice, lows, highs))))
    text = "\n".join(run)
    pattern = simple_pattern(text)
    # one split: the text between the links, then each link's groups (see simple_pattern)
    pieces, width = pattern.split(text), pattern.groups + 1
    between, inner = pieces[::width][:-1], pieces[width - 1 :: width]
    if width == 2:
        keys, lengths = inner, list(map(_FRAME.__add__, map(len, inner)))
    else:
        bangs = pieces[1::width]
        keys = list(map(add, map(_EMBED_KEYS.__getitem__, bangs), inner))
        lengths = list(map(add, map(len, bangs), map(_FRAME.__add__, map(len, inner))))
    # where each link starts in text, and on which line of the run
    at = list(accumulate(map(add, map(len, between), [0, *lengths[:-1]])))
    row = list(accumulate(map(str.count, between, repeat("\n"))))
    before_row = list(accumulate(map(_NEXT, map(len, run)), initial=-1))  # a row's start - 1
    file_line = list(chain.from_iterable(map(range, map(_NEXT, lows), map(_NEXT, highs))))
    return BulkLinks(
        keys,
        list(map(file_line.__getitem__, row)),
        list(map(sub, at, map(before_row.__getitem__, row))),
        all(map(le, highs, lows[1:])),
    )
