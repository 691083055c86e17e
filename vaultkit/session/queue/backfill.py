"""Find this project's sessions that ended without being distilled and queue them (lean: stdlib).

Two kinds: (a) jobs already queued that no worker is on — no queue runner holds the runner lock
and no live running marker — with attempts left (a job that failed before waits
:data:`RETRY_AFTER_SECONDS`); (b) transcripts that are provably finished
(:mod:`vaultkit.session.queue.finished`: an exit record where the agent writes one, settled, no live
writer — or silent for five minutes), not the current session, never distilled (no done record:
a session is distilled again only when its own SessionEnd comes with a longer transcript), not
queued or failed, and this project's: for a Claude Code session the transcripts next to the
current one (Claude keeps one folder per project) whose first lines' ``cwd`` maps to this store;
whatever the agent, this project's recent Codex rollouts and Gemini chat files
(:mod:`vaultkit.session.queue.agentscan`). Kind (b) is queued with source ``"backfill"`` and the
agent whose transcript it is. The caller starts the queue runner.
"""

from __future__ import annotations

import json
import os

from vaultkit.base.log import iso_now
from vaultkit.base.record import Record
from vaultkit.base.store import Store, find_store
from vaultkit.session.queue import agentscan, finished, jobs, runlock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

MAX_AGE_SECONDS = 7 * 24 * 3600.0  # older transcripts are history, not missed sessions
MAX_PER_START = 20  # a burst of twenty sessions whose hooks were all killed is recovered at once
MAX_INSPECTED = 50
HEAD_BYTES = 64 * 1024
HEAD_LINES = 30
RETRY_AFTER_SECONDS = 120.0  # a job that failed before is retried by a SessionStart after this


class Plan(Record):
    """What one SessionStart found: jobs to (re)start and transcripts to queue."""

    orphaned: tuple[jobs.Job, ...] = ()
    missed: tuple[jobs.Job, ...] = ()

    @property
    def count(self) -> int:
        return len(self.orphaned) + len(self.missed)


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


def _maps_to(cwd: str, store: Store, env: Mapping[str, str]) -> bool:
    if not cwd:
        return False
    try:
        return os.path.realpath(find_store(cwd, env=env).top) == os.path.realpath(store.top)
    except OSError:
        return False


def _busy_ids(store: Store) -> set[str]:
    """Session ids (safe form) that are queued, failed, forgotten (``vaultkit forget``), or held
    by a live worker."""
    busy = {jobs.safe_id(job.session_id) for _, job in jobs.queued(store)}
    busy |= {jobs.safe_id(marker.session_id) for marker in jobs.live_running(store)}
    for folder in (os.path.join(store.at("queue"), "failed"), store.at("forgotten")):
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        busy |= {_stem(name) for name in names if name.endswith(".json")}
    return busy


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def _age(path: str, now: float) -> float:
    try:
        return now - os.stat(path).st_mtime
    except OSError:
        return 0.0


def orphaned_jobs(store: Store, max_attempts: int, now: float) -> list[jobs.Job]:
    """Queued jobs with attempts left that no worker is on; a job that failed before only after
    :data:`RETRY_AFTER_SECONDS`. None while a queue runner is alive: it drains the queue (a hook
    that is about to start one holds the runner lock already)."""
    if runlock.runner_alive(store):
        return []
    live = {jobs.safe_id(marker.session_id) for marker in jobs.live_running(store)}
    return [
        job
        for path, job in jobs.queued(store)
        if jobs.safe_id(job.session_id) not in live
        and job.attempts < max_attempts
        and (job.attempts == 0 or _age(path, now) >= RETRY_AFTER_SECONDS)
    ][:MAX_PER_START]


def _candidates(folder: str, current: set[str], now: float) -> Iterator[tuple[str, float]]:
    try:
        with os.scandir(folder) as found:
            entries = [e for e in found if e.name.endswith(".jsonl") and e.is_file()]
        stamped = sorted(((e.stat().st_mtime, e.path) for e in entries), reverse=True)
    except OSError:
        return
    for mtime, path in stamped[:MAX_INSPECTED]:
        if _stem(path) in current or now - mtime > MAX_AGE_SECONDS:
            continue
        yield path, mtime


