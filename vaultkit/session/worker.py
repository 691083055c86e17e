"""The detached distillation worker: ``python -m vaultkit.session.worker --store ROOT``.

For each queued job it can lock (oldest first): check that the transcript is its agent's own
(``job.agent``'s: :mod:`vaultkit.agents.transcripts`), wait for it to settle, copy it into
``raw/``, distil it (read with that agent's reader) into a summary and a wiki note, then —
under the store lock — regenerate INDEX.md and apply summary retention. Infrastructure errors
keep the job queued for a bounded number of attempts; a broken ``vaultkit.toml`` still gets the
raw copy (with the defaults) and keeps the job queued; past ``[distill] daily_budget`` the
session gets its offline note and waits for the next day's LLM call. Each LLM distillation's
cost goes to the cost log. No exception ever stops the loop.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from vaultkit.agents import known, transcripts
from vaultkit.base import gitignore
from vaultkit.base.config import Config, load_config
from vaultkit.base.log import append_log
from vaultkit.base.store import Store, current_branch
from vaultkit.errors import VaultkitError
from vaultkit.session import costs, health, jobs, priority, rawcopy, runlock, scratch
from vaultkit.session.tombstones import is_forgotten

if TYPE_CHECKING:
    from vaultkit.session.distill import DistillOutcome, SessionInfo

# The distiller, indexer and retention (YAML, markdown-it, networkx) are imported where they are
# used: a worker that finds its session locked or its job gone exits without paying for them.

STORE_LOCK_TIMEOUT = 300.0

Progress = Callable[[str], None]


DistillFn = Callable[[Store, "SessionInfo", Config], "DistillOutcome"]


class Status(StrEnum):
    """The outcome of one attempt at one job."""

    DONE = "done"
    REQUEUED = "requeued"  # failed this time, will be retried later
    FAILED = "failed"  # used up its attempts, moved to queue/failed/
    DROPPED = "dropped"  # the transcript never existed
    REFUSED = "refused"  # not the agent's own transcript (or empty): never copied
    DEFERRED = "deferred"  # daily budget spent: offline note written, LLM retry tomorrow
    LOCKED = "locked"  # another worker holds this session
    GONE = "gone"  # the job disappeared (another worker finished it)
    SUPERSEDED = "superseded"  # the session ended again meanwhile; its new job stays queued


@dataclass(frozen=True, slots=True)
class Result:
    """What happened to one job."""

    session_id: str
    status: Status
    raw_path: str = ""
    summary_path: str = ""
    wiki_path: str = ""
    quality: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class JobSnapshot:
    """A queued job as this worker read it; a rewrite by a later SessionEnd changes it."""

    mtime_ns: int
    job: jobs.Job


def _job_path(store: Store, session_id: str) -> Path:
    return jobs.queue_dir(store) / f"{jobs.safe_id(session_id)}.json"


def job_snapshot(store: Store, session_id: str) -> JobSnapshot | None:
    """The session's queued job and its file's mtime, or None when nothing is queued."""
    return snapshot_of(_job_path(store, session_id))


def snapshot_of(path: Path) -> JobSnapshot | None:
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    job = jobs.read_job(path)
    return None if job is None else JobSnapshot(mtime, job)


def _now() -> datetime:
    return datetime.now().astimezone()


def _ended_at(job: jobs.Job) -> datetime:
    try:
        return datetime.fromisoformat(job.ended_at).astimezone()
    except ValueError:
        return _now()


def store_logger(store: Store) -> Progress:
    """Progress lines go to the store's log, tagged with this worker's pid."""
    tag = f"worker[{os.getpid()}]"
    return lambda message: append_log(store.log, f"{tag} {message}")


def _retry_later(store: Store, job: jobs.Job, error: str, max_attempts: int) -> Status:
    current = jobs.read_job(_job_path(store, job.session_id)) or job
    bumped = replace(current, attempts=current.attempts + 1, last_error=error[:500])
    if bumped.attempts >= max_attempts:
        jobs.fail_job(store, bumped)
        return Status.FAILED
    jobs.write_job(store, bumped)
    return Status.REQUEUED


class Refused(Exception):
    """The job's file is not the agent's transcript (or is empty); it is never copied."""


def _check_transcript(job: jobs.Job, *, content: bool) -> None:
    """Raise :class:`Refused` unless the job's file may be archived. A file the user named with
    ``vaultkit ingest`` may live anywhere; every other one must be in the agent's own folder."""
    anywhere = job.source == "ingest"
    if content:
        problem = transcripts.file_problem(
            job.transcript_path, os.environ, anywhere=anywhere, agent=job.agent
        )
    elif not anywhere:
        problem = transcripts.path_problem(job.transcript_path, os.environ, agent=job.agent)
    else:
        problem = None
    if problem is not None:
        raise Refused(f"{job.transcript_path}: {problem}")


