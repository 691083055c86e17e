"""Plain frontmatter without PyYAML: what ``yaml.safe_load`` gives for ``key: value`` strings,
dates and lists of them (:mod:`vaultkit.vault.yamlfront` reads the rest)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

_KEY = r"[A-Za-z_][A-Za-z0-9_-]*"
_PLAIN = r"[^\W\d_](?:[\w .\-/()']*[\w.\-/()'])?"  # a word-led plain scalar, no trailing space
_DATE = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
_SCALAR = f"(?:{_PLAIN}|{_DATE})"
_ENTRY = re.compile(rf"({_KEY}):(?:[ ]+(.*))?")
_FLOW = re.compile(r"\[([^\[\]]*)\]")
_ITEM = re.compile(rf"( *)- ({_SCALAR})")
_SCALAR_RE = re.compile(_SCALAR)
_DATE_RE = re.compile(_DATE)
_SPECIAL_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})


def _scalar(text: str) -> str | None:
    """The string PyYAML (with vaultkit's date constructor) makes of a plain scalar, or None."""
    if not _SCALAR_RE.fullmatch(text):
        return None
    if _DATE_RE.fullmatch(text):
        year, month, day = (int(part) for part in text.split("-"))
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            return text
    return None if text.lower() in _SPECIAL_WORDS else text


def _flow_list(text: str) -> list[object] | None:
    match = _FLOW.fullmatch(text)
    if match is None:
        return None
    inner = match.group(1)
    if not inner.strip(" "):
        return []
    items: list[object] = []
    for item in inner.split(","):
        value = _scalar(item.strip(" "))
        if value is None:
            return None
        items.append(value)
    return items


def simple_yaml(body: Sequence[str]) -> dict[str, object] | None:
    """The mapping of frontmatter lines made only of plain strings, dates and lists of them,
    exactly as vaultkit's YAML loader returns it; ``None`` for anything else."""
    data: dict[str, object] = {}
    index = 0
    while index < len(body):
        match = _ENTRY.fullmatch(body[index])
        if match is None:
            return None
        key, text = match.group(1), match.group(2)
        if key in data or _scalar(key) != key:
            return None
        index += 1
        value: object
        if text is None:
            items: list[object] = []
            indent = None
            while index < len(body) and (item := _ITEM.fullmatch(body[index])):
                if indent is not None and item.group(1) != indent:
                    return None
                indent = item.group(1)
                scalar = _scalar(item.group(2))
                if scalar is None:
                    return None
                items.append(scalar)
                index += 1
            if not items:
                return None
            value = items
        elif text.startswith("["):
            value = _flow_list(text)
        else:
            value = _scalar(text)
        if value is None:
            return None
        data[key] = value
    return data or None
