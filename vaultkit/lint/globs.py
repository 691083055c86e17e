"""Ruff-style path globs for ``[lint] exclude`` and ``[lint.per-file-ignores]``.

Patterns are relative to the vault root and use ``/``. ``**`` matches any number of folders
(none included), ``*`` and ``?`` stay within one path segment, ``[...]`` is a character class.
A pattern without ``/`` matches a file or folder name at any depth (``Templates`` and
``*.excalidraw.md`` anywhere); a pattern with ``/`` is anchored at the vault root. A pattern
that matches a folder matches everything below it (``Archive`` excludes ``Archive/x/y.md``).
Matching is case-sensitive, as paths are on Linux and in git.

Python 3.13's ``PurePosixPath.full_match`` would do most of this; vaultkit supports 3.11.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache


def _class(pattern: str, start: int) -> tuple[str, int]:
    """The regex for the ``[...]`` class opening at ``start`` and the index after it; a ``[``
    without its ``]`` is a literal."""
    end = pattern.find(
        "]", start + 2 if pattern[start + 1 : start + 2] in ("!", "]") else start + 1
    )
    if end < 0:
        return re.escape("["), start + 1
    body = pattern[start + 1 : end]
    if body.startswith("!"):
        body = "^" + body[1:]
    return "[" + body.replace("\\", "\\\\").replace("/", "") + "]", end + 1


def _segments(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            part, i = _class(pattern, i)
            out.append(part)
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """The compiled regex that :func:`glob_match` uses for ``pattern``."""
    text = pattern.strip()
    while text.startswith("./"):
        text = text[2:]
    anchored = "/" in text.rstrip("/")
    text = text.strip("/")
    prefix = "" if anchored else "(?:[^/]*/)*"
    return re.compile(f"{prefix}{_segments(text)}(?:/.*)?", re.DOTALL)


def glob_match(path: str, pattern: str) -> bool:
    """True when the vault-relative POSIX ``path`` matches ``pattern`` (see the module)."""
    return glob_regex(pattern).fullmatch(path) is not None


def match_any(path: str, patterns: Iterable[str]) -> bool:
    return any(glob_match(path, p) for p in patterns)
