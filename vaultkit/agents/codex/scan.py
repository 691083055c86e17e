"""This project's recent Codex rollouts, found cheaply for backfill (stdlib).

``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl``: only the day folders of
the last :data:`DAYS` days are listed, and a rollout is this project's when its first line
(``session_meta``) names a ``cwd`` whose store is this one.
"""

from __future__ import annotations

import os
import time

from vaultkit.agents.adapter import config_dir
from vaultkit.agents.codex import AGENT
from vaultkit.agents.scan import Found, Scope, listing, newest, read_head, string_after

DAYS = 8  # day folders looked at (backfill's age limit is seven days)
HEAD_BYTES = 4096  # the head of session_meta (its instructions come after cwd)


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


def rollout_meta(path: str) -> tuple[str, str]:
    """``(session id, cwd)`` from a rollout's first line, read from its head only."""
    head = read_head(path, HEAD_BYTES).decode("utf-8", errors="replace")
    if not head.startswith("{") or string_after(head, "type") != "session_meta":
        return "", ""
    payload = head[head.find('"payload":') :]
    return string_after(payload, "id"), string_after(payload, "cwd")


def found(where: Scope) -> list[Found]:
    """This project's rollouts changed since ``where.oldest``, newest first."""
    root = os.path.join(config_dir(AGENT, where.env), "sessions")
    if not os.path.isdir(root):
        return []
    days = day_folders(root, where.now, where.oldest)
    paths = (p for day in days for p in listing(day, "rollout-"))
    result = []
    for mtime, path in newest(paths, where.oldest):
        if where.late():
            break
        session_id, cwd = rollout_meta(path)
        if session_id and where.maps(cwd):
            result.append(Found(AGENT.name, path, session_id, cwd, mtime))
    return result
