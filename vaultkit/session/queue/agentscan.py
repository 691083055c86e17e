"""This project's recent Codex rollouts and Gemini chat files, found cheaply for backfill (stdlib).

Both CLIs keep every project's transcripts in one place of their own, so the scan is bounded in
files (:data:`MAX_FILES` newest per agent), bytes (:data:`HEAD_BYTES` of each file's head) and
time (:data:`DEADLINE_SECONDS` for the whole scan):

- **Codex**: ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl``; only the day
  folders of the last :data:`DAYS` days are listed, and a rollout is this project's when its
  first line (``session_meta``) names a ``cwd`` whose store is this one.
- **Gemini**: ``~/.gemini/tmp/<project>/chats/session-*.jsonl``, where ``<project>`` is the short
  name ``~/.gemini/projects.json`` gives a project folder (``{"projects": {path: name}}``); the
  session id is the header's ``sessionId``. A file holding no message (the stub a resumed run
  opens first) is skipped: there is nothing in it to distil.

Which of them are finished and not yet distilled is :mod:`vaultkit.session.queue.backfill`'s call.
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

DAYS = 8  # day folders looked at (backfill's age limit is seven days)
MAX_FILES = 50  # newest files inspected per agent
MAX_PROJECTS = 20  # Gemini project names that map to this store
HEAD_BYTES = 4096  # Codex: the head of session_meta (its instructions come after cwd)
CHAT_HEAD_BYTES = 64 * 1024  # Gemini: header, set-up and the first messages
REGISTRY_MAX_BYTES = 1024 * 1024
DEADLINE_SECONDS = 0.25
# Where each agent keeps its state: (variable naming the folder, variable standing in for $HOME,
# folder under that home), as ``codex.AGENT`` / ``gemini.AGENT`` say (a test keeps them equal).
# Not imported from those modules: a Claude Code SessionStart would pay ~15 ms for them.
HOMES = {"codex": ("CODEX_HOME", "", ".codex"), "gemini": ("", "GEMINI_CLI_HOME", ".gemini")}


def config_dir(agent: str, env: Mapping[str, str]) -> str:
    """``agent``'s folder, as :func:`vaultkit.agents.adapter.config_dir` finds it."""
    dir_env, home_env, default = HOMES[agent]
    if dir_env and env.get(dir_env):
        return env[dir_env]
    home = (env.get(home_env) if home_env else "") or env.get("HOME", "")
    return os.path.join(home or os.path.expanduser("~"), default)


class Found(Record):
    """One transcript of this project that another agent wrote."""

    agent: str
    path: str
    session_id: str
    cwd: str
    mtime: float


class Scope(Record):
    """What the scan looks for: this store, since when, until when (monotonic)."""

    store: Store
    env: Mapping[str, str]
    now: float
    oldest: float  # mtimes older than this are history
    deadline: float  # time.monotonic() when the scan stops

    def late(self) -> bool:
        return time.monotonic() > self.deadline


def scope(store: Store, env: Mapping[str, str], now: float, max_age: float) -> Scope:
    return Scope(store, env, now, now - max_age, time.monotonic() + DEADLINE_SECONDS)


def found(store: Store, env: Mapping[str, str], now: float, max_age: float) -> list[Found]:
    """This project's Codex and Gemini transcripts changed within ``max_age``, newest first."""
    where = scope(store, env, now, max_age)
    maps = _mapper(store, env)
    return [*codex_rollouts(where, maps), *gemini_chats(where, maps)]


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


def _newest(paths: Iterator[str], oldest: float) -> list[tuple[float, str]]:
    stamped = []
    for path in paths:
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            continue
        if mtime >= oldest:
            stamped.append((mtime, path))
    return sorted(stamped, reverse=True)[:MAX_FILES]


def _listing(folder: str, prefix: str) -> Iterator[str]:
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.name.startswith(prefix)]
    except OSError:
        return
    for name in sorted(names):
        if name.endswith(".jsonl"):
            yield os.path.join(folder, name)


