"""The store's job queue, in-progress markers and done records (lean: stdlib only).

Layout under ``sessions/.vaultkit/``:

- ``queue/<session_id>.json``    a session waiting to be (re)distilled (:class:`Job`)
- ``queue/failed/<id>.json``     a job that used up its attempts (kept for ``vaultkit doctor``
                                 and SessionStart's status line; removed once it is distilled)
- ``queue/junk/<name>.<ns>``     a queue file that held no job (garbage, ``[]``, cut JSON), set
                                 aside by the runner and counted by ``vaultkit doctor``
- ``running/<session_id>.json``  written by the worker that holds the session, removed by it
- ``done/<session_id>.json``     the outcome of the last successful distillation (:class:`Done`)

Every write is atomic. A session id becomes a file name only through :func:`safe_id`.
Lean (``os.path`` strings, :class:`~vaultkit.base.record.Record` values): the hooks queue jobs here;
the folder helpers and :func:`list_jobs` also give :class:`~pathlib.Path` objects for the rest.
"""

from __future__ import annotations

import os

from vaultkit.agents.known import DEFAULT
from vaultkit.base import leanjson
from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.record import Record
from vaultkit.base.store import Store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, TypeVar

    T = TypeVar("T", bound=Record)

_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def safe_id(session_id: str) -> str:
    """A file-name-safe form of a session id (ids are UUIDs in practice; never trust that)."""
    cleaned = "".join(c if c in _SAFE else "_" for c in session_id.strip())[:80].strip(".")
    return cleaned or "unknown"


class Job(Record):
    session_id: str
    transcript_path: str
    cwd: str = ""
    reason: str = "other"
    ended_at: str = ""  # ISO-8601 with offset
    attempts: int = 0
    last_error: str = ""
    source: str = "session-end"  # "session-end" | "backfill" | "ingest"
    agent: str = DEFAULT  # vaultkit.agents.known.AGENTS: whose transcript this is


class Running(Record):
    session_id: str
    pid: int
    started_at: str


class Done(Record):
    session_id: str
    transcript_size: int
    raw_path: str
    summary_path: str
    wiki_path: str
    quality: str  # "ok" | "degraded"
    degraded_reason: str
    finished_at: str


def _queue(store: Store) -> str:
    return store.at("queue")


def _running(store: Store) -> str:
    return os.path.join(store.at("state"), "running")


def _done(store: Store) -> str:
    return os.path.join(store.at("state"), "done")


def queue_dir(store: Store) -> Path:
    return store.queue


def running_dir(store: Store) -> Path:
    return store.state / "running"


def done_dir(store: Store) -> Path:
    return store.state / "done"


def _file(folder: str, session_id: str) -> str:
    return os.path.join(folder, f"{safe_id(session_id)}.json")


def job_file(store: Store, session_id: str) -> str:
    """Where the session's queued job is (whether or not it exists)."""
    return _file(_queue(store), session_id)


def _write(path: str, value: Job | Running | Done, *, durable: bool = True) -> None:
    text = leanjson.dumps(value.as_dict(), indent=1) + "\n"
    atomic_write_text(path, text, durable=durable)


