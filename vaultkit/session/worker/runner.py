"""The queue runner's loop: drain the queue holding the runner lock, release it, rescan once."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass

from vaultkit.base.store import Store
from vaultkit.session.queue import backfill, jobs, recover, runlock
from vaultkit.session.queue.spawn import start_runner
from vaultkit.session.transcripts import rawcopy
from vaultkit.session.worker.finish import refresh_if_pulled
from vaultkit.session.worker.job import process_job
from vaultkit.session.worker.outcome import (
    DistillFn,
    Progress,
    Result,
    Status,
    job_snapshot,
    store_logger,
)


def _candidates(store: Store, only: str | None) -> list[tuple[str, int]]:
    found = []
    for path, job in jobs.list_jobs(store):
        if only is None or job.session_id == only:
            found.append((job.session_id, path.stat().st_mtime_ns))
    return found


def set_aside_junk(store: Store, say: Progress) -> int:
    """Move every queue file that holds no job into ``queue/junk/`` (one log line each), and
    queue its session again at once when its name is a session's and its transcript is found."""

    moved = 0
    for path in jobs.unreadable(store):
        target = jobs.set_aside(store, path)
        if target is None:
            continue
        moved += 1
        name = os.path.basename(path)
        job = backfill.recover(store, name[: -len(".json")], time.time(), os.environ)
        again = f"; {job.session_id} queued again from {job.transcript_path}" if job else ""
        say(f"queue: {name} holds no job; moved to queue/junk/{os.path.basename(target)}{again}")
    return moved


@dataclass(frozen=True, slots=True)
class Steps:
    """What every job of one drain is processed with (None: the real thing)."""

    distill: DistillFn | None
    settle: rawcopy.Settle | None
    progress: Progress | None


def _drain(
    store: Store,
    tried: dict[str, int],
    session_id: str | None,
    once: bool,
    steps: Steps,
) -> list[Result]:
    """Process jobs until a pass changes nothing; ``tried`` remembers each job file's version."""
    results: list[Result] = []
    while True:
        recover_spool(store)
        set_aside_junk(store, steps.progress or store_logger(store))
        fresh = [(s, m) for s, m in _candidates(store, session_id) if tried.get(s) != m]
        for sid, _ in fresh:
            result = process_job(
                store, sid, distill=steps.distill, settle=steps.settle, progress=steps.progress
            )
            results.append(result)
            after = job_snapshot(store, sid)
            if after is not None and result.status is not Status.SUPERSEDED:
                tried[sid] = after.mtime_ns
        if once or not fresh:
            return results


def recover_spool(store: Store) -> None:
    """Queue the sessions of SessionEnd hooks killed after they spooled (:mod:`.recover`);
    another store's get their own runner."""
    with contextlib.suppress(OSError):  # an unreadable spool: the next drain tries again
        recover.drain_and_start(os.environ, time.time(), store, start_runner)


def _untried(store: Store, tried: dict[str, int], session_id: str | None) -> bool:
    return any(tried.get(s) != m for s, m in _candidates(store, session_id))


def run_worker(
    store: Store,
    *,
    session_id: str | None = None,
    once: bool = False,
    distill: DistillFn | None = None,
    settle: rawcopy.Settle | None = None,
    progress: Progress | None = None,
) -> list[Result]:
    """Process queued jobs (only ``session_id``'s when given) until a pass changes nothing.

    A job is tried at most once per version of its file, so a job that failed stays queued for a
    later worker instead of spinning here; a session that ended again meanwhile is picked up.
    """
    return _drain(store, {}, session_id, once, Steps(distill, settle, progress))


def run_runner(
    store: Store,
    lock_fd: int,
    *,
    session_id: str | None = None,
    once: bool = False,
    distill: DistillFn | None = None,
    settle: rawcopy.Settle | None = None,
) -> list[Result]:
    """The queue runner: drain the queue holding the runner lock (``lock_fd``, taken by the
    caller), release it, then rescan once; a job that arrived meanwhile is drained after taking
    the lock again — unless a new runner already holds it, which then drains that job.

    A hook writes its job before it tries the lock, so every job is either seen by the rescan
    or comes with a hook that took the released lock and started a runner itself.
    """
    say = store_logger(store)
    tried: dict[str, int] = {}
    results: list[Result] = []
    steps = Steps(distill, settle, None)
    while True:
        runlock.write_pid(store)
        say("runner start")
        try:
            results += _drain(store, tried, session_id, once, steps)
            refresh_if_pulled(store, say)  # a teammate's notes pulled meanwhile
        finally:
            say("runner end")
            runlock.clear_pid(store)
            runlock.release(lock_fd)
        if once or not _untried(store, tried, session_id):
            return results
        again = runlock.try_lock(store)
        if again is None:
            say("a new runner took over the queue")
            return results
        lock_fd = again


def _seconds(name: str, default: float) -> float:
    try:
        return max(0.0, float(os.environ.get(name, default)))
    except ValueError:
        return default


def settle_from_env() -> rawcopy.Settle:
    """The settle window: ``VAULTKIT_SETTLE_SECONDS`` (1 s) bounded by
    ``VAULTKIT_SETTLE_MAX_SECONDS`` (30 s) — tests shorten it."""
    return rawcopy.Settle(
        window=_seconds("VAULTKIT_SETTLE_SECONDS", 1.0),
        max_wait=_seconds("VAULTKIT_SETTLE_MAX_SECONDS", 30.0),
    )
