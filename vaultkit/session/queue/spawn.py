"""Start the distillation worker fully detached from the hook that asked for it (lean: stdlib)."""

from __future__ import annotations

import os
import sys
import time

from vaultkit.agents.childenv import child_environment
from vaultkit.base import gitignore
from vaultkit.base.record import Record
from vaultkit.base.store import Store
from vaultkit.session.queue import runlock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import NoReturn

GUARD_ENV = "VAULTKIT_CHILD"
WORKER_NICENESS = 10  # from its first instruction the worker yields the CPU to the hooks
# A runner a hook starts waits this long before it execs: the other hooks of a burst (twenty
# sessions ending at once share Claude Code's 1.5 s) then run without its start-up CPU and its
# writes beside them. The lock is held while it waits, so they still only queue their jobs.
RUNNER_GRACE_SECONDS = 1.0


def worker_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The worker's environment: the agent's session variables removed, the guard variables set,
    so that nothing the worker starts (a ``claude -p`` child and its hooks) can recurse."""
    return child_environment(os.environ if env is None else env)


def worker_command(
    store: Store, session_id: str | None = None, lock_fd: int | None = None
) -> list[str]:
    command = [sys.executable, "-m", "vaultkit.session.worker", "--store", store.top]
    if session_id:
        command += ["--session", session_id]
    if lock_fd is not None and lock_fd >= 0:
        command += ["--lock-fd", str(lock_fd)]
    return command


def _max_fd() -> int:
    try:
        return max(256, os.sysconf("SC_OPEN_MAX"))
    except (AttributeError, ValueError, OSError):
        return 65536


def _close_all_but(keep: set[int]) -> None:
    """Close every descriptor from 3 up except those in ``keep``."""
    low = 3
    for fd in sorted(k for k in keep if k >= 3):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, _max_fd())


def _exec_worker(
    argv: list[str], cwd: str, env: dict[str, str], report: int, lock_fd: int, grace: float
) -> NoReturn:
    """In the forked grandchild: /dev/null stdio, no other descriptors but the runner lock
    (inherited through exec), cwd, low CPU priority, ``grace`` seconds' wait, then exec."""
    try:
        os.chdir(cwd)
        os.nice(WORKER_NICENESS)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        _close_all_but({report, lock_fd})
        if lock_fd >= 0:
            os.set_inheritable(lock_fd, True)
        if grace > 0:  # the hook waits for the report's end: check, end it, then wait
            if not os.access(argv[0], os.X_OK):
                raise FileNotFoundError(2, "cannot execute", argv[0])
            os.close(report)
            report = -1
            time.sleep(grace)
        os.execve(argv[0], argv, env)
    except OSError as exc:
        if report >= 0:
            os.write(report, f"E{exc.errno}\n".encode())
    finally:
        os._exit(127)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 256):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _spawn_posix(
    argv: list[str], cwd: str, env: dict[str, str], lock_fd: int, grace: float = 0.0
) -> int | None:
    """Double fork (the classic daemon start): the worker is nobody's child, leads no terminal,
    and runs in a new session. ``os`` only, so the hook does not pay for importing subprocess."""
    read_end, write_end = os.pipe()  # not inheritable: exec closes them in the worker
    middle = os.fork()
    if middle == 0:
        try:
            os.close(read_end)
            os.setsid()
            worker = os.fork()
            if worker == 0:
                _exec_worker(argv, cwd, env, write_end, lock_fd, grace)
            os.write(write_end, f"{worker}\n".encode())
        finally:
            os._exit(0)
    os.close(write_end)
    report = _read_all(read_end).decode().split()
    os.waitpid(middle, 0)
    if len(report) != 1 or not report[0].isdigit():
        return None  # the fork or the exec failed
    return int(report[0])


def _spawn_windows(argv: list[str], cwd: str, env: dict[str, str]) -> int | None:
    import subprocess

    flags = 0
    if sys.platform == "win32":
        flags = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            cwd=cwd,
            env=env,
            creationflags=flags,
        )
    except OSError:
        return None
    pid: int = process.pid
    return pid


def spawn_worker(
    store: Store, *, session_id: str | None = None, lock_fd: int | None = None, grace: float = 0.0
) -> int | None:
    """Start ``python -m vaultkit.session.worker --store ROOT [--session ID] [--lock-fd N]`` and
    return its pid without waiting: own session / process group, no inherited stdio or
    descriptors (except ``lock_fd``, the runner lock handed over), cleaned environment,
    cwd = the store root, after ``grace`` seconds (POSIX). Returns ``None`` when the process
    could not be started.
    Creates the store (with its ``.gitignore``) when it does not exist yet.
    """
    gitignore.ensure(store)
    argv, env = worker_command(store, session_id, lock_fd), worker_env()
    if hasattr(os, "fork"):
        try:
            fd = -1 if lock_fd is None else lock_fd
            return _spawn_posix(argv, store.top, env, fd, grace)
        except OSError:
            return None
    return _spawn_windows(argv, store.top, env)


class Runner(Record):
    """The queue runner a hook asked for: one it started, one already alive, or none."""

    pid: int | None
    started: bool

    def describe(self) -> str:
        if not self.started:
            return f"runner alive (pid {self.pid or '?'}), job left to it"
        return f"worker pid {self.pid}" if self.pid is not None else "worker could not be started"

    @property
    def ok(self) -> bool:
        """A runner is (or will be) draining the queue."""
        return not self.started or self.pid is not None


def start_runner(store: Store, grace: float = RUNNER_GRACE_SECONDS) -> Runner:
    """Start the store's queue runner unless one is alive (it holds the runner lock); it
    execs after ``grace`` seconds, holding the lock meanwhile.

    When the lock is free this process takes it and hands the descriptor to the runner it
    spawns, so the lock is never free in between and no other hook starts a second runner.
    """
    fd = runlock.try_lock(store)
    if fd is None:
        return Runner(pid=runlock.read_pid(store), started=False)
    try:
        return Runner(pid=spawn_worker(store, lock_fd=fd, grace=grace), started=True)
    finally:
        runlock.release(fd)  # the runner holds its own copy of the descriptor now
