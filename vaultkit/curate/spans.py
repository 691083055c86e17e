"""Where a link's target is written in a note's text, and how a new target is written; pure."""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import unquote

from vaultkit.vault.model import Link
from vaultkit.vault.wikisyntax import (
    LINE_BREAK,
    OPEN,
    destination_at,
    display_bar,
    line_end,
    scan_wikilink,
)

BOM = "\ufeff"
# characters a bare Markdown link destination cannot hold as they are
_UNSAFE_DEST = re.compile(r"[\x00-\x20%()<>\[\]\\#?\x7f]")


class Span(NamedTuple):
    """The target of one link: ``text[start:end]`` as written; ``angle``: a Markdown
    destination in ``<…>`` (written raw), ``markdown``: percent-encoded when bare."""

    start: int
    end: int
    markdown: bool = False
    angle: bool = False


def line_starts(text: str) -> list[int]:
    """The offset where each line of ``text`` starts (the parser's line breaks)."""
    return [0, *(m.end() for m in LINE_BREAK.finditer(text))]


def offset_of(text: str, starts: list[int], line: int, col: int) -> int | None:
    """The offset of the 1-based ``line``:``col`` the parser reported (a BOM is not counted)."""
    if not 1 <= line <= len(starts):
        return None
    shift = 1 if line == 1 and text.startswith(BOM) else 0
    return starts[line - 1] + col - 1 + shift


def wiki_span(text: str, pos: int, link: Link) -> Span | None:
    """The target of the wikilink or embed whose ``!`` or ``[[`` is at ``pos``."""
    opening = pos + 1 if text.startswith("!" + OPEN, pos) else pos
    if not text.startswith(OPEN, opening):
        return None
    found = scan_wikilink(text, opening, line_end(text, opening))
    if found.parts is None:
        return None
    inner_start = opening + len(OPEN)
    inner = text[inner_start : found.end - 2]
    bar, escaped = display_bar(inner)
    head = inner if bar < 0 else inner[: bar - 1 if escaped else bar]
    raw = head.partition("#")[0]
    start = inner_start + len(raw) - len(raw.lstrip())
    end = inner_start + len(raw.rstrip())
    return Span(start, end) if text[start:end] == link.target else None


def markdown_span(text: str, pos: int, link: Link) -> Span | None:
    """The path part of the destination of the inline Markdown link or image at ``pos``."""
    dest = destination_at(text, pos)
    if dest is None:
        return None
    start, end, angle = dest
    path = text[start:end].partition("#")[0]
    if unquote(path).strip() != link.target:
        return None
    return Span(start, start + len(path), markdown=True, angle=angle)


def find_span(text: str, pos: int, link: Link) -> Span | None:
    """The span of ``link`` (found by the parser at ``pos``), or None when it is not found as
    written there (a reference-style Markdown link, a multi-line YAML value)."""
    if link.kind == "markdown":
        return markdown_span(text, pos, link)
    return wiki_span(text, pos, link)


def encode_dest(path: str, angle: bool) -> str | None:
    """``path`` as a Markdown destination writes it: raw inside ``<…>`` (None when it holds a
    ``>`` or a line break), else percent-encoded where a bare destination needs it."""
    if angle:
        return None if (">" in path or "\n" in path or "<" in path) else path
    return _UNSAFE_DEST.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), path)
