"""The store's job queue, in-progress markers and done records (lean: stdlib only).

Layout under ``sessions/.vaultkit/``:

- ``queue/<session_id>.json``    a session waiting to be (re)distilled (:class:`Job`)
- ``queue/failed/<id>.json``     a job that used up its attempts (kept for ``vaultkit doctor``)
- ``running/<session_id>.json``  written by the worker that holds the session, removed by it
- ``done/<session_id>.json``     the outcome of the last successful distillation (:class:`Done`)

Every write is atomic. A session id becomes a file name only through :func:`safe_id`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from vaultkit.fsio import atomic_write_text
from vaultkit.store import Store

T = TypeVar("T")

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_id(session_id: str) -> str:
    """A file-name-safe form of a session id (ids are UUIDs in practice; never trust that)."""
    cleaned = _UNSAFE.sub("_", session_id.strip())[:80].strip(".")
    return cleaned or "unknown"


@dataclass(frozen=True, slots=True)
class Job:
    session_id: str
    transcript_path: str
    cwd: str = ""
    reason: str = "other"
    ended_at: str = ""  # ISO-8601 with offset
    attempts: int = 0
    last_error: str = ""
    source: str = "session-end"  # "session-end" | "backfill" | "ingest"


@dataclass(frozen=True, slots=True)
class Running:
    session_id: str
    pid: int
    started_at: str


@dataclass(frozen=True, slots=True)
class Done:
    session_id: str
    transcript_size: int
    raw_path: str
    summary_path: str
    wiki_path: str
    quality: str  # "ok" | "degraded"
    degraded_reason: str
    finished_at: str


def queue_dir(store: Store) -> Path:
    return store.queue


def running_dir(store: Store) -> Path:
    return store.state / "running"


def done_dir(store: Store) -> Path:
    return store.state / "done"


def _write(path: Path, value: Job | Running | Done) -> None:
    atomic_write_text(path, json.dumps(asdict(value), ensure_ascii=False, indent=1) + "\n")


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _build(cls: type[T], data: dict[str, Any] | None) -> T | None:
    if data is None:
        return None
    try:
        return cls(**data)
    except TypeError:
        return None


def write_job(store: Store, job: Job) -> Path:
    path = queue_dir(store) / f"{safe_id(job.session_id)}.json"
    _write(path, job)
    return path


def read_job(path: Path) -> Job | None:
    return _build(Job, _read(path))


def list_jobs(store: Store) -> list[tuple[Path, Job]]:
    """Queued jobs, oldest file first. Unreadable job files are skipped (and left in place)."""
    folder = queue_dir(store)
    try:
        paths = [p for p in folder.iterdir() if p.suffix == ".json" and p.is_file()]
    except FileNotFoundError:
        return []
    paths.sort(key=lambda p: (p.stat().st_mtime_ns, p.name))
    jobs = [(p, read_job(p)) for p in paths]
    return [(p, j) for p, j in jobs if j is not None]


def remove_job(store: Store, session_id: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        (queue_dir(store) / f"{safe_id(session_id)}.json").unlink()


def fail_job(store: Store, job: Job) -> None:
    """Move a job that used up its attempts to ``queue/failed/``."""
    _write(queue_dir(store) / "failed" / f"{safe_id(job.session_id)}.json", job)
    remove_job(store, job.session_id)


def mark_running(store: Store, session_id: str, started_at: str) -> Path:
    path = running_dir(store) / f"{safe_id(session_id)}.json"
    _write(path, Running(session_id=session_id, pid=os.getpid(), started_at=started_at))
    return path


def clear_running(store: Store, session_id: str) -> None:
    """Remove this process's own marker only (never another live worker's)."""
    path = running_dir(store) / f"{safe_id(session_id)}.json"
    marker = _build(Running, _read(path))
    if marker is not None and marker.pid != os.getpid():
        return
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def live_running(store: Store) -> list[Running]:
    """Markers whose worker process is still alive (stale ones are ignored, not deleted)."""
    folder = running_dir(store)
    try:
        paths = sorted(folder.glob("*.json"))
    except OSError:
        return []
    markers = [_build(Running, _read(p)) for p in paths]
    return [m for m in markers if m is not None and pid_alive(m.pid)]


def write_done(store: Store, done: Done) -> None:
    _write(done_dir(store) / f"{safe_id(done.session_id)}.json", done)


def read_done(store: Store, session_id: str) -> Done | None:
    return _build(Done, _read(done_dir(store) / f"{safe_id(session_id)}.json"))
