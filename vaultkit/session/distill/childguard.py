"""Run an LLM child so that it dies with the worker: ``python -m vaultkit.session.distill.childguard
PARENT -- COMMAND...`` (lean: stdlib ``os`` and ``signal`` only).

The worker starts this guard as the leader of a new process group; the guard starts COMMAND in
the same group (stdin, stdout and stderr are the worker's pipes, passed straight through) and
waits. The moment its parent PARENT is gone — the worker died, even by SIGKILL — the guard kills
the whole group: COMMAND and anything COMMAND started. It notices through ``PR_SET_PDEATHSIG``
(Linux: SIGTERM at once) or, on other POSIX systems, by polling its parent every 0.1 s.
Exit status: COMMAND's (128 + N when a signal N ended it); 127 when COMMAND could not start.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import FrameType
    from typing import NoReturn

POLL_SECONDS = 0.1
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def kill_group(_signum: int = 0, _frame: FrameType | None = None) -> NoReturn:
    """SIGKILL this process's group: the command, its children, and this guard."""
    os.killpg(0, signal.SIGKILL)
    os._exit(137)  # not reached


def _arm_death_signal() -> bool:
    """Ask the kernel for SIGTERM when the parent dies (Linux); False where that is not there."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    result: int = ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    return result == 0


def _start(command: Sequence[str]) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
            os.execvp(command[0], list(command))
        except OSError as exc:
            os.write(2, f"childguard: cannot start {command[0]}: {exc}\n".encode())
        finally:
            os._exit(127)
    return pid


def _exit_code(status: int) -> int:
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def _wait(pid: int, parent: int, armed: bool) -> int:
    """Wait for the command; without the death signal, check the parent every 0.1 s."""
    if armed:  # SIGTERM interrupts the wait and kills the group
        return _exit_code(os.waitpid(pid, 0)[1])
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return _exit_code(status)
        if os.getppid() != parent:
            kill_group()
        time.sleep(POLL_SECONDS)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3 or args[1] != "--" or not args[0].isdigit():
        os.write(2, b"usage: python -m vaultkit.session.distill.childguard PARENT -- COMMAND...\n")
        return 2
    parent = int(args[0])
    signal.signal(signal.SIGTERM, kill_group)
    signal.signal(signal.SIGHUP, kill_group)
    armed = _arm_death_signal()
    if os.getppid() != parent:  # the worker died before the death signal was armed
        kill_group()
    return _wait(_start(args[2:]), parent, armed)


if __name__ == "__main__":
    sys.exit(main())
