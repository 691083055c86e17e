"""The pieces the fast path makes (the fields of markdown-it tokens vaultkit reads), the
line kinds of the block scan and the patterns several fast rules share."""

from __future__ import annotations

import re
import string
from functools import partial
from typing import Any, NamedTuple

ESCAPABLE = frozenset(string.punctuation)  # what markdown-it's escape rule unescapes
SPECIAL = re.compile(r"[\n!\[\]\\`<%$]")  # characters where an enabled inline rule may start
# The common code span, matched whole where a backtick is: one backtick closed by the next
# backtick run when that run is a single backtick (the common wikilink: SIMPLE_WIKILINK).
CODE = re.compile(r"`(?!`)([^`]*)`(?!`)")
LABEL_STOP = re.compile(r"[\[\]\\`<\n$]|!\[|%%")  # ends a label we can decide without markdown-it
DEST = re.compile(r"[^\s()<>\\\x00-\x1f\x7f]+")  # link_href decodes "&" entities
POINTY_DEST = re.compile(r"<([^<>\\\n]*)>\)")  # "<dest>)", no escape or line break in it
CONTROL = re.compile(r"[\x00-\x20]")
HR = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*")
UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*")
ORDERED_MARKER = re.compile(r"[0-9]+[.)]")
ORDERED_ITEM = re.compile(r"([0-9]{1,9})[.)] (?=[^ \t])")  # a marker, one space, then text
DELIMITER_CHARS = frozenset("|-: \t")
DELIMITER_ROW = re.compile(r"[ \t]*[-:|][-:| \t]*")  # what may be a table's delimiter row

BLANK, TEXT, HEADING, FENCE, BULLET, ORDERED, FOOTNOTE_DEF = range(7)
ITEMS = (BULLET, ORDERED)
CONTAINERS = (BULLET, ORDERED, FOOTNOTE_DEF)  # blocks whose content may go on past a blank


NONE: dict[str, Any] = {}  # shared by every Piece without meta or attrs; never mutated


class Piece(NamedTuple):
    """The fields of a markdown-it ``Token`` that :mod:`vaultkit.vault.parse` reads."""

    type: str
    content: str = ""
    meta: dict[str, Any] = NONE
    attrs: dict[str, Any] = NONE
    children: list[Piece] | None = None
    map: list[int] | None = None


make_piece = partial(
    tuple.__new__, Piece
)  # builds a Piece from a full tuple without __new__'s call


def text_piece(content: str) -> Piece:
    return make_piece(("text", content, NONE, NONE, None, None))


# A paragraph whose only inline syntax is simple wikilinks and embeds (``[[t]]``, ``[[t#h|x]]``,
# ``![[t]]``): its inline token has no children; the walk reads its links straight from its
# lines with SIMPLE_WIKILINK (``parse._Body.bulk``, ``bulkscan``), what the inline rules find.
BULK_META: dict[str, Any] = {"vk_bulk": True}
# Outside its simple wikilinks, a bulk paragraph holds none of these: where another inline rule
# may start (SPECIAL but the line break), a tag's ``#`` or a block id's ``^``; and no backslash at
# all (an escaped ``\\|`` inside a link).
BULK_GAP = re.compile(r"[!\[\]\\`<%$#^]")
# A simple wikilink that names nothing (no target, no subpath): markdown-it reports it.
EMPTY_WIKILINK = re.compile(r"\[\[\s*(?:#\s*)?(?:\|[^\[\]\n]*)?\]\]")

InlineBlock = tuple[int, Piece]  # heading level (0: not a heading), the ``inline`` token


# Where a link reference definition could end its label: "]:", except the "]]:" of a
# wikilink before a colon (a label cannot hold an unescaped "]", so only "\]]:" may be one).
REFERENCE = re.compile(r"(?<!\])\]:|\\\]\]:")


Found = tuple[tuple[Piece, ...], int]  # pieces a rule pushed (none: literal text), next pos
