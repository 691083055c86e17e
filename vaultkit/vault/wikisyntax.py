"""Obsidian's link syntax in plain Python, shared by the markdown-it rules
(:mod:`vaultkit.vault.wikilink`) and the fast path (:mod:`vaultkit.vault.fastparse`): splitting a
wikilink, inline math and ``%%`` comment scanning, markdown-it's trim and plain link hrefs.
Nothing here imports markdown-it, so a vault the fast path reads whole never loads it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

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
    bar = inner.find("|")
    if bar >= 0:
        head = inner[: bar - 1] if bar > 0 and inner[bar - 1] == "\\" else inner[:bar]
        display = inner[bar + 1 :].strip()
    target, _, subpath = head.partition("#")
    target, subpath = target.strip(), subpath.strip()
    if not target and not subpath:
        return None
    return _new_parts(WikiParts, (target, subpath, display))


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
