"""markdown-it's html_block rule (types 2 and 6 at the top level) and vaultkit's
``wikilink.math_block_rule`` for ``$$`` blocks; the tag pattern html_inline shares."""

from __future__ import annotations

import re
from collections.abc import Sequence

from vaultkit.vault.wikisyntax import (
    MATH,
)

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


def opens_no_html_block(line: str) -> bool:
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
