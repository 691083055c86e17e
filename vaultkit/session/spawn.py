"""Start the distillation worker fully detached from the hook that asked for it (lean: stdlib)."""

from __future__ import annotations

import os
import sys

from vaultkit.agents.childenv import child_environment
from vaultkit.base import gitignore
from vaultkit.base.store import Store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import NoReturn

GUARD_ENV = "VAULTKIT_CHILD"


def worker_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The worker's environment: the agent's session variables removed, the guard variables set,
    so that nothing the worker starts (a ``claude -p`` child and its hooks) can recurse."""
    return child_environment(os.environ if env is None else env)


def worker_command(store: Store, session_id: str | None = None) -> list[str]:
    command = [sys.executable, "-m", "vaultkit.session.worker", "--store", store.top]
    if session_id:
        command += ["--session", session_id]
    return command


def _max_fd() -> int:
    try:
        return max(256, os.sysconf("SC_OPEN_MAX"))
    except (AttributeError, ValueError, OSError):
        return 65536


def _exec_worker(argv: list[str], cwd: str, env: dict[str, str], report: int) -> NoReturn:
    """In the forked grandchild: /dev/null stdio, no other descriptors, cwd, then exec."""
    try:
        os.chdir(cwd)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, report)
        os.closerange(report + 1, _max_fd())
        os.execve(argv[0], argv, env)
    except OSError as exc:
        os.write(report, f"E{exc.errno}\n".encode())
    finally:
        os._exit(127)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 256):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _spawn_posix(argv: list[str], cwd: str, env: dict[str, str]) -> int | None:
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
                _exec_worker(argv, cwd, env, write_end)
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


def spawn_worker(store: Store, *, session_id: str | None = None) -> int | None:
    """Start ``python -m vaultkit.session.worker --store ROOT [--session ID]`` and return its pid
    without waiting: own session / process group, no inherited stdio or descriptors, cleaned
    environment, cwd = the store root. Returns ``None`` when the process could not be started.
    Creates the store (with its ``.gitignore``) when it does not exist yet.
    """
    gitignore.ensure(store)
    argv, env = worker_command(store, session_id), worker_env()
    if hasattr(os, "fork"):
        try:
            return _spawn_posix(argv, store.top, env)
        except OSError:
            return None
    return _spawn_windows(argv, store.top, env)
