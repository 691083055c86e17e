"""Stdlib-only reader for the simple YAML frontmatter vaultkit's note writer emits (no yaml import).

Understands what ``yaml.safe_dump`` produces for flat mappings: plain, single- and double-quoted
scalars (including folded continuation lines and ``\\uXXXX`` escapes), ``true``/``false``/``null``,
integers, block lists (``- item``) and flow lists (``[a, b]``). Anything else is kept as its raw
text; nested mappings are skipped. It never raises on bad input: it returns what it could read.
"""

from __future__ import annotations

import re

Meta = dict[str, object]

_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$")
_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\x07", "b": "\b", "e": "\x1b", "f": "\f",
    "v": "\v", "0": "\0", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
    '"': '"', "\\": "\\", "/": "/", " ": " ",
}  # fmt: skip
_HEX = {"x": 2, "u": 4, "U": 8}


def split_frontmatter(text: str) -> tuple[str, str]:
    """``(frontmatter_block, body)``; the block is ``""`` when the text has no frontmatter."""
    if not text.startswith("---"):
        return "", text
    first_nl = text.find("\n")
    if first_nl < 0 or text[:first_nl].strip() != "---":
        return "", text
    match = re.search(r"^(?:---|\.\.\.)[ \t]*$", text[first_nl + 1 :], re.MULTILINE)
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
    for line in block.splitlines():
        match = _KEY.match(line) if line[:1] not in (" ", "\t", "-", "#") else None
        if match is not None:
            if key is not None:
                meta[key] = _value(chunks)
            key, chunks = match.group(1), [match.group(2) or ""]
        elif key is not None and line.strip():
            chunks.append(line)
    if key is not None:
        meta[key] = _value(chunks)
    return meta


def _value(chunks: list[str]) -> object:
    head, rest = chunks[0].strip(), chunks[1:]
    items = [line.strip() for line in rest]
    if not head and items and all(item.startswith("-") for item in items):
        return [_scalar_text(item[1:].strip()) for item in items]
    if not head and rest:
        return None  # a nested mapping: not part of the lean format
    joined = " ".join([head, *items]).strip() if not head.startswith('"') else _join_dq(head, items)
    return _scalar(joined)


def _join_dq(head: str, items: list[str]) -> str:
    text = head
    for item in items:
        text = text[:-1] + item if text.endswith("\\") else f"{text} {item}"
    return text


def _scalar(text: str) -> object:
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar_text(part.strip()) for part in _split_flow(inner)] if inner else []
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if re.fullmatch(r"[-+]?\d+", text):
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