def _refused(store: Store, job: jobs.Job, exc: Refused, say: Progress) -> Result:
    jobs.remove_job(store, job.session_id)
    say(f"{job.session_id}: refused {exc}; not archived, job removed")
    return Result(job.session_id, Status.REFUSED, message=str(exc))


def _copy_raw(
    store: Store, job: jobs.Job, settle: rawcopy.Settle, say: Progress, *, redacted: bool = False
) -> Path | None:
    source = Path(job.transcript_path)
    rawcopy.clean_temps(store.raw, job.session_id)
    _check_transcript(job, content=False)  # a folder or /etc/passwd is not waited for
    say(f"{job.session_id}: waiting for {source.name} to stop growing")
    size = rawcopy.wait_settled(source, settle)
    existing = rawcopy.find_raw(store.raw, job.session_id)
    if size is None:
        if existing is not None:
            say(f"{job.session_id}: transcript {source} is gone; using raw copy {existing.name}")
        return existing
    _check_transcript(job, content=True)  # again, on the file as it is now, right before copying
    copy = rawcopy.copy_transcript(
        source, store.raw, job.session_id, _ended_at(job), redacted=redacted
    )
    verb = "copied" if copy.written else "kept existing copy"
    say(f"{job.session_id}: {verb} raw/{copy.path.name} ({copy.size} bytes)")
    return copy.path


def finish_store(
    store: Store, config: Config, say: Progress, written: tuple[Path, ...] = ()
) -> None:
    """Under the store lock: regenerate INDEX.md and apply summary retention, then log counts.

    A failure here is logged, not raised: the notes are written, and the next worker (or
    ``vaultkit index``) redoes this step, so the session is not distilled — and paid for — twice.
    """
    from vaultkit.session.retention import apply_retention
    from vaultkit.vault.indexer import regenerate_index

    store.locks.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(store.locks / "store.lock"), timeout=STORE_LOCK_TIMEOUT):
            index = regenerate_index(store.wiki)
            archived = apply_retention(store, config.retention.keep_summaries)
    except Exception as exc:
        say(f"INDEX.md/retention not updated ({exc!r}); the next worker or `vaultkit index` will")
        return
    say(
        f"INDEX.md {'updated' if index.changed else 'unchanged'}; "
        f"{len(index.pruned)} ghost line(s) pruned, {len(index.orphans)} orphan(s), "
        f"{len(archived)} summary(ies) archived"
    )
    moved = [store.summary / p.name for p in archived]  # where retention took them from
    update_search(store, say, (*written, *moved, *archived))


def update_search(store: Store, say: Progress, changed: tuple[Path, ...] = ()) -> None:
    """Re-index the files the worker changed for ``vaultkit search`` (all files when none are
    named). Derived state: a failure is logged and the next search refreshes the index."""
    import sqlite3

    from vaultkit.search.corpus import store_corpus
    from vaultkit.search.index import update_index

    only = [p.relative_to(store.root).as_posix() for p in changed] if changed else None
    try:
        result = update_index(store_corpus(store), only)
    except (VaultkitError, sqlite3.Error, OSError) as exc:
        say(f"search index not updated ({exc}); the next search refreshes it")
        return
    say(f"search index: {result.updated} document(s) re-indexed, {result.total} in all")


def _distil(
    store: Store, job: jobs.Job, raw: Path, config: Config, distill: DistillFn, say: Progress
) -> Result:
    from vaultkit.session.distill import SessionInfo

    info = SessionInfo(
        session_id=job.session_id,
        transcript=raw,
        project=store.project.name,
        cwd=job.cwd,
        git_branch=_branch(job, raw),
        ended_at=_ended_at(job),
        reason=job.reason,
        agent=job.agent,
    )
    over = budget_spent(store, config)
    if over:
        return _defer(store, job, info, config, over, say)
    say(f"{job.session_id}: distilling with backend {config.distill.backend!r}")
    outcome = distill(store, info, config)
    say(f"{job.session_id}: wrote {outcome.summary_path} and {outcome.wiki_path}")
    _record_cost(store, job.session_id, config, outcome, say)
    finish_store(store, config, say, (Path(outcome.summary_path), Path(outcome.wiki_path)))
    return Result(
        job.session_id,
        Status.DONE,
        raw_path=str(raw),
        summary_path=str(outcome.summary_path),
        wiki_path=str(outcome.wiki_path),
        quality=outcome.quality,
        message=outcome.degraded_reason or "",
    )


