"""Suppressions written in a note: ``%% vaultkit: ignore VK101 %%`` and ``vaultkit-ignore:``.

``%%…%%`` is Obsidian's comment, hidden in reading view. A suppression comment silences the
codes it names (prefixes such as ``VK1`` too; no code at all means every code) on its own line
and on the line below, so it can stand above the line it is about. Comments inside fenced code
and inside the frontmatter do not count. The frontmatter key ``vaultkit-ignore`` (a code, a
comma-separated string or a list) silences codes in the whole note. A code this version does
not know is itself a finding (VK501), so a typo never silently fails to suppress.

``scan`` is pure (text in, suppressions out); ``apply_suppressions`` reads the notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultkit.lint.codes import RULES, finding
from vaultkit.vault.model import Finding, FindingFields

_COMMENT = re.compile(r"%%\s*vaultkit:\s*ignore(?![\w-])([^%]*)%%")
_KEY = "vaultkit-ignore:"
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
ALL = "VK"  # the prefix of every code: what a suppression without codes silences
MARKER = b"vaultkit"  # a note without it has no suppression: skipped without decoding


@dataclass(frozen=True, slots=True)
class Suppression:
    """Codes silenced on ``lines`` (empty: the whole note); ``line``/``col`` is where it is
    written, for the VK501 of an unknown code."""

    codes: tuple[str, ...]
    lines: tuple[int, ...]
    line: int
    col: int


def _codes(text: str) -> tuple[str, ...]:
    return tuple(c.upper() for c in re.split(r"[\s,\[\]\"']+", text) if c)


def _known(code: str) -> bool:
    return re.fullmatch(r"VK\d{0,3}", code) is not None and any(k.startswith(code) for k in RULES)


def _frontmatter_end(lines: Sequence[str]) -> int:
    """The index of the frontmatter's closing line, or 0 when the note has none."""
    if not lines or lines[0].lstrip("\ufeff").rstrip() != "---":
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return i
    return 0


def _key(lines: Sequence[str], end: int) -> Iterator[Suppression]:
    for i in range(1, end):
        if not lines[i].startswith(_KEY):
            continue
        value = lines[i][len(_KEY) :]
        j = i + 1
        block = not value.strip()  # a YAML block list follows: "  - VK301"
        while block and j < end and lines[j].lstrip().startswith("- "):
            value += " " + lines[j].lstrip()[2:]
            j += 1
        yield Suppression(_codes(value) or (ALL,), (), i + 1, 1)


def _comments(lines: Sequence[str], start: int) -> Iterator[Suppression]:
    fence = ""
    for i in range(start, len(lines)):
        text = lines[i]
        opened = _FENCE.match(text)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        if "%%" not in text:
            continue
        for match in _COMMENT.finditer(text):
            codes = _codes(match.group(1)) or (ALL,)
            yield Suppression(codes, (i + 1, i + 2), i + 1, match.start() + 1)


def scan(text: str) -> tuple[Suppression, ...]:
    """Every suppression written in a note's text."""
    lines = text.splitlines()
    end = _frontmatter_end(lines)
    return (*_key(lines, end), *_comments(lines, end + 1 if end else 0))


def unknown_codes(path: str, found: Iterable[Suppression]) -> Iterator[Finding]:
    """VK501 for each code a suppression names that this version does not know."""
    for item in found:
        for code in item.codes:
            if not _known(code):
                message = (
                    f"suppression names unknown code {code!r}: nothing is silenced by it; "
                    f"use a code or prefix such as VK101 or VK1 (see docs/lint.md)"
                )
                yield finding(path, item.line, item.col, "VK501", message)


def silenced(f: FindingFields, found: Iterable[Suppression]) -> bool:
    """True when a suppression of the note covers the finding ``f``."""
    if f.code == "VK501":
        return False
    for item in found:
        if item.lines and f.line not in item.lines:
            continue
        if any(_known(code) and f.code.startswith(code) for code in item.codes):
            return True
    return False


def read_suppressions(root: Path, path: str) -> tuple[Suppression, ...]:
    """The suppressions of the note at ``path``; none when it cannot be read (VK202 says so)."""
    try:
        data = (root / path).read_bytes()
    except OSError:
        return ()
    if MARKER not in data:
        return ()
    return scan(data.decode("utf-8", errors="replace"))


def apply_suppressions(
    root: Path,
    notes: Iterable[str],
    findings: Iterable[Finding],
    known: Mapping[str, tuple[Suppression, ...]] | None = None,
) -> list[Finding]:
    """``findings`` without the suppressed ones, plus VK501 for unknown codes, sorted.
    ``known``: the notes' suppressions when the caller has them (else every note is read)."""
    if known is not None:
        by_note = dict(known)
    else:
        by_note = {path: read_suppressions(root, path) for path in notes}
    kept = [f for f in findings if not silenced(f, by_note.get(f.path, ()))]
    for path, found in by_note.items():
        kept.extend(unknown_codes(path, found))
    return sorted(set(kept), key=Finding.sort_key)