def _read(path: str, limit: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(limit)
    except OSError:
        return b""


# --- Codex -------------------------------------------------------------------------------------


def day_folders(root: str, now: float, oldest: float) -> list[str]:
    """``root/YYYY/MM/DD`` for the local and UTC dates from ``now`` back to ``oldest`` (at most
    :data:`DAYS` days)."""
    days: list[str] = []
    stamp = now
    for _ in range(DAYS):
        for parts in (time.localtime(stamp), time.gmtime(stamp)):
            folder = os.path.join(root, time.strftime("%Y/%m/%d", parts))
            if folder not in days:
                days.append(folder)
        stamp -= 86400
        if stamp < oldest - 86400:
            break
    return days


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


def rollout_meta(path: str) -> tuple[str, str]:
    """``(session id, cwd)`` from a rollout's first line, read from its head only."""
    head = _read(path, HEAD_BYTES).decode("utf-8", errors="replace")
    if not head.startswith("{") or string_after(head, "type") != "session_meta":
        return "", ""
    payload = head[head.find('"payload":') :]
    return string_after(payload, "id"), string_after(payload, "cwd")


def codex_rollouts(where: Scope, maps: Callable[[str], bool]) -> list[Found]:
    root = os.path.join(config_dir("codex", where.env), "sessions")
    if not os.path.isdir(root):
        return []
    days = day_folders(root, where.now, where.oldest)
    paths = (p for day in days for p in _listing(day, "rollout-"))
    result = []
    for mtime, path in _newest(paths, where.oldest):
        if where.late():
            break
        session_id, cwd = rollout_meta(path)
        if session_id and maps(cwd):
            result.append(Found("codex", path, session_id, cwd, mtime))
    return result


# --- Gemini ------------------------------------------------------------------------------------


def gemini_projects(gemini_dir: str) -> dict[str, str]:
    """``projects.json``: project folder → short name (empty when missing or malformed)."""
    raw = _read(os.path.join(gemini_dir, "projects.json"), REGISTRY_MAX_BYTES)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    projects = data.get("projects") if isinstance(data, dict) else None
    if not isinstance(projects, dict):
        return {}
    return {k: v for k, v in projects.items() if isinstance(k, str) and isinstance(v, str)}


def _inside(path: str, root: str) -> bool:
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _project_names(
    where: Scope, projects: dict[str, str], maps: Callable[[str], bool]
) -> list[tuple[str, str]]:
    root = os.path.dirname(os.path.realpath(where.store.top))
    near = [(path, name) for path, name in sorted(projects.items()) if _inside(path, root)]
    return [(path, name) for path, name in near[:MAX_PROJECTS] if maps(path)]


def chat_session(path: str) -> str:
    """A chat file's ``sessionId`` when it holds at least one message, else ``""``."""
    head = _read(path, CHAT_HEAD_BYTES)
    lines = head.split(b"\n")
    try:
        header = json.loads(lines[0])
    except ValueError:
        return ""
    if not isinstance(header, dict) or not isinstance(header.get("sessionId"), str):
        return ""
    whole = len(head) < CHAT_HEAD_BYTES
    return header["sessionId"] if not whole or any(map(_is_message, lines[1:])) else ""


def _is_message(line: bytes) -> bool:
    try:
        record = json.loads(line)
    except ValueError:
        return False
    return isinstance(record, dict) and record.get("type") in ("user", "gemini")


def gemini_chats(where: Scope, maps: Callable[[str], bool]) -> list[Found]:
    gemini_dir = config_dir("gemini", where.env)
    result: list[Found] = []
    for cwd, name in _project_names(where, gemini_projects(gemini_dir), maps):
        chats = os.path.join(gemini_dir, "tmp", name, "chats")
        for mtime, path in _newest(_listing(chats, "session-"), where.oldest):
            if where.late():
                return result
            session_id = chat_session(path)
            if session_id:
                result.append(Found("gemini", path, session_id, cwd, mtime))
    return result