def _branch(job: jobs.Job, raw: Path) -> str | None:
    """The session's git branch: the one its transcript records (Claude Code's found by a byte
    scan, the others' in their first session facts), else — for a session that has just ended —
    the branch checked out in its folder (a Gemini chat records none)."""
    from vaultkit.agents import readers
    from vaultkit.agents.adapter import META
    from vaultkit.session.transcript import git_branch

    if job.agent == known.CLAUDE.name:
        found = git_branch(raw)
    else:
        entries = readers.read(raw, job.agent)
        found = next((e.git_branch for e in entries if e.kind == META and e.git_branch), None)
    if found is None and job.source == "session-end" and job.cwd:
        found = current_branch(job.cwd) or None
    return found


def _today() -> str:
    return _now().date().isoformat()


def budget_spent(store: Store, config: Config) -> str:
    """Why no LLM call may be made today (``""`` when one may): today's recorded cost has
    reached ``[distill] daily_budget``. The offline backend costs nothing and is never capped."""
    cap = config.distill.daily_budget
    if cap <= 0 or config.distill.backend == "offline":
        return ""
    spent = costs.totals(store, _today()).cost_usd
    if spent < cap:
        return ""
    return f"daily budget reached (${spent:.2f} of ${cap:.2f} spent today)"


def _defer(
    store: Store, job: jobs.Job, info: SessionInfo, config: Config, why: str, say: Progress
) -> Result:
    """Past the budget: the offline note now (once; an earlier clean note of the session is kept),
    and the job stays queued for tomorrow's LLM call."""
    from vaultkit.session.distill import offline_session

    current = jobs.read_job(_job_path(store, job.session_id)) or job
    jobs.write_job(store, replace(current, last_error=health.tag(health.BUDGET, why)))
    deferred = Result(job.session_id, Status.DEFERRED, raw_path=str(info.transcript), message=why)
    done = jobs.read_done(store, job.session_id)
    if done is not None and (done.quality == "ok" or done.degraded_reason == health.BUDGET):
        say(f"{job.session_id}: {why}; its notes are already written, kept as they are")
        return replace(
            deferred, summary_path=done.summary_path, wiki_path=done.wiki_path, quality=done.quality
        )
    outcome = offline_session(store, info, config, health.BUDGET)
    say(f"{job.session_id}: {why}; wrote offline {outcome.summary_path.name}")
    finish_store(store, config, say, (outcome.summary_path, outcome.wiki_path))
    written = replace(
        deferred,
        summary_path=str(outcome.summary_path),
        wiki_path=str(outcome.wiki_path),
        quality="degraded",
    )
    _write_done(store, replace(written, message=health.BUDGET))  # the done record's reason
    return written


def _record_cost(
    store: Store, session_id: str, config: Config, outcome: DistillOutcome, say: Progress
) -> None:
    """One cost-log line for this distillation (the offline backend records zero)."""
    usage = outcome.usage
    entry = costs.Entry(
        date=_today(),
        session_id=session_id,
        backend=outcome.backend or config.distill.backend,  # what "auto" chose
        model=usage.model or (config.distill.model if outcome.backend == "claude" else ""),
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cost_usd=round(usage.cost_usd, 6),
    )
    try:
        costs.record(store, entry)
    except OSError as exc:
        say(f"{session_id}: cost not recorded in {costs.COST_LOG}: {exc}")
        return
    say(
        f"{session_id}: cost {usage.input_tokens} input + {usage.output_tokens} output tokens, "
        f"${usage.cost_usd:.6f}"
    )


def _write_done(store: Store, result: Result) -> None:
    raw_size = Path(result.raw_path).stat().st_size
    jobs.write_done(
        store,
        jobs.Done(
            session_id=result.session_id,
            transcript_size=raw_size,
            raw_path=result.raw_path,
            summary_path=result.summary_path,
            wiki_path=result.wiki_path,
            quality=result.quality,
            degraded_reason=result.message,
            finished_at=_now().isoformat(timespec="seconds"),
        ),
    )


def _record_done(store: Store, snapshot: JobSnapshot, result: Result) -> Result:
    if result.status is Status.DEFERRED:  # stays queued for tomorrow's LLM call
        return result
    _write_done(store, result)
    jobs.clear_failed(store, result.session_id)
    if not remove_if_unchanged(store, snapshot):
        return replace(result, status=Status.SUPERSEDED)
    return result


