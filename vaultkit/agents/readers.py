"""Every agent's transcript by name: its streaming reader, its session id, which agent wrote it.

``read(path, agent)`` is that agent's reader (its ``reader`` part), so the session side never
knows a transcript format; ``detect(path)`` tells by content whose transcript a file is (for
``vaultkit ingest`` and ``vaultkit transcript export``). Stdlib only.
"""

from __future__ import annotations

import os

from vaultkit.agents import known, transcripts
from vaultkit.agents.jsonlines import iter_objects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

    from vaultkit.agents.adapter import Entry
    from vaultkit.agents.jsonlines import Tally

HEAD_LINES = 50


def read(path: Path, agent: str = known.DEFAULT, tally: Tally | None = None) -> Iterator[Entry]:
    """``agent``'s reader over ``path`` (``KeyError`` for an agent vaultkit does not know)."""
    return known.reader(agent).read(path, tally)


def session_id(path: Path, agent: str = known.DEFAULT) -> str:
    """The session id ``agent``'s transcript records in its first lines, or ``""`` (a Gemini
    chat file's name has only its first 8 characters: the header has the whole id)."""
    record_id = known.lean(agent).record_session_id
    for number, record in enumerate(iter_objects(path)):
        if number >= HEAD_LINES:
            break
        found = record_id(record) if record is not None else ""
        if found:
            return found
    return ""


def detect(path: str, env: Mapping[str, str] | None = None) -> tuple[str | None, str]:
    """Whose transcript ``path`` is, judged by its first lines wherever it lives: ``(agent,
    "")``, or ``(None, why)`` naming each agent's objection."""
    env = os.environ if env is None else env
    problems: dict[str, str] = {}
    for name in known.names():
        problem = transcripts.file_problem(path, env, anywhere=True, agent=name)
        if problem is None:
            return name, ""
        problems[known.get(name).display] = problem
    if len(set(problems.values())) == 1:  # empty, not JSON, not a file: the same for every agent
        return None, next(iter(problems.values()))
    return None, "; ".join(f"{who}: {why}" for who, why in problems.items())