def _fresh(store: Store, session_id: str, busy: set[str]) -> bool:
    """Not queued, failed, forgotten, running or done (``session_id`` a transcript's)."""
    return jobs.safe_id(session_id) not in busy and jobs.read_done(store, session_id) is None


def missed_transcripts(
    store: Store,
    transcript_path: str,
    session_id: str,
    now: float,
    env: Mapping[str, str] | None = None,
    *,
    busy: set[str],
) -> list[jobs.Job]:
    """Finished Claude Code transcripts of this project, other than the current one, never
    distilled (``busy``: :func:`_busy_ids`, read once per plan)."""
    if not transcript_path:
        return []
    current = {_stem(transcript_path), session_id}
    env = env or {}
    undistilled: dict[str, tuple[str, float]] = {}
    for path, mtime in _candidates(os.path.dirname(transcript_path) or ".", current, now):
        sid = _stem(path)
        if not _fresh(store, sid, busy):
            continue
        cwd = transcript_cwd(path)
        if _maps_to(cwd, store, env):
            undistilled[path] = (cwd, mtime)
    done = [f.path for f in finished.observe(list(undistilled), now) if f.finished]
    return [
        jobs.Job(
            _stem(p), p, undistilled[p][0], ended_at=iso_now(undistilled[p][1]), source="backfill"
        )
        for p in done[:MAX_PER_START]
    ]


def missed_elsewhere(
    store: Store,
    transcript_path: str,
    session_id: str,
    now: float,
    env: Mapping[str, str] | None = None,
    *,
    busy: set[str],
) -> list[jobs.Job]:
    """Finished Codex rollouts and Gemini chat files of this project, other than the current
    session's, never distilled (one job per session id, the newest file's)."""
    env = env or {}
    current = os.path.realpath(transcript_path) if transcript_path else ""
    seen = agentscan.found(store, env, now, MAX_AGE_SECONDS)
    fresh = [
        f
        for f in seen
        if f.session_id != session_id
        and os.path.realpath(f.path) != current
        and _fresh(store, f.session_id, busy)
    ]
    result: dict[str, jobs.Job] = {}
    for agent in agentscan.HOMES:
        mine = {f.path: f for f in fresh if f.agent == agent}
        for facts in finished.observe(list(mine), now, agent):
            f = mine[facts.path]
            if facts.finished and f.session_id not in result:
                result[f.session_id] = jobs.Job(
                    f.session_id,
                    f.path,
                    f.cwd,
                    ended_at=iso_now(f.mtime),
                    source="backfill",
                    agent=agent,
                )
    return list(result.values())


def plan(
    store: Store,
    transcript_path: str,
    session_id: str,
    *,
    max_attempts: int,
    now: float,
    env: Mapping[str, str] | None = None,
    agent: str = "claude",
) -> Plan:
    """What needs distilling, without changing anything. ``agent`` is the starting session's
    (its transcript's folder is searched only for Claude Code). ``env`` decides where a
    transcript's ``cwd`` has its store (``VAULTKIT_HOME``) and where the agents keep theirs."""
    claude = transcript_path if agent == "claude" else ""
    busy = _busy_ids(store)  # the queue, failed and forgotten jobs and live workers, read once
    missed = missed_transcripts(store, claude, session_id, now, env, busy=busy)
    missed += missed_elsewhere(store, transcript_path, session_id, now, env, busy=busy)
    return Plan(
        orphaned=tuple(orphaned_jobs(store, max_attempts, now)),
        missed=tuple(missed[:MAX_PER_START]),
    )


def apply(store: Store, found: Plan, spawn: Callable[[Store], object]) -> int:
    """Queue the missed transcripts and start one worker when anything needs it.

    Returns how many sessions the worker was started for: 0 when nothing was needed or the
    worker could not be started (``spawn`` returned None); the jobs stay queued either way.
    """
    if not found.count:
        return 0
    for job in found.missed:
        jobs.write_job(store, job)
    return found.count if spawn(store) is not None else 0
