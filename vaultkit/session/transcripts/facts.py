"""Cheap facts about a transcript file: its session id (from the head) and end time (the tail)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

HEAD_LINES = 50
TAIL_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class TranscriptFacts:
    session_id: str | None
    ended_at: datetime | None  # timezone-aware, local


def _records(lines: list[bytes]) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    for line in lines:
        try:
            value = json.loads(line.decode("utf-8", errors="replace"))
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def _when(record: dict[str, object]) -> datetime | None:
    stamp = record.get("timestamp")
    if not isinstance(stamp, str):
        return None
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.astimezone()


def transcript_facts(path: Path) -> TranscriptFacts:
    """The ``sessionId`` of the first lines that carry one and the last line's ``timestamp``.

    Reads at most ``HEAD_LINES`` lines and the last ``TAIL_BYTES`` bytes, so it costs the same on a
    300 MB transcript as on a small one. Missing or broken fields give None.
    """
    with path.open("rb") as handle:
        head = [line for _, line in zip(range(HEAD_LINES), handle, strict=False)]
        size = handle.seek(0, 2)
        handle.seek(max(0, size - TAIL_BYTES))
        tail = handle.read().splitlines()[1:] if size > TAIL_BYTES else None
    session_id = next(
        (r["sessionId"] for r in _records(head) if isinstance(r.get("sessionId"), str)), None
    )
    stamps = [w for w in map(_when, _records(head if tail is None else tail)) if w is not None]
    return TranscriptFacts(
        session_id=session_id.strip() or None if isinstance(session_id, str) else None,
        ended_at=max(stamps) if stamps else None,
    )
