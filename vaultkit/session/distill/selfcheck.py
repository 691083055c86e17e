"""The self-check of an LLM answer that has all three parts: is it a note, or an echo?

A backend that returns its prompt (a misconfigured command, a small local model) gives an answer
with the right markers and nothing of its own. :func:`rejection` names what is wrong, or gives
None for an answer worth writing:

- ``echoed-template``: it repeats the prompt template's instruction lines;
- ``instruction-title``: its title is one of the template's instructions;
- ``empty-part``: the handoff or the wiki part has no text besides headings and punctuation;
- ``identical-parts``: the handoff and the wiki part say the same thing;
- ``transcript-copy``: most of the wiki part is the transcript's own text.
"""

from __future__ import annotations

import re

from vaultkit.session.distill.markers import Parsed

INSTRUCTION_MIN_CHARS = 24  # template lines shorter than this are too generic to count as echo
ECHO_LINES = 2  # this many of the template's instruction lines repeated make an echo
SHINGLE = 8  # words: a run this long found in the transcript is copied text
COPY_SHARE = 0.6  # of the wiki's word runs found in the transcript: a copy
COPY_MIN_WORDS = 40
SAME_SHARE = 0.9
_WORD = re.compile(r"[^\W_]+")
_PLACEHOLDER = re.compile(r"\{\{\s*\w+\s*\}\}")
_MARKER = re.compile(r"@@@\s*\w+\s*@@@")


def _key(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def instruction_lines(template: str) -> frozenset[str]:
    """The template's own lines (placeholders and markers left out) in comparison form."""
    keys = set()
    for line in template.splitlines():
        if _PLACEHOLDER.search(line) or _MARKER.search(line):
            continue
        key = _key(line)
        if len(key) >= INSTRUCTION_MIN_CHARS:
            keys.add(key)
    return frozenset(keys)


def _echoed(parsed: Parsed, instructions: frozenset[str]) -> int:
    lines = f"{parsed.handoff}\n{parsed.wiki}".splitlines()
    return sum(1 for line in {_key(line) for line in lines} if line in instructions)


def _is_instruction(title: str, instructions: frozenset[str]) -> bool:
    key = _key(title)
    if not key:
        return False
    if key in instructions:
        return True
    return len(key) >= INSTRUCTION_MIN_CHARS and any(key in line for line in instructions)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _shingles(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def copied_share(part: str, transcript: str) -> float:
    """How much of ``part``'s runs of :data:`SHINGLE` words appear in ``transcript`` (0..1)."""
    words = _words(part)
    if len(words) < COPY_MIN_WORDS:
        return 0.0
    own = _shingles(words)
    if not own:
        return 0.0
    return len(own & _shingles(_words(transcript))) / len(own)


def _same(a: str, b: str) -> bool:
    left, right = set(_words(a)), set(_words(b))
    if not left or not right:
        return False
    if _key(a) == _key(b):
        return True
    close_in_size = abs(len(a) - len(b)) <= max(len(a), len(b)) // 10
    return close_in_size and len(left & right) / len(left | right) >= SAME_SHARE


def rejection(parsed: Parsed, template: str, transcript: str) -> str | None:
    """Why ``parsed`` is not a note worth writing (see the module docstring), or None."""
    instructions = instruction_lines(template)
    if _echoed(parsed, instructions) >= ECHO_LINES:
        return "echoed-template"
    if _is_instruction(parsed.title, instructions):
        return "instruction-title"
    if not _key(_strip_headings(parsed.handoff)) or not _key(_strip_headings(parsed.wiki)):
        return "empty-part"
    if _same(parsed.handoff, parsed.wiki):
        return "identical-parts"
    if copied_share(parsed.wiki, transcript) >= COPY_SHARE:
        return "transcript-copy"
    return None


def _strip_headings(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
