"""Bounded JSONL reading for agent transcripts: one object per line, never the whole file.

A line longer than ``MAX_LINE_BYTES`` is skipped without being held in memory; a broken line,
a line that is not a JSON object, or a blank line reads as ``None`` so callers can count it; a
:class:`Tally` passed along counts them for a reader's caller.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any, BinaryIO

MAX_LINE_BYTES = 16 * 1024 * 1024


class Tally:
    """How many lines a reader went through and how many of them were unusable."""

    __slots__ = ("bad", "lines")

    def __init__(self) -> None:
        self.lines = 0
        self.bad = 0

    def count(self, record: object) -> None:
        self.lines += 1
        if record is None:
            self.bad += 1


def iter_lines(path: Path, max_line: int = 0) -> Iterator[bytes | None]:
    """Each raw line of ``path`` (with its newline), or ``None`` for a line longer than
    ``max_line`` bytes (default ``MAX_LINE_BYTES``), which is skipped without being held."""
    max_line = max_line or MAX_LINE_BYTES
    with path.open("rb") as handle:
        while line := handle.readline(max_line):
            if len(line) == max_line and not line.endswith(b"\n"):
                _skip_rest(handle, max_line)
                yield None
                continue
            yield line


def iter_objects(
    path: Path, max_line: int = 0, tally: Tally | None = None
) -> Iterator[dict[str, Any] | None]:
    """Each line of ``path`` as a JSON object, or ``None`` for an unusable or overlong line
    (each one counted in ``tally`` when given)."""
    for line in iter_lines(path, max_line):
        record = None if line is None else decode(line)
        if tally is not None:
            tally.count(record)
        yield record


def _skip_rest(handle: BinaryIO, max_line: int) -> None:
    while chunk := handle.readline(max_line):
        if chunk.endswith(b"\n"):
            return


def decode(line: bytes) -> dict[str, Any] | None:
    """One line as a JSON object (invalid UTF-8 replaced), else ``None``."""
    if not line.strip():
        return None
    try:
        value = json.loads(line.decode("utf-8", errors="replace"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