def remove_if_unchanged(store: Store, snapshot: JobSnapshot) -> bool:
    """Remove the job this worker processed, unless the session ended again meanwhile.

    The job file is first renamed away (atomic), so a SessionEnd hook that rewrites it at the
    same moment creates a fresh file instead of being deleted. Returns False when a newer job
    was found (it is put back, or a still newer one is already in place).
    """
    path = _job_path(store, snapshot.job.session_id)
    claimed = path.with_name(f".{path.name}.{os.getpid()}.claimed")
    try:
        os.replace(path, claimed)
    except FileNotFoundError:
        return True
    if snapshot_of(claimed) == snapshot:
        claimed.unlink()
        return True
    with contextlib.suppress(FileExistsError):  # a still newer job is already in place
        _put_back(claimed, path)
    with contextlib.suppress(FileNotFoundError):
        claimed.unlink()
    return False


def _put_back(claimed: Path, path: Path) -> None:
    try:
        os.link(claimed, path)  # never overwrites
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if not path.exists():
            os.replace(claimed, path)


def _run_steps(
    store: Store,
    snapshot: JobSnapshot,
    config: Config,
    distill: DistillFn,
    settle: rawcopy.Settle,
    say: Progress,
) -> Result:
    job = snapshot.job
    try:
        raw = _copy_raw(store, job, settle, say, redacted=config.privacy.redact_raw)
    except Refused as exc:
        return _refused(store, job, exc, say)
    if raw is None:
        jobs.remove_job(store, job.session_id)
        message = f"transcript {job.transcript_path} does not exist and was never copied; dropped"
        say(f"{job.session_id}: {message}")
        return Result(job.session_id, Status.DROPPED, message=message)
    result = _record_done(store, snapshot, _distil(store, job, raw, config, distill, say))
    _write_readable(store, config, job, raw, say)
    return result


def _write_readable(store: Store, config: Config, job: jobs.Job, raw: Path, say: Progress) -> None:
    """The readable Markdown rendering in ``transcripts/`` (SPEC §6); never fails the job."""
    if not config.transcripts.enabled:
        return
    from vaultkit.session.render import for_worker

    try:
        path = for_worker(store.transcripts, raw, job.session_id, _ended_at(job), job.agent)
    except (OSError, UnicodeError) as exc:
        say(f"{job.session_id}: readable transcript not written: {exc}")
        return
    say(f"{job.session_id}: readable transcript transcripts/{path.name}")


def _config_problem(
    store: Store,
    snapshot: JobSnapshot,
    exc: VaultkitError,
    settle: rawcopy.Settle,
    say: Progress,
) -> Result:
    """A bad ``vaultkit.toml``: the raw copy is still made (with the default settings), but no
    note is written with settings the user did not choose; the job stays queued until the file
    is fixed, and SessionStart's first line says so."""
    job = snapshot.job
    say(f"{job.session_id}: {exc.message}; archiving with the default settings, not distilling")
    try:
        raw = _copy_raw(store, job, settle, say)
    except Refused as refused:
        return _refused(store, job, refused, say)
    current = jobs.read_job(_job_path(store, job.session_id)) or job
    jobs.write_job(store, replace(current, last_error=health.tag(health.CONFIG, exc.message)[:500]))
    return Result(job.session_id, Status.REQUEUED, raw_path=str(raw or ""), message=exc.message)


def _failure(store: Store, job: jobs.Job, exc: Exception, config: Config, say: Progress) -> Result:
    from vaultkit.session.distill import InfraError

    if isinstance(exc, InfraError):
        status = _retry_later(store, job, str(exc), config.distill.max_attempts)
        say(f"{job.session_id}: infrastructure error, job {status}: {exc}")
        return Result(job.session_id, status, message=str(exc))
    status = _retry_later(store, job, repr(exc), config.distill.max_attempts)
    detail = "".join(traceback.format_exception(exc)).rstrip()
    say(f"{job.session_id}: unexpected error, job {status}:\n{detail}")
    return Result(job.session_id, status, message=repr(exc))


def _settings(store: Store) -> tuple[Config, VaultkitError | None]:
    """``vaultkit.toml``, or the defaults (which still archive the transcript) and its error."""
    try:
        return load_config(store.config_file), None
    except VaultkitError as exc:
        return Config(), exc


