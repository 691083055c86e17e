"""What one attempt at one job came to (status, paths, quality), the job as it was read, and
the done record that remembers it."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from vaultkit.base.config import Config
from vaultkit.base.log import append_log
from vaultkit.base.store import Store
from vaultkit.session.queue import jobs

if TYPE_CHECKING:
    from vaultkit.session.distill.pipeline import DistillOutcome, SessionInfo

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


def job_path(store: Store, session_id: str) -> Path:
    return jobs.queue_dir(store) / f"{jobs.safe_id(session_id)}.json"


def job_snapshot(store: Store, session_id: str) -> JobSnapshot | None:
    """The session's queued job and its file's mtime, or None when nothing is queued."""
    return snapshot_of(job_path(store, session_id))


def snapshot_of(path: Path) -> JobSnapshot | None:
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    job = jobs.read_job(path)
    return None if job is None else JobSnapshot(mtime, job)


def now() -> datetime:
    return datetime.now().astimezone()


def ended_at(job: jobs.Job) -> datetime:
    try:
        return datetime.fromisoformat(job.ended_at).astimezone()
    except ValueError:
        return now()


def store_logger(store: Store) -> Progress:
    """Progress lines go to the store's log, tagged with this worker's pid."""
    tag = f"worker[{os.getpid()}]"
    return lambda message: append_log(store.log, f"{tag} {message}")


def write_done(store: Store, result: Result) -> None:
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
            finished_at=now().isoformat(timespec="seconds"),
        ),
    )
