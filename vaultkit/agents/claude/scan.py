"""This project's other Claude Code transcripts, found for backfill beside the current one (stdlib).

Claude Code keeps one folder of transcripts per project, so when a Claude Code session starts,
the :data:`MAX_INSPECTED` newest ``.jsonl`` files next to its transcript are this project's
candidates: each one whose first lines' ``cwd`` maps to this store. A session of another agent
starting has no such folder to look in (its own scan finds its transcripts).
"""

from __future__ import annotations

import json
import os

from vaultkit.agents.claude import AGENT, session_id_from_name
from vaultkit.agents.scan import Found, Scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_INSPECTED = 50
HEAD_BYTES = 64 * 1024
HEAD_LINES = 30


def transcript_cwd(path: str | os.PathLike[str]) -> str:
    """The first ``cwd`` recorded in a transcript's first lines (``""`` when none)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return ""
    for line in head.splitlines()[:HEAD_LINES]:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("cwd"), str) and entry["cwd"]:
            return str(entry["cwd"])
    return ""


def _candidates(folder: str, current: set[str], oldest: float) -> Iterator[tuple[str, float]]:
    try:
        with os.scandir(folder) as found:
            entries = [e for e in found if e.name.endswith(".jsonl") and e.is_file()]
        stamped = sorted(((e.stat().st_mtime, e.path) for e in entries), reverse=True)
    except OSError:
        return
    for mtime, path in stamped[:MAX_INSPECTED]:
        if session_id_from_name(path) in current or mtime < oldest:
            continue
        yield path, mtime


def found(where: Scope) -> list[Found]:
    """The transcripts beside a starting Claude Code session's own, still wanted, whose ``cwd``
    is this project's (none when the starting session is another agent's)."""
    if where.agent != AGENT.name or not where.transcript:
        return []
    current = {session_id_from_name(where.transcript), where.session_id}
    result = []
    for path, mtime in _candidates(os.path.dirname(where.transcript) or ".", current, where.oldest):
        session_id = session_id_from_name(path)
        if not where.wanted(session_id):
            continue
        cwd = transcript_cwd(path)
        if where.maps(cwd):
            result.append(Found(AGENT.name, path, session_id, cwd, mtime))
    return result
