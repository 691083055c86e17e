"""markdown-it's link and image rules for plain ``[label](dest)`` and ``[label](<dest>)``."""

from __future__ import annotations

from vaultkit.vault.fastparse.tokens import (
    DEST,
    LABEL_STOP,
    POINTY_DEST,
    Found,
    Piece,
    text_piece,
)
from vaultkit.vault.wikisyntax import (
    plain_href,
)


def _label_end(src: str, open_at: int) -> int | None:
    """Index of the ``]`` closing a plain label opened at ``open_at``; -1 when no ``]``
    follows at all; ``None`` when the label holds syntax we do not model."""
    stop = LABEL_STOP.search(src, open_at + 1)
    if stop is None:
        return -1
    return stop.start() if src[stop.start()] == "]" else None


def _destination(src: str, open_paren: int) -> tuple[str | None, int] | None:
    """(href or ``None`` when markdown-it rejects it, index after ``)``) of a plain ``(dest)``."""
    match = DEST.match(src, open_paren + 1)
    if match is None or src[match.end() : match.end() + 1] != ")":
        pointy = POINTY_DEST.match(src, open_paren + 1)
        if pointy is None:
            return None
        href = _href(pointy.group(1))
        return None if href is None else (href, pointy.end())
    return _href(match.group()), match.end() + 1


def _href(destination: str) -> str | None:
    """The href markdown-it gives ``destination`` (None: it refuses it); markdown-it itself is
    imported only for a destination :func:`plain_href` cannot decide."""
    href = plain_href(destination)
    if href is None:
        from vaultkit.vault.wikilink import link_href

        href = link_href(destination)
    return href


def markdown_link(src: str, pos: int, image: bool) -> Found | None:
    """``[label](dest)`` (``![label](dest)`` when ``image``) or a literal ``[``/``!``."""
    bracket = pos + 1 if image else pos
    close = _label_end(src, bracket)
    if close is None:
        return None
    if close < 0 or src[close + 1 : close + 2] != "(":
        return (), pos + 1  # no reference definitions exist: not a link
    target = _destination(src, close + 1)
    if target is None:
        return None
    href, end = target
    if href is None:
        return (), pos + 1
    label = src[bracket + 1 : close]
    if image:
        return (Piece("image", label, {"pos": pos}, {"src": href, "alt": ""}),), end
    opening = Piece("link_open", "", {"pos": pos}, {"href": href})
    if label:
        return (opening, text_piece(label), Piece("link_close")), end
    return (opening, Piece("link_close")), end
