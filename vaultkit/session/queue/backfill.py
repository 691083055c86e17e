"""Find this project's sessions that ended without being distilled and queue them (lean: stdlib).

Two kinds: (a) jobs already queued that no worker is on — no queue runner holds the runner lock
and no live running marker — with attempts left (a job that failed before waits
:data:`RETRY_AFTER_SECONDS`); (b) transcripts that are provably finished
(:mod:`vaultkit.session.queue.finished`: an exit record where the agent writes one, settled, no live
writer — or silent for five minutes), not the current session, never distilled (no done record:
a session is distilled again only when its own SessionEnd comes with a longer transcript), not
queued or failed, and this project's, as each agent's ``scan`` part finds them
(:mod:`vaultkit.agents.scan`: for a Claude Code session the transcripts next to the current one,
Claude keeping one folder per project; whatever the agent, this project's recent Codex rollouts
and Gemini chat files). Kind (b) is queued with source ``"backfill"`` and the agent whose
transcript it is. The caller starts the queue runner.
"""

from __future__ import annotations

import os

from vaultkit.agents import known, scan
from vaultkit.base.log import iso_now
from vaultkit.base.record import Record
from vaultkit.base.store import Store
from vaultkit.session.queue import finished, jobs, runlock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

MAX_AGE_SECONDS = 7 * 24 * 3600.0  # older transcripts are history, not missed sessions
MAX_PER_START = 20  # a burst of twenty sessions whose hooks were all killed is recovered at once
RETRY_AFTER_SECONDS = 120.0  # a job that failed before is retried by a SessionStart after this


class Plan(Record):
    """What one SessionStart found: jobs to (re)start and transcripts to queue."""

    orphaned: tuple[jobs.Job, ...] = ()
    missed: tuple[jobs.Job, ...] = ()

    @property
    def count(self) -> int:
        return len(self.orphaned) + len(self.missed)


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


def _fresh(store: Store, session_id: str, busy: set[str]) -> bool:
    """Not queued, failed, forgotten, running or done (``session_id`` a transcript's)."""
    return jobs.safe_id(session_id) not in busy and jobs.read_done(store, session_id) is None


def missed(
    store: Store,
    transcript_path: str,
    session_id: str,
    now: float,
    env: Mapping[str, str] | None = None,
    *,
    busy: set[str],
    agent: str = known.DEFAULT,
) -> list[jobs.Job]:
    """Finished transcripts of this project, every agent's its ``scan`` part finds, other than
    the current session's (``agent``'s), never distilled (one job per session id, the newest
    file's; ``busy``: :func:`_busy_ids`, read once per plan)."""

    def wanted(found_id: str) -> bool:
        return found_id != session_id and _fresh(store, found_id, busy)

    where = scan.scope(
        store,
        env or {},
        now,
        MAX_AGE_SECONDS,
        agent=agent,
        transcript=transcript_path,
        session_id=session_id,
        wanted=wanted,
    )
    current = os.path.realpath(transcript_path) if transcript_path else ""
    result: dict[str, jobs.Job] = {}
    for name in known.names():
        part = known.scan(name)
        seen = part.found(where) if part is not None else []
        mine = [f for f in seen if wanted(f.session_id) and os.path.realpath(f.path) != current]
        for job in _finished(mine, now, name):
            result.setdefault(job.session_id, job)
    return list(result.values())


def _finished(found: list[scan.Found], now: float, agent: str) -> list[jobs.Job]:
    """The backfill jobs of the transcripts in ``found`` that are provably finished."""
    mine = {f.path: f for f in found}
    return [
        jobs.Job(
            mine[facts.path].session_id,
            facts.path,
            mine[facts.path].cwd,
            ended_at=iso_now(mine[facts.path].mtime),
            source="backfill",
            agent=agent,
        )
        for facts in finished.observe(list(mine), now, agent)
        if facts.finished
    ]


def plan(
    store: Store,
    transcript_path: str,
    session_id: str,
    *,
    max_attempts: int,
    now: float,
    env: Mapping[str, str] | None = None,
    agent: str = known.DEFAULT,
) -> Plan:
    """What needs distilling, without changing anything. ``agent`` is the starting session's
    (a Claude Code session's transcript folder is searched for its siblings). ``env`` decides
    where a transcript's ``cwd`` has its store (``VAULTKIT_HOME``) and where the agents keep
    theirs."""
    busy = _busy_ids(store)  # the queue, failed and forgotten jobs and live workers, read once
    found = missed(store, transcript_path, session_id, now, env, busy=busy, agent=agent)
    return Plan(
        orphaned=tuple(orphaned_jobs(store, max_attempts, now)),
        missed=tuple(found[:MAX_PER_START]),
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


def recover(
    store: Store, safe: str, now: float, env: Mapping[str, str] | None = None
) -> jobs.Job | None:
    """Queue again the session whose job file (``<safe>.json``) was garbled, from its
    transcript as the agents' scans find it; the job written, or None when none is found."""
    busy = _busy_ids(store) - {safe}
    for job in missed(store, "", "", now, env, busy=busy):
        if jobs.safe_id(job.session_id) == safe:
            jobs.write_job(store, job)
            return job
    return None
