"""Split an LLM answer into its ``@@@TITLE@@@`` / ``@@@HANDOFF@@@`` / ``@@@WIKI@@@`` parts."""

from __future__ import annotations

import re
from dataclasses import dataclass

MARKERS = ("TITLE", "HANDOFF", "WIKI")
TITLE_MAX = 200

# A marker alone on its line; tolerate indentation, bold/heading decoration and spaces.
_MARKER_LINE = re.compile(
    r"^[ \t>#*_`]{0,8}@@@[ \t]{0,3}(TITLE|HANDOFF|WIKI)[ \t]{0,3}@@@[ \t*_`]{0,8}$"
)
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[\w-]*[ \t]*$")


@dataclass(frozen=True, slots=True)
class Parsed:
    """The three parts of an answer; ``missing`` names markers that never appeared."""

    title: str
    handoff: str
    wiki: str
    missing: tuple[str, ...]

    @property
    def complete(self) -> bool:
        """True when HANDOFF and WIKI are both present and non-empty (the quality bar)."""
        return bool(self.handoff.strip()) and bool(self.wiki.strip())


def _clean_title(raw: str) -> str:
    for line in raw.splitlines():
        text = line.strip().strip("#*_`\"' \t").strip()
        if text:
            return text[:TITLE_MAX].rstrip()
    return ""


def _strip_outer_fence(lines: list[str]) -> list[str]:
    """Drop an unpaired fence line left over from a code fence wrapped around the answer."""
    kept = [line.rstrip() for line in lines]
    while kept and not kept[-1]:
        kept.pop()
    while kept and not kept[0]:
        kept.pop(0)
    fences = sum(1 for line in kept if _FENCE.match(line))
    if fences % 2 == 1:
        if _FENCE.match(kept[-1]):
            kept.pop()
        elif _FENCE.match(kept[0]):
            kept.pop(0)
    return kept


def parse_markers(text: str) -> Parsed:
    """Parse ``text``; text before the first marker is ignored, later duplicates win."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in lines:
        match = _MARKER_LINE.match(line)
        if match:
            current = match.group(1)
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    parts = {k: "\n".join(_strip_outer_fence(v)).strip() for k, v in sections.items()}
    missing = tuple(m for m in MARKERS if m not in sections)
    return Parsed(
        title=_clean_title(parts.get("TITLE", "")),
        handoff=parts.get("HANDOFF", ""),
        wiki=parts.get("WIKI", ""),
        missing=missing,
    )
