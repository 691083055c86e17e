"""Obsidian's link syntax in plain Python, the one place it is scanned: the markdown-it rules
(:mod:`vaultkit.vault.wikilink`), the fast path (:mod:`vaultkit.vault.fastparse`), frontmatter
(:mod:`vaultkit.vault.yamlfront`), table cells (``parse.split_cell``) and the lint fixes all
find a wikilink with :func:`scan_wikilink` and split it with :func:`split_wikilink`; where a
link the parser found is written (:func:`link_extent`, for mv and the distiller's ghost
pruning), inline math and ``%%`` comment scanning, markdown-it's trim and plain link hrefs live
here too.
Nothing here imports markdown-it, so a vault the fast path reads whole never loads it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

# markdown-it's trim set: CommonMark whitespace, plus U+2000-U+200A and the two separators
_MD_WHITESPACE = (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x202F, 0x205F, 0x3000)
MD_TRIM_CHARS = "".join(sorted(map(chr, {*_MD_WHITESPACE, *range(0x2000, 0x200B), 0x2028, 0x2029})))
# A destination markdown-it's normalisation only percent-encodes: no scheme (no ":"), no host
# ("//"), no escapes or entities; ASCII unreserved characters, "/", "#", valid "%XX" escapes and
# any non-ASCII character but whitespace (which its parser trims), U+FEFF and lone surrogates,
# encoded as its UTF-8 bytes with capital hex digits
_PLAIN_DEST = re.compile(
    r"(?!//)(?:[A-Za-z0-9\-._~/#]|%[0-9A-Fa-f]{2}|[^\x00-\x7f\ud800-\udfff\s\ufeff])*"
)
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")

COMMENT = "%%"
FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]:")  # "[^label]:" opening a footnote definition
_MATH_CLOSER = re.compile(r"(?<=[^\s\\])\$")
MATH = "$$"
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)


OPEN = "[["  # a wikilink's opening; an embed is "!" then OPEN
CLOSE = "]]"
# A wikilink whose inner text holds no bracket and no line break: its CLOSE is the first one and
# nothing is nested, so this one match is what scan_wikilink finds there (the fast path's
# common case; tests/vault/test_wikisyntax.py proves the two agree).
SIMPLE_WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]*)\]\]")


class WikiParts(NamedTuple):
    """The pieces of a wikilink's inner text: ``target#subpath|display``."""

    target: str
    subpath: str
    display: str | None


_new_parts = tuple.__new__  # WikiParts without the Python-level __new__ (a hot path)


def wikilink_meta(parts: WikiParts, embed: bool, pos: int) -> dict[str, Any]:
    """The ``meta`` of a ``wikilink`` token (see the module docstring)."""
    return {
        "target": parts.target,
        "subpath": parts.subpath,
        "display": parts.display,
        "embed": embed,
        "pos": pos,
    }


def split_wikilink(inner: str) -> WikiParts | None:
    """Split the text between ``[[`` and ``]]``; ``None`` when it names nothing.

    The first ``|`` separates the display text; ``\\|`` (an escaped pipe, as written inside
    tables) is a separator too. The first ``#`` starts the subpath. Whitespace is trimmed.
    """
    display: str | None = None
    head = inner
    bar, escaped = display_bar(inner)
    if bar >= 0:
        head = inner[: bar - 1] if escaped else inner[:bar]
        display = inner[bar + 1 :].strip()
    target, _, subpath = head.partition("#")
    target, subpath = target.strip(), subpath.strip()
    if not target and not subpath:
        return None
    return _new_parts(WikiParts, (target, subpath, display))


def display_bar(inner: str) -> tuple[int, bool]:
    """Where the ``|`` before a wikilink's display text is in its inner text (-1: none), and
    whether it is written ``\\|`` (escaped, as a table cell needs it)."""
    bar = inner.find("|")
    return bar, bar > 0 and inner[bar - 1] == "\\"


Status = Literal["link", "empty", "nested", "unclosed"]
Find = Callable[[int], int]  # the next occurrence at or after a position (-1: none)


