"""The queue runner's lock: one runner per store drains the queue (lean: stdlib only).

``sessions/.vaultkit/locks/runner.lock`` is held with ``flock`` for the runner's whole life, and
``locks/runner.pid`` names the holder. (In ``locks/``, not at the top of ``.vaultkit/``: the files
there are derived caches that ``vaultkit forget`` deletes, and a lock file deleted under a live
runner would let a second runner lock a new one.)

A SessionEnd hook that cannot take the lock at once knows a runner is alive and only writes its
job; one that can take it keeps holding it and hands the descriptor to the runner it spawns
(``--lock-fd``), so no second hook in a burst starts another.
The kernel drops the lock when its last holder dies, so a killed runner never leaves it stuck.

The race at the end of a runner's life is closed by the runner
(:func:`vaultkit.session.worker.runner.run_runner`) rescanning the queue after it released the lock:
a hook writes its job *before* it tries the lock, so a job written while the lock was still held
is seen by that rescan, and a job written after the release comes with a hook that takes the
lock itself.

Without ``fcntl`` (Windows) there is no runner lock: every hook starts a worker, and the
per-session locks still keep each session distilled once.
"""

from __future__ import annotations

import os
import sys

from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.store import Store

if sys.platform != "win32":
    import fcntl

LOCK_NAME = "runner.lock"
PID_NAME = "runner.pid"


def lock_path(store: Store) -> str:
    return os.path.join(store.at("locks"), LOCK_NAME)


def pid_path(store: Store) -> str:
    return os.path.join(store.at("locks"), PID_NAME)


def try_lock(store: Store) -> int | None:
    """The runner lock's descriptor when it was free (the caller now holds it), else ``None``.

    Never blocks. Without ``fcntl`` it returns ``-1``: nothing to hold, go ahead.
    """
    if sys.platform == "win32":
        return -1
    os.makedirs(store.at("locks"), exist_ok=True)
    fd = os.open(lock_path(store), os.O_RDWR | os.O_CREAT, 0o600)
    if adopt(fd):
        return fd
    os.close(fd)
    return None


def adopt(fd: int) -> bool:
    """Take (or confirm) the lock on an open descriptor of the lock file; never blocks."""
    if sys.platform == "win32":
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def release(fd: int) -> None:
    """Drop the lock (closing the descriptor drops it for every copy this process holds)."""
    if fd >= 0:
        os.close(fd)


def runner_alive(store: Store) -> bool:
    """True when some process holds the runner lock right now (a try-lock, released at once).
    Creates nothing: without a lock file no runner has ever started here."""
    if sys.platform == "win32":
        return False
    try:
        fd = os.open(lock_path(store), os.O_RDWR)
    except OSError:
        return False
    try:
        return not adopt(fd)
    finally:
        os.close(fd)


def write_pid(store: Store) -> None:
    """Name this process as the runner (for the log and ``vaultkit doctor``; not the lock)."""
    atomic_write_text(pid_path(store), f"{os.getpid()}\n")


def read_pid(store: Store) -> int | None:
    try:  # bytes: a text file in "ascii" would cost every hook that finds a runner an import
        with open(pid_path(store), "rb") as handle:
            text = handle.read(32).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def clear_pid(store: Store) -> None:
    """Remove ``runner.pid`` when it still names this process."""
    if read_pid(store) != os.getpid():
        return
    try:  # noqa: SIM105  (contextlib would cost the hook an import)
        os.unlink(pid_path(store))
    except FileNotFoundError:
        pass
