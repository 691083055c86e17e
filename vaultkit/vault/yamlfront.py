"""Frontmatter through PyYAML, for what the lean reader (``fastparse.simple_yaml``) declines:
JSON-friendly values, VK201 findings with PyYAML's own position and words, and the wikilinks in
YAML string values (also when PyYAML rejects the block but Obsidian reads it)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

import yaml
from yaml.constructor import SafeConstructor

from vaultkit.vault.model import Finding, Link
from vaultkit.vault.wikisyntax import OPEN, wikilinks_in

_VALUE_START = re.compile(r"\s*(?:(?:-\s+)+|[^\s\"'#-][^:]*:\s+)")  # "key: " or "- "
_QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'")
_FLOW_OR_QUOTE = frozenset("[{\"'")
_NOT_PLAIN = frozenset("&*!|>%@`#")
_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(slots=True)
class ReadYaml:
    """What one frontmatter block gave: its data, the links in its values, its findings."""

    data: dict[str, object] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _finding(path: str, line: int, col: int, message: str) -> Finding:
    return Finding(path, line, col, "VK201", "error", message)


def read_frontmatter(path: str, body: Sequence[str]) -> ReadYaml:
    """Load the YAML lines ``body`` (between the fences) of the note at ``path``."""
    result = ReadYaml()
    try:
        node, data = _load_yaml("\n".join(body) + "\n")
    except Exception as exc:  # any YAML failure is a finding, never a crash
        result.findings.append(_yaml_error(path, exc))
        result.links = list(_fallback_links(body))
        return result
    if data is None:
        return result
    if not isinstance(data, Mapping):
        result.findings.append(_finding(path, 2, 1, "frontmatter is not a mapping"))
        return result
    try:
        converted = _jsonable(data, {})
    except RecursionError:
        result.findings.append(_finding(path, 2, 1, "frontmatter is nested too deeply"))
        return result
    result.data = converted if isinstance(converted, dict) else {}
    if node is not None:
        result.links = list(_frontmatter_links(node, body))
    return result


def _construct_timestamp(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    """Dates become ISO strings; an impossible date stays the text that was written."""
    if not isinstance(node, yaml.ScalarNode):
        return None
    try:
        value = SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError:
        return node.value
    return value.isoformat() if isinstance(value, date | datetime) else str(node.value)


def _construct_binary(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    return node.value if isinstance(node, yaml.ScalarNode) else None


# The base class is picked at run time (libyaml's CSafeLoader when PyYAML was built with it),
# which mypy cannot follow; both candidates are SafeLoader-compatible.
class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe YAML loading whose results are JSON-friendly (no dates, no bytes)."""


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_Loader.add_constructor("tag:yaml.org,2002:binary", _construct_binary)


def _jsonable(value: object, memo: dict[int, object]) -> object:
    """Copy YAML data into str-keyed dicts, lists and scalars (shared nodes stay shared)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # .nan / .inf have no JSON spelling
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if id(value) in memo:
        return memo[id(value)]
    if isinstance(value, Mapping):
        out: dict[str, object] = {}
        memo[id(value)] = out
        for key, item in value.items():
            out[key if isinstance(key, str) else str(key)] = _jsonable(item, memo)
        return out
    if isinstance(value, list | tuple | set | frozenset):
        items: list[object] = []
        memo[id(value)] = items
        source = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        items.extend(_jsonable(item, memo) for item in source)
        return items
    return str(value)


def _yaml_error(path: str, exc: Exception) -> Finding:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = getattr(mark, "line", None)
    column = getattr(mark, "column", None)
    lines = str(exc).splitlines()
    problem = getattr(exc, "problem", None) or (lines[0] if lines else type(exc).__name__)
    if isinstance(line, int) and isinstance(column, int):
        return _finding(path, line + 2, column + 1, f"invalid YAML frontmatter: {problem}")
    return _finding(path, 2, 1, f"invalid YAML frontmatter: {problem}")


def _load_yaml(text: str) -> tuple[yaml.Node | None, object]:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, data


def _value_scalars(node: yaml.Node) -> Iterator[yaml.ScalarNode]:
    """Every scalar that is a value (not a key) in the YAML tree, each node once."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.ScalarNode):
            yield current
        elif isinstance(current, yaml.MappingNode):
            stack.extend(value for _key, value in reversed(current.value))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(reversed(current.value))


def _raw_positions(node: yaml.ScalarNode, body: Sequence[str]) -> list[tuple[int, int]]:
    """0-based (line, col) of each ``[[`` in the scalar's source text within the YAML."""
    first, last = node.start_mark.line, node.end_mark.line
    found: list[tuple[int, int]] = []
    for line in range(first, min(last, len(body) - 1) + 1):
        text = body[line]
        lo = node.start_mark.column if line == first else 0
        hi = node.end_mark.column if line == last else len(text)
        col = text.find(OPEN, lo, hi)
        while col >= 0:
            found.append((line, col))
            col = text.find(OPEN, col + 2, hi)
    return found


def _frontmatter_links(root: yaml.Node, body: Sequence[str]) -> Iterator[Link]:
    for node in _value_scalars(root):
        if node.tag != "tag:yaml.org,2002:str" or OPEN not in node.value:
            continue
        found = list(wikilinks_in(node.value))
        raw = _raw_positions(node, body)
        exact = len(raw) == len(found)  # escapes in quoted YAML can hide a "[[" from the source
        for index, (_offset, parts, embed) in enumerate(found):
            if parts is None:
                continue
            line, col = raw[index] if exact else (node.start_mark.line, node.start_mark.column)
            if embed and exact and col > 0:
                col -= 1
            yield Link(
                "frontmatter", parts.target, parts.subpath, parts.display, line + 2, col + 1, embed
            )


def _fallback_links(body: Sequence[str]) -> Iterator[Link]:
    """The frontmatter's links when PyYAML would not load it (VK201), as Obsidian still reads
    them: from the YAML tree when it composes (``created: {{date}}`` is an unhashable key to
    PyYAML, a fine mapping to Obsidian), else line by line from string values."""
    try:
        node = yaml.compose("\n".join(body) + "\n", Loader=_Loader)
    except (yaml.YAMLError, RecursionError):
        node = None
    if node is not None:
        yield from _frontmatter_links(node, body)
        return
    for index, line in enumerate(body):
        for start, end in _string_values(line):
            for offset, parts, embed in wikilinks_in(line[start:end]):
                if parts is not None:
                    target, subpath, display = parts
                    col = start + offset + 1
                    yield Link("frontmatter", target, subpath, display, index + 2, col, embed)


def _string_values(line: str) -> Iterator[tuple[int, int]]:
    """Spans of the YAML strings on one frontmatter line: each quoted string (in flow lists
    too), or the value of ``key: value`` / ``- value`` when it is a plain scalar (an unquoted
    ``[[x]]`` is a nested list in YAML, not a string)."""
    match = _VALUE_START.match(line)
    start = match.end() if match else 0
    value = line[start:]
    if value[:1] in _FLOW_OR_QUOTE:
        for quoted in _QUOTED.finditer(line, start):
            yield quoted.start() + 1, quoted.end() - 1
    elif value[:1] not in _NOT_PLAIN:
        comment = value.find(" #")
        yield start, start + comment if comment >= 0 else len(line)
