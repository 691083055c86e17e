"""One queued job, start to end: take its lock, read the settings, run the steps, and record
the outcome (done, retried later, failed, or superseded by a newer job of the same session)."""

from __future__ import annotations

import contextlib
import os
import traceback
from dataclasses import replace
from pathlib import Path

from filelock import FileLock, Timeout

from vaultkit.base import gitattributes, gitignore
from vaultkit.base.config import Config, load_config
from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.forget.tombstones import is_forgotten
from vaultkit.session.queue import health, jobs
from vaultkit.session.transcripts import rawcopy
from vaultkit.session.worker.outcome import (
    DistillFn,
    JobSnapshot,
    Progress,
    Result,
    Status,
    job_path,
    job_snapshot,
    now,
    snapshot_of,
    store_logger,
    write_done,
)
from vaultkit.session.worker.steps import Refused, copy_raw, distil, refuse, write_readable


def _retry_later(store: Store, job: jobs.Job, error: str, max_attempts: int) -> Status:
    current = jobs.read_job(job_path(store, job.session_id)) or job
    bumped = replace(current, attempts=current.attempts + 1, last_error=error[:500])
    if bumped.attempts >= max_attempts:
        jobs.fail_job(store, bumped)
        return Status.FAILED
    jobs.write_job(store, bumped)
    return Status.REQUEUED


def _record_done(store: Store, snapshot: JobSnapshot, result: Result) -> Result:
    if result.status is Status.DEFERRED:  # stays queued for tomorrow's LLM call
        return result
    write_done(store, result)
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
    path = job_path(store, snapshot.job.session_id)
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
        raw = copy_raw(store, job, settle, say, redacted=config.privacy.redact_raw)
    except Refused as exc:
        return refuse(store, job, exc, say)
    if raw is None:
        jobs.remove_job(store, job.session_id)
        message = f"transcript {job.transcript_path} does not exist and was never copied; dropped"
        say(f"{job.session_id}: {message}")
        return Result(job.session_id, Status.DROPPED, message=message)
    result = _record_done(store, snapshot, distil(store, job, raw, config, distill, say))
    write_readable(store, config, job, raw, say)
    return result


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
        raw = copy_raw(store, job, settle, say)
    except Refused as refused:
        return refuse(store, job, refused, say)
    current = jobs.read_job(job_path(store, job.session_id)) or job
    jobs.write_job(store, replace(current, last_error=health.tag(health.CONFIG, exc.message)[:500]))
    return Result(job.session_id, Status.REQUEUED, raw_path=str(raw or ""), message=exc.message)


def _failure(store: Store, job: jobs.Job, exc: Exception, config: Config, say: Progress) -> Result:
    from vaultkit.session.distill.pipeline import InfraError

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
    jobs.mark_running(store, session_id, now().isoformat(timespec="seconds"))
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
    """``sessions/.gitignore`` as ``[git]`` says and ``.gitattributes`` (the hooks only
    create missing ones)."""
    try:
        if gitignore.sync(store, config.git.share):
            say("sessions/.gitignore written from [git] share")
        if gitattributes.sync(store):
            say("sessions/.gitattributes written (INDEX.md merges as a union)")
    except OSError as exc:
        say(f"sessions/.gitignore or .gitattributes not updated: {exc}; `vaultkit doctor` checks")


def _real_distill() -> DistillFn:
    from vaultkit.session.distill.pipeline import distill_session

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