def _read(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            data = leanjson.loads(handle.read())
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


def write_job(store: Store, job: Job) -> str:
    """Queue ``job`` atomically. Not fsynced: a hook in a burst must not wait on the disk, and a
    job lost to a power cut is found again by backfill (its transcript is still there)."""
    path = job_file(store, job.session_id)
    _write(path, job, durable=False)
    return path


def read_job(path: str | os.PathLike[str]) -> Job | None:
    return _build(Job, _read(path))


def _json_names(folder: str) -> list[str]:
    """Names of the ``*.json`` files directly in ``folder`` (none when it does not exist)."""
    try:
        with os.scandir(folder) as found:
            return [e.name for e in found if e.name.endswith(".json") and e.is_file()]
    except OSError:
        return []


def queued(store: Store) -> list[tuple[str, Job]]:
    """Queued jobs and their files, oldest file first. Unreadable job files are skipped (and
    left in place)."""
    folder = _queue(store)
    stamped = []
    for name in _json_names(folder):
        path = os.path.join(folder, name)
        try:
            stamped.append((os.stat(path).st_mtime_ns, name, path))
        except FileNotFoundError:
            continue
    stamped.sort()
    jobs = [(path, read_job(path)) for _, _, path in stamped]
    return [(p, j) for p, j in jobs if j is not None]


JUNK = "junk"


def unreadable(store: Store) -> list[str]:
    """The ``queue/*.json`` files that hold no job: garbage, ``[]``, JSON cut short, a record
    of unknown fields."""
    folder = _queue(store)
    paths = [os.path.join(folder, name) for name in sorted(_json_names(folder))]
    return [p for p in paths if read_job(p) is None and os.path.isfile(p)]


def set_aside(store: Store, path: str) -> str | None:
    """Move a queue file that holds no job into ``queue/junk/``; its new path, or None when it
    is gone already (or cannot be moved)."""
    import time

    folder = os.path.join(_queue(store), JUNK)
    target = os.path.join(folder, f"{os.path.basename(path)}.{time.time_ns()}")
    try:
        os.makedirs(folder, exist_ok=True)
        os.replace(path, target)
    except OSError:
        return None
    return target


def junk_count(store: Store) -> int:
    """How many files the runner set aside in ``queue/junk/``."""
    try:
        return len(os.listdir(os.path.join(_queue(store), JUNK)))
    except OSError:
        return 0


def list_jobs(store: Store) -> list[tuple[Path, Job]]:
    """:func:`queued` with :class:`~pathlib.Path` objects."""
    found = queued(store)
    if not found:
        return []
    from pathlib import Path

    return [(Path(path), job) for path, job in found]


def remove_job(store: Store, session_id: str) -> None:
    try:  # noqa: SIM105  (contextlib would cost every hook an import)
        os.unlink(job_file(store, session_id))
    except FileNotFoundError:
        pass


def fail_job(store: Store, job: Job) -> None:
    """Move a job that used up its attempts to ``queue/failed/``."""
    _write(_file(os.path.join(_queue(store), "failed"), job.session_id), job)
    remove_job(store, job.session_id)


def clear_failed(store: Store, session_id: str) -> None:
    """Forget the set-aside job of a session that has now been distilled."""
    try:  # noqa: SIM105  (as above)
        os.unlink(_file(os.path.join(_queue(store), "failed"), session_id))
    except FileNotFoundError:
        pass


def failed(store: Store) -> list[tuple[str, Job]]:
    """Jobs that used up their attempts (``queue/failed/``) and their files, newest file first."""
    folder = os.path.join(_queue(store), "failed")
    stamped = []
    for name in _json_names(folder):
        path = os.path.join(folder, name)
        try:
            stamped.append((os.stat(path).st_mtime_ns, name, path))
        except FileNotFoundError:
            continue
    stamped.sort(reverse=True)
    found = [(path, read_job(path)) for _, _, path in stamped]
    return [(p, j) for p, j in found if j is not None]


def mark_running(store: Store, session_id: str, started_at: str) -> str:
    path = _file(_running(store), session_id)
    _write(path, Running(session_id=session_id, pid=os.getpid(), started_at=started_at))
    return path


def clear_running(store: Store, session_id: str) -> None:
    """Remove this process's own marker only (never another live worker's)."""
    path = _file(_running(store), session_id)
    marker = _build(Running, _read(path))
    if marker is not None and marker.pid != os.getpid():
        return
    try:  # noqa: SIM105  (as above)
        os.unlink(path)
    except FileNotFoundError:
        pass


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
    folder = _running(store)
    markers = [_build(Running, _read(os.path.join(folder, n))) for n in sorted(_json_names(folder))]
    return [m for m in markers if m is not None and pid_alive(m.pid)]


def write_done(store: Store, done: Done) -> None:
    _write(_file(_done(store), done.session_id), done)


def read_done(store: Store, session_id: str) -> Done | None:
    return _build(Done, _read(_file(_done(store), session_id)))


TEMP_MAX_AGE = 60.0  # no hook or worker takes this long to write one small JSON file


def _stale_temps(folder: str, now: float, older_than: float) -> list[str]:
    try:
        with os.scandir(folder) as found:
            temps = [e for e in found if e.name.startswith(".") and e.name.endswith(".tmp")]
            return [e.path for e in temps if now - e.stat().st_mtime >= older_than]
    except OSError:
        return []


def sweep_temps(store: Store, now: float, older_than: float = TEMP_MAX_AGE) -> int:
    """Remove the temp files that writers killed mid-write left in the queue, marker and done
    folders (``.<name>.<random>.tmp``, older than ``older_than`` seconds); return how many."""
    folders = (_queue(store), os.path.join(_queue(store), "failed"), _running(store), _done(store))
    removed = 0
    for path in [p for folder in folders for p in _stale_temps(folder, now, older_than)]:
        try:
            os.unlink(path)
            removed += 1
        except OSError:
            pass
    return removed