class WikiScan(NamedTuple):
    """What :func:`scan_wikilink` found at a ``[[``.

    ``link``: a wikilink (``parts``), ``end`` after its ``]]``. ``empty``: closed, but its inner
    text names nothing (not a link). ``nested``: another ``[[`` before the first ``]]``;
    ``end`` after the ``]]`` that closes the outer one on the same line (-1: none).
    ``unclosed``: no ``]]`` before the line ends."""

    status: Status
    end: int
    parts: WikiParts | None = None


def scan_wikilink(
    src: str,
    opening: int,
    line_end: int | None = None,
    find_close: Find | None = None,
    find_open: Find | None = None,
) -> WikiScan:
    """The wikilink whose ``[[`` is at ``opening`` in ``src``.

    ``line_end``: where the line ends (None: it is looked for up to the close). ``find_close``
    and ``find_open``: remembered searches for ``]]`` and ``[[`` (markdown-it's rule keeps them
    per inline source so a long line costs linear time); plain ``str.find`` by default.
    """
    inner = opening + 2
    close = find_close(inner) if find_close is not None else src.find(CLOSE, inner)
    if close < 0 or close >= (line_end if line_end is not None else close + 1):
        return WikiScan("unclosed", -1)
    if line_end is None and src.find("\n", opening, close) >= 0:
        return WikiScan("unclosed", -1)
    nested = find_open(inner) if find_open is not None else src.find(OPEN, inner, close)
    if 0 <= nested < close:
        outer = find_close(close + 2) if find_close is not None else src.find(CLOSE, close + 2)
        if line_end is None:
            broken = outer >= 0 and src.find("\n", close, outer) >= 0
        else:
            broken = outer >= line_end
        return WikiScan("nested", outer + 2 if outer >= 0 and not broken else -1)
    parts = split_wikilink(src[inner:close])
    return WikiScan("empty" if parts is None else "link", close + 2, parts)


def wikilinks_in(text: str) -> Iterator[tuple[int, WikiParts | None, bool]]:
    """``(offset, parts, embed)`` of each closed ``[[…]]`` on one line of a plain string
    (``offset``: its ``!`` or first ``[``; ``parts`` None when it names nothing): frontmatter
    values, where nothing nests and a line break ends every link."""
    start = text.find(OPEN)
    while start >= 0:
        scan = scan_wikilink(text, start)
        if scan.status in ("nested", "unclosed"):
            start = text.find(OPEN, start + 2)
            continue
        embed = start > 0 and text[start - 1] == "!"
        yield (start - 1 if embed else start), scan.parts, embed
        start = text.find(OPEN, scan.end)


@dataclass(slots=True)
class Finder:
    """``src.find(needle, pos)`` remembered: queries with rising ``pos`` cost linear time."""

    src: str
    needle: str
    start: int = -1
    found: int = -1

    def at(self, pos: int) -> int:
        valid = self.start >= 0 and self.start <= pos and (self.found < 0 or pos <= self.found)
        if not valid:
            self.start, self.found = pos, self.src.find(self.needle, pos)
        return self.found


@dataclass(slots=True)
class Search:
    """``pattern.search(src, pos)``'s start remembered, like :class:`Finder`."""

    src: str
    pattern: re.Pattern[str]
    start: int = -1
    found: int = -1

    def at(self, pos: int) -> int:
        valid = self.start >= 0 and self.start <= pos and (self.found < 0 or pos <= self.found)
        if not valid:
            match = self.pattern.search(self.src, pos)
            self.start, self.found = pos, match.start() if match else -1
        return self.found


@dataclass(slots=True)
class MathScan:
    """Obsidian's inline math in one inline source: ``$$…$$``, or ``$…$`` whose opening
    ``$`` is not followed by whitespace and whose closing ``$`` is not preceded by whitespace
    (nor escaped). Shared by the inline rule and the fast path; linear over a whole source."""

    src: str
    pairs: Finder
    closers: Search

    @classmethod
    def build(cls, src: str) -> MathScan:
        return cls(src, Finder(src, MATH), Search(src, _MATH_CLOSER))

    def end(self, pos: int) -> int:
        """Where the math opened by the ``$`` at ``pos`` ends; -1 when it opens none."""
        src = self.src
        if src.startswith(MATH, pos):
            close = self.pairs.at(pos + 2)
            return close + 2 if close >= 0 else -1
        following = src[pos + 1 : pos + 2]
        if not following or following.isspace():
            return -1
        close = self.closers.at(pos + 2)
        return close + 1 if close >= 0 else -1


