"""What a backfill scan of an agent's transcripts shares: its scope and bounded listing (stdlib).

Codex and Gemini CLI keep every project's transcripts in one place of their own; Claude Code
keeps a folder per project. An agent's ``scan`` part (``vaultkit.agents.<agent>.scan``) lists
this project's recent ones cheaply, bounded in files (:data:`MAX_FILES` newest per agent), bytes
(each file's head only) and time (:data:`DEADLINE_SECONDS` for the whole scan). Which of them are
finished and not yet distilled is :mod:`vaultkit.session.queue.backfill`'s call.
"""

from __future__ import annotations

import json
import os
import time

from vaultkit.base.record import Record
from vaultkit.base.store import Store, find_store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

__all__ = ["Found", "Scope", "listing", "newest", "read_head", "scope", "string_after"]

MAX_FILES = 50  # newest files inspected per agent
DEADLINE_SECONDS = 0.25


class Found(Record):
    """One transcript a backfill scan found: whose, where, its session id and ``cwd``."""

    agent: str
    path: str
    session_id: str
    cwd: str
    mtime: float


class Scope(Record):
    """What a scan looks for: this store's project since ``oldest``, until ``deadline``
    (monotonic); the agent, transcript and session id of the session that is starting; whether a
    folder is this project's (``maps``) and a session id still wanted (``wanted``: not queued,
    failed, forgotten or done; cheap to ask before reading a file)."""

    store: Store
    env: Mapping[str, str]
    now: float
    oldest: float  # mtimes older than this are history
    deadline: float  # time.monotonic() when the scan stops
    agent: str
    transcript: str
    session_id: str
    maps: Callable[[str], bool]
    wanted: Callable[[str], bool]

    def late(self) -> bool:
        return time.monotonic() > self.deadline


def scope(
    store: Store,
    env: Mapping[str, str],
    now: float,
    max_age: float,
    *,
    agent: str = "",
    transcript: str = "",
    session_id: str = "",
    wanted: Callable[[str], bool] | None = None,
) -> Scope:
    """The scope of one SessionStart's scan (``maps`` memoised for the scan)."""
    return Scope(
        store,
        env,
        now,
        now - max_age,
        time.monotonic() + DEADLINE_SECONDS,
        agent,
        transcript,
        session_id,
        _mapper(store, env),
        wanted or _everything,
    )


def _everything(session_id: str) -> bool:
    return True


def _mapper(store: Store, env: Mapping[str, str]) -> Callable[[str], bool]:
    """``cwd -> bool``: whether a folder's store is ``store`` (memoised for one scan)."""
    top = os.path.realpath(store.top)
    seen: dict[str, bool] = {}

    def maps(cwd: str) -> bool:
        if cwd not in seen:
            try:
                seen[cwd] = bool(cwd) and os.path.realpath(find_store(cwd, env=env).top) == top
            except OSError:
                seen[cwd] = False
        return seen[cwd]

    return maps


def newest(paths: Iterator[str], oldest: float) -> list[tuple[float, str]]:
    stamped = []
    for path in paths:
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            continue
        if mtime >= oldest:
            stamped.append((mtime, path))
    return sorted(stamped, reverse=True)[:MAX_FILES]


def listing(folder: str, prefix: str) -> Iterator[str]:
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.name.startswith(prefix)]
    except OSError:
        return
    for name in sorted(names):
        if name.endswith(".jsonl"):
            yield os.path.join(folder, name)


def read_head(path: str, limit: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(limit)
    except OSError:
        return b""


def string_after(text: str, key: str) -> str:
    """The first JSON string value of ``"key":`` in ``text`` (a prefix of a JSON line)."""
    at = text.find(f'"{key}":')
    if at < 0:
        return ""
    try:
        value, _ = json.JSONDecoder().raw_decode(text, at + len(key) + 3)
    except ValueError:
        return ""
    return value if isinstance(value, str) else ""
