"""Stdlib-only reader for the simple YAML frontmatter vaultkit's note writer emits (no yaml import).

Understands what ``yaml.safe_dump`` produces for flat mappings: plain, single- and double-quoted
scalars (including folded continuation lines and ``\\uXXXX`` escapes), ``true``/``false``/``null``,
integers, block lists (``- item``) and flow lists (``[a, b]``). Anything else is kept as its raw
text; nested mappings are skipped. It never raises on bad input: it returns what it could read.
"""

from __future__ import annotations

import re

Meta = dict[str, object]

# YAML separates a key from its value with spaces or tabs only: ``\s`` would also take U+00A0.
_KEY = re.compile(r"^('(?:[^']|'')*'|\"[^\"]*\"|[A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$")
_BOOLS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\x07", "b": "\b", "e": "\x1b", "f": "\f",
    "v": "\v", "0": "\0", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
    '"': '"', "\\": "\\", "/": "/", " ": " ",
}  # fmt: skip
_HEX = {"x": 2, "u": 4, "U": 8}
_WS = " \t"  # YAML white space (not Unicode spaces such as U+00A0)


def split_frontmatter(text: str) -> tuple[str, str]:
    """``(frontmatter_block, body)``; the block is ``""`` when the text has no frontmatter."""
    if not text.startswith("---"):
        return "", text
    first_nl = text.find("\n")
    if first_nl < 0 or text[:first_nl].strip(" \t\r") != "---":
        return "", text
    match = re.search(r"^(?:---|\.\.\.)[ \t]*\r?$", text[first_nl + 1 :], re.MULTILINE)
    if match is None:
        return "", text
    block = text[first_nl + 1 : first_nl + 1 + match.start()]
    rest = text[first_nl + 1 + match.end() :]
    return block, rest[1:] if rest.startswith("\n") else rest


def read_meta(text: str) -> tuple[Meta, str]:
    """Parse a note's text into ``(frontmatter mapping, body)``."""
    block, body = split_frontmatter(text)
    return parse_block(block), body


def parse_block(block: str) -> Meta:
    """Parse the lines between the ``---`` fences."""
    meta: Meta = {}
    key: str | None = None
    chunks: list[str] = []
    for line in block.replace("\r\n", "\n").split("\n"):
        match = _KEY.match(line) if line[:1] not in (" ", "\t", "-", "#") else None
        if match is not None:
            if key is not None:
                meta[key] = _value(chunks)
            key, chunks = _scalar_text(match.group(1)), [match.group(2) or ""]
        elif key is not None:
            chunks.append(line)
    if key is not None:
        meta[key] = _value(chunks)
    return meta


def _value(chunks: list[str]) -> object:
    head = chunks[0].strip(_WS)
    while len(chunks) > 1 and not chunks[-1].strip(_WS):
        chunks = chunks[:-1]
    rest = chunks[1:]
    if not head and rest and rest[0].lstrip(_WS).startswith("-"):
        return _block_list(rest)
    if not head and rest:
        return None  # a nested mapping: not part of the lean format
    return _scalar(_fold(head, [line.strip(_WS) for line in rest]))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block_list(lines: list[str]) -> list[object]:
    """``- item`` lines; more-indented lines continue the item before them."""
    column = _indent(lines[0])
    items: list[list[str]] = []
    for line in lines:
        stripped = line.strip(_WS)
        if _indent(line) == column and stripped.startswith("-"):
            items.append([stripped[1:].strip(_WS)])
        elif items:
            items[-1].append(stripped)
    return [_scalar(_fold(item[0], item[1:]), flow=False) for item in items]


def _fold(head: str, items: list[str]) -> str:
    """Join a flow scalar's lines: a break is a space, each blank line a newline."""
    text, blanks = head, 0
    for item in items:
        if not item:
            blanks += 1
            continue
        if head.startswith('"') and text.endswith("\\") and not text.endswith("\\\\"):
            text = text[:-1] + item
        else:
            text += ("\n" * blanks if blanks else " ") + item
        blanks = 0
    return text


def _scalar(text: str, *, flow: bool = True) -> object:
    if flow and text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip(_WS)
        return [_scalar_text(part.strip(_WS)) for part in _split_flow(inner)] if inner else []
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    lowered = text.lower()
    if lowered in _BOOLS and text in (lowered, lowered.capitalize(), lowered.upper()):
        return _BOOLS[lowered]
    if re.fullmatch(r"[-+]?[0-9]+", text):
        return int(text)
    return _scalar_text(text)


def _scalar_text(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return _unescape(text[1:-1])
    return text


def _split_flow(inner: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    for char in inner:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def _unescape(text: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\" or index + 1 >= len(text):
            out.append(char)
            index += 1
            continue
        code = text[index + 1]
        if code in _HEX:
            width = _HEX[code]
            digits = text[index + 2 : index + 2 + width]
            try:
                out.append(chr(int(digits, 16)))
            except ValueError:
                out.append(text[index : index + 2 + width])
            index += 2 + width
            continue
        out.append(_ESCAPES.get(code, code))
        index += 2
    return "".join(out)


def meta_str(meta: Meta, key: str) -> str:
    """``meta[key]`` as a string (``""`` when missing or null); dates stay as written."""
    value = meta.get(key)
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def is_degraded(meta: Meta) -> bool:
    """True when the frontmatter says ``quality: degraded`` (never inferred from the body)."""
    return meta_str(meta, "quality").strip().lower() == "degraded"
