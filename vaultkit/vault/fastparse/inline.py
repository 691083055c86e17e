"""markdown-it's inline rules with vaultkit's (wikilink, embed, ``%%`` comment, ``$`` math,
escape, backticks, html_inline, newline): the children of one ``inline`` token."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from vaultkit.vault.fastparse.html import (
    TAG,
)
from vaultkit.vault.fastparse.links import (
    markdown_link,
)
from vaultkit.vault.fastparse.tokens import (
    CODE,
    CONTROL,
    ESCAPABLE,
    NONE,
    SPECIAL,
    Found,
    Piece,
    make_piece,
    text_piece,
)
from vaultkit.vault.wikisyntax import (
    COMMENT,
    SIMPLE_WIKILINK,
    MathScan,
    scan_wikilink,
    split_wikilink,
    wikilink_meta,
)


def _last_runs(src: str) -> dict[int, int]:
    """Each backtick run length's last position (markdown-it's backtick cache)."""
    runs: dict[int, int] = {}
    pos = src.find("`")
    while pos >= 0:
        end = pos + 1
        while end < len(src) and src[end] == "`":
            end += 1
        runs[end - pos] = pos
        pos = src.find("`", end)
    return runs


def _code_span(src: str, start: int, runs: dict[int, int]) -> tuple[int, str | None]:
    """markdown-it's backtick rule: (end, code content or ``None`` for a literal run)."""
    end = start + 1
    while end < len(src) and src[end] == "`":
        end += 1
    length = end - start
    if runs.get(length, -1) >= end:
        close_end = end
        close = src.find("`", close_end)
        while close != -1:
            close_end = close + 1
            while close_end < len(src) and src[close_end] == "`":
                close_end += 1
            if close_end - close == length:
                return close_end, _code_content(src[end:close])
            close = src.find("`", close_end)
    return end, None


def _code_content(raw: str) -> str:
    """A code span's text: newlines become spaces, one space trimmed from both ends."""
    content = raw.replace("\n", " ")
    if content.startswith(" ") and content.endswith(" ") and content.strip(" "):
        return content[1:-1]
    return content


def _skip_spaces(src: str, pos: int) -> int:
    while pos < len(src) and src[pos] in " \t":
        pos += 1
    return pos


def _escape(src: str, pos: int) -> Found | None:
    """markdown-it's escape rule at a backslash."""
    if pos + 1 >= len(src):
        return (), pos + 1
    char = src[pos + 1]
    if char == "\n":
        return (Piece("hardbreak"),), _skip_spaces(src, pos + 2)
    if 0xD800 <= ord(char) <= 0xDFFF:
        return None
    return (Piece("text_special", char if char in ESCAPABLE else "\\" + char),), pos + 2


def _wikilink(src: str, pos: int, embed: bool) -> Found | None:
    """vaultkit's wikilink rule (the shared scanner); ``None`` for what it would report or hand
    to ``link``."""
    found = scan_wikilink(src, pos + 1 if embed else pos)
    if found.parts is None:
        return None  # unclosed or nested: markdown-it reports it; empty: not a link
    return (Piece("wikilink", "", wikilink_meta(found.parts, embed, pos)),), found.end


def _angle(src: str, pos: int) -> Found | None:
    """markdown-it's autolink, then html_inline rule at ``<``: an open or closing tag is an
    ``html_inline`` token (the walk reads none), a ``<`` that starts neither is literal
    (``<%``, ``<=``, ``< b``); ``None`` for what may be an autolink (a ``:`` or ``@`` and no
    space or control character before the first ``>``), a comment or another ``<!``/``<?``."""
    close = src.find(">", pos + 1)
    if close >= 0:
        inner = src[pos + 1 : close]
        maybe = ("@" in inner or ":" in inner) and "<" not in inner
        if maybe and not CONTROL.search(inner.rstrip("\n")):
            return None  # maybe an autolink: its text is the normalised URL
    if pos + 2 >= len(src):
        return (), pos + 1
    second = src[pos + 1]
    if second in "!?":
        return None
    if second == "/" or (second.isascii() and second.isalpha()):
        tag = TAG.match(src, pos)
        if tag is not None:
            return (make_piece(("html_inline", tag.group(), NONE, NONE, None, None)),), tag.end()
    return (), pos + 1


