"""The distillation's health as facts: how many sessions wait or fail, and the last reason.

Lean (stdlib only): SessionStart's first line and ``vaultkit doctor`` read these from the queue
folder; nothing here writes. The worker tags the ``last_error`` of a job it keeps queued on
purpose with :data:`CONFIG` (``vaultkit.toml`` is broken) or :data:`BUDGET` (the daily budget is
spent), so those are told apart from failing backends.
"""

from __future__ import annotations

import os

from vaultkit.base.record import Record
from vaultkit.base.store import Store
from vaultkit.session.queue import jobs, runlock

CONFIG = "config"
BUDGET = "budget"
WAIT_GRACE_SECONDS = 120.0  # a just-queued job's worker may not have written its marker yet
REASON_MAX = 160


class QueueFacts(Record):
    """What the queue says about distillation right now."""

    waiting: int = 0  # queued, never failed, no runner or worker on it, past the grace period
    retrying: int = 0  # queued again after a failed attempt (login, quota, network, …)
    gave_up: int = 0  # used up their attempts (``queue/failed/``)
    budget: int = 0  # offline note written; the LLM call waits for the next day's budget
    config: int = 0  # archived; distillation waits for ``vaultkit.toml`` to be fixed
    reason: str = ""  # the newest failure's reason, one line


def tag(kind: str, message: str) -> str:
    """A ``last_error`` that says why the worker kept a job queued on purpose."""
    return f"{kind}: {message}"


def _kind(last_error: str) -> str:
    head = last_error.split(":", 1)[0]
    return head if head in (CONFIG, BUDGET) and ":" in last_error else ""


def one_line(error: str) -> str:
    """The first line of an error (its ``hint:`` dropped), cut to :data:`REASON_MAX`."""
    first = error.strip().splitlines()[0] if error.strip() else ""
    return first if len(first) <= REASON_MAX else first[: REASON_MAX - 1].rstrip() + "…"


def _age(path: str, now: float) -> float:
    try:
        return now - os.stat(path).st_mtime
    except OSError:
        return 0.0


def queue_facts(store: Store, now: float) -> QueueFacts:
    """Count the queued and set-aside jobs by what holds them up (``now``: epoch seconds)."""
    live = {jobs.safe_id(m.session_id) for m in jobs.live_running(store)}
    drained = runlock.runner_alive(store)  # a live queue runner takes every queued job in turn
    counts = {"waiting": 0, "retrying": 0, CONFIG: 0, BUDGET: 0}
    newest: tuple[float, str] = (0.0, "")
    for path, job in jobs.queued(store):
        kind = _kind(job.last_error)
        if kind:
            counts[kind] += 1
        elif job.last_error:
            counts["retrying"] += 1
            newest = max(newest, (now - _age(path, now), job.last_error))
        elif (
            not drained
            and jobs.safe_id(job.session_id) not in live
            and _age(path, now) >= (WAIT_GRACE_SECONDS)
        ):
            counts["waiting"] += 1
    gave_up = jobs.failed(store)
    if gave_up:
        path, job = gave_up[0]
        newest = max(newest, (now - _age(path, now), job.last_error))
    return QueueFacts(
        waiting=counts["waiting"],
        retrying=counts["retrying"],
        gave_up=len(gave_up),
        budget=counts[BUDGET],
        config=counts[CONFIG],
        reason=one_line(newest[1]),
    )
