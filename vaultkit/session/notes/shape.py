"""The body of a note vaultkit writes keeps one H1: vaultkit's own title heading.

An LLM often starts its part with ``# Title`` (or underlines a line with ``===``); vaultkit puts
the note's ``# title`` on top, so the answer's own H1 headings are demoted to H2 (a leading one
that only repeats the title is dropped). Lines inside fenced code blocks are never touched.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX_H1 = re.compile(r"^( {0,3})#(?=[ \t]|$)[ \t]*(.*?)[ \t]*#*[ \t]*$")
_SETEXT_H1 = re.compile(r"^ {0,3}=+[ \t]*$")


def _key(text: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", text).split()).casefold()


def _fence_closes(line: str, opener: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(opener[0] * len(opener)) and not stripped.strip(opener[0])


def one_h1(body: str, title: str = "") -> str:
    """``body`` with every H1 outside code demoted to ``##``; a first-line H1 equal to
    ``title`` (ignoring case and punctuation) is dropped instead."""
    lines = body.split("\n")
    out: list[str] = []
    fence = ""
    first_text = True
    for line in lines:
        if fence:
            out.append(line)
            if _fence_closes(line, fence):
                fence = ""
            continue
        opened = _FENCE.match(line)
        if opened:
            fence = opened.group(1)
            out.append(line)
            first_text = False
            continue
        heading = _ATX_H1.match(line)
        if heading:
            text = heading.group(2)
            if not (first_text and title and _key(text) == _key(title)):
                out.append(f"## {text}".rstrip())
            first_text = False
            continue
        if _SETEXT_H1.match(line) and out and out[-1].strip() and not _is_block(out[-1]):
            out[-1] = f"## {out[-1].strip()}"
            continue
        out.append(line)
        if line.strip():
            first_text = False
    return "\n".join(out)


def _is_block(line: str) -> bool:
    """True when ``line`` cannot be a setext heading's text (a list item, quote or heading)."""
    stripped = line.lstrip()
    return stripped.startswith(("#", ">", "- ", "* ", "+ ", "|")) or bool(
        re.match(r"\d+[.)] ", stripped)
    )