def comment_left_open(text: str) -> bool:
    """True when ``text`` has an odd number of ``%%`` outside code spans."""
    if COMMENT not in text:
        return False
    return _CODE_SPAN.sub("", text).count(COMMENT) % 2 == 1


def md_trim(text: str) -> str:
    """markdown-it's trim of block content (CommonMark's whitespace set, not ``str.strip``'s)."""
    return text.strip(MD_TRIM_CHARS)


def plain_href(destination: str) -> str | None:
    """The ``href`` markdown-it gives ``destination`` when that is decidable without it: a
    relative path of unreserved ASCII characters, ``/``, ``#``, ``%XX`` escapes and non-ASCII
    text (``Folder/My%20note.md#Part``, ``Café.md`` -> ``Caf%C3%A9.md``). ``None``: ask
    markdown-it (:func:`vaultkit.vault.wikilink.link_href`), as for a scheme, a host, ``\\``
    escapes or entities, which its normalisation rewrites or its validation may refuse."""
    if not _PLAIN_DEST.fullmatch(destination):
        return None
    return destination if destination.isascii() else _NON_ASCII.sub(_escaped, destination)


def _escaped(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8"))


# --- where a link the parser found is written ------------------------------------------------

LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the parser's line breaks
_TITLE = re.compile(r"[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\))")


def line_end(text: str, pos: int) -> int:
    """Where the line holding ``pos`` ends (the parser's line breaks)."""
    found = LINE_BREAK.search(text, pos)
    return found.start() if found else len(text)


def label_end(text: str, pos: int) -> int:
    """The offset of the ``]`` closing the Markdown link label whose ``[`` is at ``pos``
    (nested brackets, ``\\`` escapes and code spans skipped); -1 when there is none."""
    depth, i = 0, pos
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "`":
            run = len(text[i:]) - len(text[i:].lstrip("`"))
            close = text.find("`" * run, i + run)
            i = close + run if close >= 0 else i + run
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def bare_destination_end(text: str, pos: int) -> int:
    """Where a bare Markdown destination starting at ``pos`` ends (whitespace or an
    unbalanced ``)``)."""
    depth, i = 0, pos
    while i < len(text) and not text[i].isspace():
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return min(i, len(text))


def destination_at(text: str, pos: int) -> tuple[int, int, bool] | None:
    """``(start, end, angle)`` of the destination of the inline Markdown link or image whose
    ``!`` or ``[`` is at ``pos`` (inside ``<…>`` when ``angle``); None when none follows."""
    bracket = pos + 1 if text.startswith("![", pos) else pos
    if not text.startswith("[", bracket):
        return None
    close = label_end(text, bracket)
    if close < 0 or not text.startswith("(", close + 1):
        return None
    start = close + 2
    while start < len(text) and text[start] in " \t":
        start += 1
    if not text.startswith("<", start):
        return start, bare_destination_end(text, start), False
    end = text.find(">", start + 1)
    return None if end < 0 else (start + 1, end, True)


def link_extent(text: str, pos: int, markdown: bool) -> tuple[int, int] | None:
    """``(start, end)`` of the whole link whose ``!`` or ``[`` is at ``pos``: a wikilink or
    embed, or (``markdown``) an inline ``[label](dest "title")``; None when it is not written
    there in one piece."""
    if not markdown:
        opening = pos + 1 if text.startswith("!" + OPEN, pos) else pos
        if not text.startswith(OPEN, opening):
            return None
        found = scan_wikilink(text, opening, line_end(text, opening))
        return (pos, found.end) if found.status in ("link", "empty") else None
    dest = destination_at(text, pos)
    if dest is None:
        return None
    end = dest[1] + (1 if dest[2] else 0)
    title = _TITLE.match(text, end)
    end = title.end() if title else end
    while end < len(text) and text[end] in " \t":
        end += 1
    return (pos, end + 1) if text.startswith(")", end) else None