def _process_locked(
    store: Store, session_id: str, distill: DistillFn, settle: rawcopy.Settle, say: Progress
) -> Result:
    snapshot = job_snapshot(store, session_id)
    if snapshot is None:
        return Result(session_id, Status.GONE)
    if is_forgotten(store, session_id):  # queued before or despite `vaultkit forget`
        jobs.remove_job(store, session_id)
        say(f"{session_id}: forgotten (vaultkit forget); its job is dropped")
        return Result(session_id, Status.GONE)
    config, problem = _settings(store)
    jobs.mark_running(store, session_id, _now().isoformat(timespec="seconds"))
    try:
        if problem is not None:
            return _config_problem(store, snapshot, problem, settle, say)
        _sync_gitignore(store, config, say)
        return _run_steps(store, snapshot, config, distill, settle, say)
    except Exception as exc:
        return _failure(store, snapshot.job, exc, config, say)
    finally:
        jobs.clear_running(store, session_id)


def _sync_gitignore(store: Store, config: Config, say: Progress) -> None:
    """``sessions/.gitignore`` as ``[git]`` says (the hooks only create a missing one)."""
    try:
        if gitignore.sync(store, config.git.share):
            say("sessions/.gitignore written from [git] share")
    except OSError as exc:
        say(f"sessions/.gitignore not updated: {exc}; `vaultkit doctor` checks it")


def _real_distill() -> DistillFn:
    from vaultkit.session.distill import distill_session

    return distill_session


def process_job(
    store: Store,
    session_id: str,
    *,
    distill: DistillFn | None = None,
    settle: rawcopy.Settle | None = None,
    progress: Progress | None = None,
) -> Result:
    """Run every worker step for one queued session, holding its lock (never blocks on it)."""
    say = progress or store_logger(store)
    store.locks.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(store.locks / f"{jobs.safe_id(session_id)}.lock"), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return Result(session_id, Status.LOCKED)
    try:
        return _process_locked(
            store, session_id, distill or _real_distill(), settle or rawcopy.Settle(), say
        )
    finally:
        lock.release()


def _candidates(store: Store, only: str | None) -> list[tuple[str, int]]:
    found = []
    for path, job in jobs.list_jobs(store):
        if only is None or job.session_id == only:
            found.append((job.session_id, path.stat().st_mtime_ns))
    return found


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


def _summary(results: list[Result]) -> str:
    counts = Counter(result.status.value for result in results)
    return ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


def _exit_on_signals() -> None:
    """SIGTERM, SIGHUP and SIGINT unwind the worker (``finally`` blocks run): the LLM child's
    process group is killed, temp folders and markers removed, the job stays queued."""

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


def _take_lock(store: Store, lock_fd: int | None) -> int | None:
    """The runner lock: the descriptor the hook handed over, else a fresh try."""
    if lock_fd is None:
        return runlock.try_lock(store)
    os.set_inheritable(lock_fd, False)  # no LLM child or git keeps the lock alive
    if runlock.adopt(lock_fd):
        return lock_fd
    runlock.release(lock_fd)
    return None


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="vaultkit.session.worker")
    parser.add_argument("--store", required=True, type=Path, help="the sessions/ folder")
    parser.add_argument("--session", default=None, help="process only this session's job")
    parser.add_argument("--once", action="store_true", help="one pass over the queue")
    parser.add_argument("--lock-fd", type=int, default=None, help="the runner lock, handed over")
    return parser.parse_args(argv)


def _run(store: Store, lock_fd: int, args: argparse.Namespace) -> list[Result]:
    say = store_logger(store)
    lowered = priority.lower_priority()
    say(f"priority: nice {lowered.nice}, I/O {lowered.io}")
    swept = scratch.sweep(store)
    if swept:
        say(f"removed the temp folders of dead workers {', '.join(swept)}")
    torn = jobs.sweep_temps(store, time.time())
    if torn:
        say(f"removed {torn} temp file(s) of killed job writers")
    tmp = scratch.enter(store)
    try:
        return run_runner(
            store, lock_fd, session_id=args.session, once=args.once, settle=settle_from_env()
        )
    finally:
        scratch.leave(tmp)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vaultkit.session.worker --store ROOT [--session ID] [--once] [--lock-fd N]``."""
    args = _parse(argv)
    store = Store(args.store.resolve())
    _exit_on_signals()
    lock_fd = _take_lock(store, args.lock_fd)
    if lock_fd is None:
        append_log(store.log, f"worker[{os.getpid()}] a runner is draining the queue; exiting")
        return 0
    try:
        results = _run(store, lock_fd, args)
    except Exception as exc:  # the loop never raises; this guards set-up only
        append_log(store.log, f"worker[{os.getpid()}] stopped: {exc!r}")
        return 1
    if results:
        append_log(store.log, f"worker[{os.getpid()}] finished: {_summary(results)}")
    return 0 if all(r.status is not Status.FAILED for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
