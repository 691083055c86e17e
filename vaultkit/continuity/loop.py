"""The restart loop (README, "Continuity"): run the agent, wait for its distillation,
count down, run it again; ``q`` during a countdown quits.

The distillation wait is bounded and shows a countdown. It watches the store's own queue and
in-progress markers (the store is found from the current folder, so a subfolder works), and
only for sessions whose job was written after this run of the agent started.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.queue import jobs

Say = Callable[[str], None]


@dataclass(slots=True)
class Watch:
    """Sessions of this project that ended since ``since`` (epoch seconds) and their state."""

    store: Store
    since: float
    seen: set[str] = field(default_factory=set)

    def pending(self) -> list[str]:
        """Sessions still queued (not yet failed) or being distilled."""
        waiting = set()
        for path, job in jobs.list_jobs(self.store):
            with contextlib.suppress(OSError):
                if path.stat().st_mtime >= self.since - 1 or job.session_id in self.seen:
                    self.seen.add(job.session_id)
                    if not job.last_error:
                        waiting.add(job.session_id)
        running = {m.session_id for m in jobs.live_running(self.store)}
        waiting |= running & self.seen
        return sorted(waiting)


@contextlib.contextmanager
def _cbreak() -> Iterator[bool]:
    """Single-key input on a POSIX terminal; yields whether keys can be read at all."""
    stream = sys.stdin
    if stream is None or not stream.isatty() or os.name != "posix":
        yield stream is not None and os.name == "posix"
        return
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _key_within(seconds: float, can_read: bool) -> str:
    """A key (or line) typed within ``seconds``; ``""`` when none."""
    if sys.platform == "win32":  # pragma: no cover - Windows console
        import msvcrt

        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if msvcrt.kbhit():
                return str(msvcrt.getwch())
            time.sleep(0.05)
        return ""
    if not can_read:
        time.sleep(seconds)
        return ""
    ready, _, _ = select.select([sys.stdin], [], [], seconds)
    if not ready:
        return ""
    data = os.read(sys.stdin.fileno(), 64).decode("utf-8", "replace")
    return data or "\x04"


def _status(text: str) -> None:
    sys.stderr.write(f"\r\x1b[K{text}")
    sys.stderr.flush()


def wait_distilled(watch: Watch, timeout: float, *, can_read: bool = False) -> list[str]:
    """Wait (bounded) until the sessions ended since the agent started are distilled.

    Returns the sessions still pending when the wait ended (empty: all done). ``q`` stops waiting.
    """
    end = time.monotonic() + max(0.0, timeout)
    while True:
        waiting = watch.pending()
        left = end - time.monotonic()
        if not waiting or left <= 0:
            _status("")
            return waiting
        ids = ", ".join(w[:8] for w in waiting)
        _status(f"vaultkit loop: waiting for the distillation of {ids} ({left:.0f}s left; q skips)")
        if _key_within(min(1.0, left), can_read).strip().lower() == "q":
            _status("")
            return waiting


def countdown(delay: int, *, can_read: bool) -> bool:
    """Count down ``delay`` seconds; False when the user typed ``q`` (or closed the input)."""
    for left in range(max(0, delay), 0, -1):
        _status(f"vaultkit loop: restarting in {left}s (q quits)")
        key = _key_within(1.0, can_read).strip().lower()
        if key in ("q", "\x04"):
            _status("vaultkit loop: stopped\n")
            return False
    _status("")
    return True


def run_agent(argv: Sequence[str]) -> int:
    """Run the agent in the foreground; Ctrl-C goes to the agent, not to the loop."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return subprocess.call(list(argv))
    except FileNotFoundError as exc:
        raise VaultkitError(
            f"agent command not found: {argv[0]}",
            hint="give the agent command after --, e.g. vaultkit loop -- claude",
        ) from exc
    finally:
        signal.signal(signal.SIGINT, previous)


def run_loop(
    argv: Sequence[str],
    store: Store,
    *,
    delay: int = 5,
    wait: float = 120.0,
    say: Say | None = None,
) -> int:
    """Run ``argv`` again and again until ``q``; returns the agent's last exit code."""
    if not argv:
        raise VaultkitError("no agent command", hint="vaultkit loop -- claude")
    tell = say or (lambda text: print(text, file=sys.stderr, flush=True))
    code = 0
    while True:
        started = time.time()
        code = run_agent(argv)
        tell(f"vaultkit loop: {argv[0]} exited with code {code}")
        with _cbreak() as can_read:
            left = wait_distilled(Watch(store, started), wait, can_read=can_read)
            if left:
                tell(f"vaultkit loop: distillation still running for {', '.join(left)}")
            if not countdown(delay, can_read=can_read):
                return code
