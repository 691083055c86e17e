"""Run this process at low CPU and I/O priority, so a distilling worker never competes with the
agent the user is typing into (Linux I/O priority via the ``ioprio_set`` system call).

Both settings are inherited by the processes the worker starts (the LLM child, ``git``).
"""

from __future__ import annotations

import os
import platform

from vaultkit.base.record import Record
from vaultkit.session.queue.spawn import WORKER_NICENESS as NICENESS

IOPRIO_CLASS_BE = 2  # best effort; level 7 is its lowest. Idle could starve on a busy disk.
IOPRIO_LEVEL = 7
IOPRIO_CLASS_SHIFT = 13
IOPRIO_WHO_PROCESS = 1
# ``ioprio_set`` numbers per architecture (ioprio_get is the next one on every one of them).
IOPRIO_SET = {
    "x86_64": 251,
    "i386": 289,
    "i686": 289,
    "aarch64": 30,
    "riscv64": 30,
    "armv7l": 314,
    "ppc64le": 273,
    "s390x": 282,
}


class Priority(Record):
    """What :func:`lower_priority` achieved (for the log)."""

    nice: int | None  # the niceness now, None where os.nice does not exist
    io: str  # "best-effort 7", or why the I/O priority was left alone


def ioprio_value(klass: int = IOPRIO_CLASS_BE, level: int = IOPRIO_LEVEL) -> int:
    return (klass << IOPRIO_CLASS_SHIFT) | level


def _lower_cpu() -> int | None:
    if not hasattr(os, "nice"):
        return None
    current = os.nice(0)
    if current >= NICENESS:
        return current
    try:
        return os.nice(NICENESS - current)
    except OSError:
        return current


def _lower_io() -> str:
    number = IOPRIO_SET.get(platform.machine())
    if platform.system() != "Linux" or number is None:
        return f"left alone on {platform.system()} {platform.machine()}"
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(number, IOPRIO_WHO_PROCESS, 0, ioprio_value()) != 0:
        return f"left alone: ioprio_set failed ({os.strerror(ctypes.get_errno())})"
    return f"best-effort {IOPRIO_LEVEL}"


def lower_priority() -> Priority:
    """Nice this process to at least 10 and set its I/O priority to best-effort 7 (Linux)."""
    return Priority(nice=_lower_cpu(), io=_lower_io())
