"""Start the distillation worker fully detached from the hook that asked for it (lean: stdlib)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping

from vaultkit.store import Store

GUARD_ENV = "VAULTKIT_CHILD"
_DROPPED_EXACT = frozenset({"CLAUDECODE"})
_DROPPED_PREFIXES = ("CLAUDE_CODE_",)


def worker_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The worker's environment: the agent's session variables removed, the guard variable set,
    so that nothing the worker starts (a ``claude -p`` child and its hooks) can recurse."""
    source = os.environ if env is None else env
    cleaned = {
        key: value
        for key, value in source.items()
        if key not in _DROPPED_EXACT and not key.startswith(_DROPPED_PREFIXES)
    }
    cleaned[GUARD_ENV] = "1"
    return cleaned


def worker_command(store: Store, session_id: str | None = None) -> list[str]:
    command = [sys.executable, "-m", "vaultkit.session.worker", "--store", str(store.root)]
    if session_id:
        command += ["--session", session_id]
    return command


def _creation_flags() -> int:
    """Windows: no console, own process group. POSIX uses ``start_new_session`` instead."""
    if sys.platform == "win32":
        return subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP
    return 0


def spawn_worker(store: Store, *, session_id: str | None = None) -> int | None:
    """Start ``python -m vaultkit.session.worker --store ROOT [--session ID]`` and return its pid
    without waiting: own session / process group, no inherited stdio or descriptors, cleaned
    environment, cwd = the store root. Returns ``None`` when the process could not be started.
    """
    store.root.mkdir(parents=True, exist_ok=True)
    try:
        process = subprocess.Popen(
            worker_command(store, session_id),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            cwd=store.root,
            env=worker_env(),
            start_new_session=sys.platform != "win32",
            creationflags=_creation_flags(),
        )
    except OSError:
        return None
    pid: int = process.pid
    return pid
