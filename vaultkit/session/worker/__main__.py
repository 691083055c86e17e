"""The detached distillation worker: ``python -m vaultkit.session.worker --store ROOT``.

For each queued job it can lock (oldest first): check that the transcript is its agent's own
(``job.agent``'s: :mod:`vaultkit.agents.transcripts`), wait for it to settle, copy it into
``raw/``, distil it (read with that agent's reader) into a summary and a wiki note, then —
under the store lock — regenerate INDEX.md and apply summary retention. Infrastructure errors
keep the job queued for a bounded number of attempts; a broken ``vaultkit.toml`` still gets the
raw copy (with the defaults) and keeps the job queued; past ``[distill] daily_budget`` the
session gets its offline note and waits for the next day's LLM call. Each LLM distillation's
cost goes to the cost log. No exception ever stops the loop.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from vaultkit.base.log import append_log
from vaultkit.base.store import Store
from vaultkit.session.queue import jobs, priority, runlock, scratch
from vaultkit.session.worker.outcome import Result, Status, store_logger
from vaultkit.session.worker.runner import run_runner, settle_from_env


def _summary(results: list[Result]) -> str:
    counts = Counter(result.status.value for result in results)
    return ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


def _exit_on_signals() -> None:
    """SIGTERM, SIGHUP and SIGINT unwind the worker (``finally`` blocks run): the LLM child's
    process group is killed, temp folders and markers removed, the job stays queued."""

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


def _take_lock(store: Store, lock_fd: int | None) -> int | None:
    """The runner lock: the descriptor the hook handed over, else a fresh try."""
    if lock_fd is None:
        return runlock.try_lock(store)
    os.set_inheritable(lock_fd, False)  # no LLM child or git keeps the lock alive
    if runlock.adopt(lock_fd):
        return lock_fd
    runlock.release(lock_fd)
    return None


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="vaultkit.session.worker")
    parser.add_argument("--store", required=True, type=Path, help="the sessions/ folder")
    parser.add_argument("--session", default=None, help="process only this session's job")
    parser.add_argument("--once", action="store_true", help="one pass over the queue")
    parser.add_argument("--lock-fd", type=int, default=None, help="the runner lock, handed over")
    return parser.parse_args(argv)


def _run(store: Store, lock_fd: int, args: argparse.Namespace) -> list[Result]:
    say = store_logger(store)
    lowered = priority.lower_priority()
    say(f"priority: nice {lowered.nice}, I/O {lowered.io}")
    swept = scratch.sweep(store)
    if swept:
        say(f"removed the temp folders of dead workers {', '.join(swept)}")
    torn = jobs.sweep_temps(store, time.time())
    if torn:
        say(f"removed {torn} temp file(s) of killed job writers")
    tmp = scratch.enter(store)
    try:
        return run_runner(
            store, lock_fd, session_id=args.session, once=args.once, settle=settle_from_env()
        )
    finally:
        scratch.leave(tmp)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vaultkit.session.worker --store ROOT [--session ID] [--once] [--lock-fd N]``."""
    args = _parse(argv)
    store = Store(args.store.resolve())
    _exit_on_signals()
    lock_fd = _take_lock(store, args.lock_fd)
    if lock_fd is None:
        append_log(store.log, f"worker[{os.getpid()}] a runner is draining the queue; exiting")
        return 0
    try:
        results = _run(store, lock_fd, args)
    except Exception as exc:  # the loop never raises; this guards set-up only
        append_log(store.log, f"worker[{os.getpid()}] stopped: {exc!r}")
        return 1
    if results:
        append_log(store.log, f"worker[{os.getpid()}] finished: {_summary(results)}")
    return 0 if all(r.status is not Status.FAILED for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