def _comment(src: str, pos: int) -> Found:
    """vaultkit's ``%%comment%%`` rule (back-to-back comments are one token)."""
    end = pos
    while end < len(src) and src.startswith(COMMENT, end):
        close = src.find(COMMENT, end + 2)
        end = len(src) if close < 0 else close + 2
    return (Piece("vk_comment", "", {"pos": pos}),), end


def _newline(src: str, text_start: int, pos: int) -> tuple[int, Piece]:
    """markdown-it's newline rule: where the pending text ends, and the break token."""
    end = pos
    while end > text_start and src[end - 1] == " ":
        end -= 1
    if pos - end >= 2:
        return end, Piece("hardbreak")
    return (pos - 1 if pos - end == 1 else pos), Piece("softbreak")


@dataclass(slots=True)
class _Source:
    """One inline source and the scans its rules build on first need."""

    src: str
    runs: dict[int, int] | None = None  # backtick runs (markdown-it's backtick cache)
    math: MathScan | None = None


def _at_bracket(source: _Source, at: int) -> Found | None:
    src = source.src
    return _wikilink(src, at, False) if src.startswith("[[", at) else markdown_link(src, at, False)


def _at_backtick(source: _Source, at: int) -> Found | None:
    if source.runs is None:
        source.runs = _last_runs(source.src)
    end, span = _code_span(source.src, at, source.runs)
    return ((Piece("code_inline", span),), end) if span is not None else ((), end)


def _at_percent(source: _Source, at: int) -> Found | None:
    return _comment(source.src, at) if source.src.startswith(COMMENT, at) else ((), at + 1)


def _at_bang(source: _Source, at: int) -> Found | None:
    src = source.src
    if src.startswith("![[", at):
        return _wikilink(src, at, True)
    if src.startswith("![", at):
        return markdown_link(src, at, True)
    return (), at + 1


def _at_dollar(source: _Source, at: int) -> Found | None:
    if source.math is None:
        source.math = MathScan.build(source.src)
    end = source.math.end(at)
    return ((Piece("math_inline", source.src[at:end]),), end) if end >= 0 else ((), at + 1)


def _at_close(source: _Source, at: int) -> Found | None:
    return (), at + 1


def _at_backslash(source: _Source, at: int) -> Found | None:
    return _escape(source.src, at)


def _at_angle(source: _Source, at: int) -> Found | None:
    return _angle(source.src, at)


# The inline rule that may start at each special character (SPECIAL) but a line break.
_RULES: dict[str, Callable[[_Source, int], Found | None]] = {
    "[": _at_bracket,
    "`": _at_backtick,
    "%": _at_percent,
    "!": _at_bang,
    "$": _at_dollar,
    "]": _at_close,
    "\\": _at_backslash,
    "<": _at_angle,
}


def _common(src: str, at: int, char: str) -> Found | Literal[False] | None:
    """The two common tokens matched whole: a wikilink with no bracket or line break inside
    (SIMPLE_WIKILINK; None when it names nothing, which markdown-it reports) and a
    one-backtick code span. False when neither is here."""
    if char in "[!" and (match := SIMPLE_WIKILINK.match(src, at)):
        parts = split_wikilink(match.group(2))
        if parts is None:
            return None
        meta = wikilink_meta(parts, bool(match.group(1)), at)
        return (make_piece(("wikilink", "", meta, NONE, None, None)),), match.end()
    if char == "`" and (match := CODE.match(src, at)):
        code = _code_content(match.group(1))
        return (make_piece(("code_inline", code, NONE, NONE, None, None)),), match.end()
    return False


def inline_children(src: str) -> list[Piece] | None:
    """The children markdown-it gives an inline token with this content, or ``None``.

    Pending text is always the slice ``src[text_start:pos]``: every character a rule leaves
    as literal text is contiguous with it.
    """
    children: list[Piece] = []
    text_start = pos = 0
    source = _Source(src)
    search = SPECIAL.search
    while (special := search(src, pos)) is not None:
        at = special.start()
        char = src[at]
        if char == "\n":
            text_end, piece = _newline(src, text_start, at)
            if text_end > text_start:
                children.append(text_piece(src[text_start:text_end]))
            children.append(piece)
            pos = text_start = _skip_spaces(src, at + 1)
            continue
        found = _common(src, at, char)
        if found is False:
            found = _RULES[char](source, at)
        if found is None:
            return None
        pieces, pos = found
        if pieces:
            if at > text_start:
                children.append(text_piece(src[text_start:at]))
            children.extend(pieces)
            text_start = pos
    if text_start < len(src):
        children.append(text_piece(src[text_start:]))
    return children
