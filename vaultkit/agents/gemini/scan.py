"""This project's recent Gemini CLI chat files, found cheaply for backfill (stdlib).

``~/.gemini/tmp/<project>/chats/session-*.jsonl``, where ``<project>`` is the short name
``~/.gemini/projects.json`` gives a project folder (``{"projects": {path: name}}``); the session
id is the header's ``sessionId``. A file holding no message (the stub a resumed run opens first)
is skipped: there is nothing in it to distil.
"""

from __future__ import annotations

import json
import os

from vaultkit.agents.adapter import config_dir
from vaultkit.agents.gemini import AGENT
from vaultkit.agents.scan import Found, Scope, listing, newest, read_head

MAX_PROJECTS = 20  # project names that map to this store
CHAT_HEAD_BYTES = 64 * 1024  # header, set-up and the first messages
REGISTRY_MAX_BYTES = 1024 * 1024
MESSAGE_TYPES = ("user", "gemini")


def gemini_projects(gemini_dir: str) -> dict[str, str]:
    """``projects.json``: project folder → short name (empty when missing or malformed)."""
    raw = read_head(os.path.join(gemini_dir, "projects.json"), REGISTRY_MAX_BYTES)
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


def _project_names(where: Scope, projects: dict[str, str]) -> list[tuple[str, str]]:
    root = os.path.dirname(os.path.realpath(where.store.top))
    near = [(path, name) for path, name in sorted(projects.items()) if _inside(path, root)]
    return [(path, name) for path, name in near[:MAX_PROJECTS] if where.maps(path)]


def chat_session(path: str) -> str:
    """A chat file's ``sessionId`` when it holds at least one message, else ``""``."""
    head = read_head(path, CHAT_HEAD_BYTES)
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
    return isinstance(record, dict) and record.get("type") in MESSAGE_TYPES


def found(where: Scope) -> list[Found]:
    """This project's chat files changed since ``where.oldest`` (per project name, newest
    first)."""
    gemini_dir = config_dir(AGENT, where.env)
    result: list[Found] = []
    for cwd, name in _project_names(where, gemini_projects(gemini_dir)):
        chats = os.path.join(gemini_dir, "tmp", name, "chats")
        for mtime, path in newest(listing(chats, "session-"), where.oldest):
            if where.late():
                return result
            session_id = chat_session(path)
            if session_id:
                result.append(Found(AGENT.name, path, session_id, cwd, mtime))
    return result
