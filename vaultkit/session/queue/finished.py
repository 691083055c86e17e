"""Is a transcript provably finished, so that backfill may distil it? (lean: stdlib only).

The rule, from facts about the file and the processes, never from a guess:

- **Finished at once** when (1) its last line is a complete JSON record (the file ends with a
  newline and that line parses) whose ``type`` is ``cost-state`` — the record Claude Code (2.1)
  appends as its process exits, once per run (every captured transcript ends with it) — and
  (2) the file has not changed for :data:`SETTLE_SECONDS` and (3) no live process has it open
  for writing (Linux: ``/proc/*/fd`` with the access mode from ``/proc/*/fdinfo``).
- **Finished as a last resort** when it has not changed for :data:`IDLE_SECONDS` (a crash, a
  killed terminal, an agent that writes no exit record) and no live process has it open for
  writing.
- Where open files cannot be listed (no ``/proc``), only the last-resort age counts.

Exit records are per agent (its lean part's ``is_exit``, :func:`is_exit`). Codex CLI writes none,
but it holds its rollout open for writing for its whole life (seen in ``/proc`` from its
SessionStart, Stop and SessionEnd hooks), so a rollout whose last line is a finished turn
(``event_msg`` ``task_complete``) and that no live process holds open is one whose Codex has
exited; a rollout cut off mid-turn waits for the last resort. Gemini CLI's chat files have no
exit record (``is_exit`` is ``None``) and Gemini opens the file for each append
(``appendFileSync``), so ``/proc`` never shows its writer: only the last resort counts.
"""

from __future__ import annotations

import json
import os

from vaultkit.agents import known
from vaultkit.base.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SETTLE_SECONDS = 2.0
IDLE_SECONDS = 300.0
TAIL_BYTES = 64 * 1024
PROC = "/proc"


class Facts(Record):
    """What was observed about one transcript (kept for the log and the tests)."""

    path: str
    age: float  # seconds since the last change
    closed: bool  # its last line is a complete exit record
    written: bool | None  # a live process has it open for writing (None: not known or not asked)

    @property
    def finished(self) -> bool:
        if self.written:
            return False
        if self.closed and self.written is False and self.age >= SETTLE_SECONDS:
            return True
        return self.age >= IDLE_SECONDS


def last_record(path: str) -> dict[str, object] | None:
    """The last line of ``path`` as a JSON object when it is complete (ends with a newline)."""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - TAIL_BYTES))
            tail = handle.read()
    except OSError:
        return None
    if not tail.endswith(b"\n"):
        return None
    line = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def is_exit(record: Mapping[str, object], agent: str = known.DEFAULT) -> bool:
    """True for the last record ``agent`` writes before it exits (with no live writer, for Codex:
    see the module's docstring); never for an agent without one (Gemini)."""
    check = known.lean(agent).is_exit
    return check is not None and check(record)


def is_closed(path: str, agent: str = known.DEFAULT) -> bool:
    """True when ``path`` ends with ``agent``'s exit record (never for an agent without one)."""
    check = known.lean(agent).is_exit
    if check is None:
        return False
    record = last_record(path)
    return record is not None and check(record)


def _writes(fdinfo: str) -> bool:
    """True when the descriptor described by ``/proc/PID/fdinfo/FD`` may write."""
    try:
        with open(fdinfo, encoding="ascii") as handle:
            for line in handle:
                if line.startswith("flags:"):
                    return (int(line.split()[1], 8) & os.O_ACCMODE) in (os.O_WRONLY, os.O_RDWR)
    except (OSError, ValueError, IndexError):
        return False
    return False


def _open_in(pid: str, targets: frozenset[str]) -> set[str]:
    fd_dir = f"{PROC}/{pid}/fd"
    try:
        fds = os.listdir(fd_dir)
    except OSError:  # gone, or another user's process
        return set()
    found: set[str] = set()
    for fd in fds:
        try:
            target = os.readlink(f"{fd_dir}/{fd}")
        except OSError:
            continue
        if target in targets and _writes(f"{PROC}/{pid}/fdinfo/{fd}"):
            found.add(target)
    return found


def open_for_writing(paths: list[str]) -> set[str] | None:
    """Which of ``paths`` (real paths) a live process has open for writing; ``None`` where the
    system does not say (no ``/proc``)."""
    if not os.path.isdir(f"{PROC}/self/fd"):
        return None
    targets = frozenset(paths)
    found: set[str] = set()
    for pid in os.listdir(PROC):
        if pid.isdigit():
            found |= _open_in(pid, targets)
    return found


def _eligible(age: float, closed: bool) -> bool:
    """Finished unless a live writer holds it (the only case worth scanning ``/proc`` for)."""
    return age >= IDLE_SECONDS or (closed and age >= SETTLE_SECONDS)


def observe(paths: list[str], now: float, agent: str = known.DEFAULT) -> list[Facts]:
    """The facts about each of ``agent``'s transcripts. Open files are listed once, and only when
    some transcript would be finished but for a live writer (a scan costs ~15 ms per 100
    processes)."""
    seen: list[tuple[str, float, bool]] = []
    for path in paths:
        try:
            age = now - os.stat(path).st_mtime
        except OSError:
            continue
        seen.append((path, age, is_closed(path, agent)))
    real = {path: os.path.realpath(path) for path, age, closed in seen if _eligible(age, closed)}
    writers = open_for_writing(sorted(set(real.values()))) if real else set()
    return [
        Facts(
            path=path,
            age=age,
            closed=closed,
            written=None if writers is None or path not in real else real[path] in writers,
        )
        for path, age, closed in seen
    ]
