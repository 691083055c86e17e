"""The move journal and the vault's write lock.

A move writes its journal (the rename, then each note's new text with the digest of its old
one) before anything moves, then plays it and deletes it. The next vaultkit command that reads
or writes the vault's notes (:func:`settle`: mv, lint, graph, links, the MCP tools) finds a
journal left by a kill and completes it (every step can be done again safely), or rolls it back
when it cannot be completed (its target exists now, or its source is gone): the rename is the
first step and the notes are written only after it, so a rename that never happened means no
note changed and rolling back is dropping the journal. It says which on stderr.

One writer at a time: a move and the MCP write tools hold ``locks/write.lock`` (``flock``, as
the queue runner's lock: the standard library, the kernel drops it when a killed holder dies,
so no stale lock; no ``filelock`` dependency needed for one POSIX lock).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.fsio import atomic_write_bytes, atomic_write_text
from vaultkit.base.statedir import ensure_folder
from vaultkit.curate import JOURNAL_NAME
from vaultkit.errors import VaultkitError

if sys.platform != "win32":
    import fcntl

LOCK_NAME = "write.lock"
LOCK_WAIT = 10.0  # seconds a writer waits for another one (VAULTKIT_LOCK_WAIT overrides)
FAULT_ENV = "VAULTKIT_MV_FAULT"  # tests only: "exit-after-rename", "exit-after-write"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Write:
    """Replace the note at ``path`` (its path after the move) with ``text`` if it still holds
    the text whose digest is ``before``."""

    path: str
    before: str
    text: str


@dataclass(frozen=True, slots=True)
class Journal:
    """One move: ``rename`` (old, new vault paths: a file or a whole folder) then ``writes``."""

    rename: tuple[str, str]
    writes: tuple[Write, ...]

    def dump(self) -> str:
        writes = [{"path": w.path, "before": w.before, "text": w.text} for w in self.writes]
        return json.dumps({"version": 1, "rename": list(self.rename), "writes": writes})

    @staticmethod
    def parse(text: str, where: Path) -> Journal:
        try:
            data = json.loads(text)
            old, new = data["rename"]
            writes = tuple(Write(w["path"], w["before"], w["text"]) for w in data["writes"])
            return Journal((str(old), str(new)), writes)
        except (ValueError, KeyError, TypeError) as exc:
            raise VaultkitError(
                f"{where}: the move journal is damaged ({exc})",
                hint="check the files it names by hand, then delete it",
            ) from exc


def journal_path(state_dir: Path) -> Path:
    return state_dir / JOURNAL_NAME


def begin(state_dir: Path, journal: Journal) -> Path:
    """Write the journal (atomically, durably) before anything moves."""
    ensure_folder(state_dir)
    path = journal_path(state_dir)
    atomic_write_text(path, journal.dump())
    return path


def _wait() -> float:
    try:
        return max(0.0, float(os.environ.get("VAULTKIT_LOCK_WAIT", LOCK_WAIT)))
    except ValueError:
        return LOCK_WAIT


@contextmanager
def locked(state_dir: Path) -> Iterator[None]:
    """Hold the vault's write lock (waiting up to :data:`LOCK_WAIT` seconds for another
    writer); a clear error when it stays taken."""
    if sys.platform == "win32":
        yield
        return
    folder = state_dir / "locks"
    ensure_folder(folder)
    path = folder / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + _wait()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise VaultkitError(
                        f"{path}: another vaultkit mv or MCP write is changing this vault",
                        hint="wait for it to finish, then run the command again",
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing drops the lock


def _fault(step: str) -> None:
    """Tests kill a move between steps through :data:`FAULT_ENV` (never set in use)."""
    if os.environ.get(FAULT_ENV) == f"exit-after-{step}":
        os._exit(97)


def _step(target: Path) -> Path:
    """The temporary name a case-only rename goes through."""
    return target.with_name(f".{target.name}.vaultkit-mv")


def _rename(root: Path, old: str, new: str) -> None:
    source, target = root / old, root / new
    if not os.path.lexists(source):
        if os.path.lexists(_step(target)):  # killed between a case-only rename's two steps
            os.rename(_step(target), target)
        return  # done already (or a second run after completion)
    if os.path.lexists(target) and not os.path.samefile(source, target):
        raise VaultkitError(f"{new}: exists already; the move was not completed")
    target.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(target):  # a case-only rename on a file system that ignores case
        step = _step(target)
        os.rename(source, step)
        os.rename(step, target)
    else:
        os.rename(source, target)


WRITERS = 8  # notes written at once: their fsyncs overlap (101 notes: 426-811 ms -> 36-97)


def _write(root: Path, write: Write) -> bool:
    """Do one write unless its note changed since the move was planned (then False)."""
    file = root / write.path
    try:
        current = file.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if current == write.text:
        return True
    if digest(current) != write.before:
        return False
    atomic_write_bytes(file, write.text.encode("utf-8"))
    _fault("write")
    return True


def play(root: Path, journal: Journal) -> list[str]:
    """Do (or finish) the journal's steps; returns the notes left alone because they changed
    since the move was planned. The notes are written by ``WRITERS`` threads (each write is
    atomic and its own; a kill leaves each note old or new, and the journal completes them),
    one at a time when a test kills the move between writes."""
    _rename(root, *journal.rename)
    _fault("rename")
    writes = journal.writes
    if os.environ.get(FAULT_ENV) or len(writes) < 2:
        done = [_write(root, w) for w in writes]
    else:
        with ThreadPoolExecutor(min(WRITERS, len(writes))) as pool:
            done = list(pool.map(lambda w: _write(root, w), writes))
    return [w.path for w, ok in zip(writes, done, strict=True) if not ok]


def finish(path: Path) -> None:
    path.unlink(missing_ok=True)


@dataclass(frozen=True, slots=True)
class Recovery:
    """A journal a kill left: ``done`` "completed" or "rolled back", and the notes left alone
    (changed since the move was planned) or why it was rolled back."""

    journal: Journal
    done: str
    left: tuple[str, ...]

    def line(self) -> str:
        old, new = self.journal.rename
        if self.done == "completed":
            left = f"; left alone (changed since): {', '.join(self.left)}" if self.left else ""
            return f"completed an interrupted move first: {old} -> {new}{left}"
        return f"rolled back an interrupted move {old} -> {new}: {'; '.join(self.left)}"


def _settle_journal(root: Path, journal: Journal) -> Recovery:
    old, new = journal.rename
    source, target = root / old, root / new
    has_source, has_target = os.path.lexists(source), os.path.lexists(target)
    if not has_source and not has_target and not os.path.lexists(_step(target)):
        why = f"{old} is gone and {new} does not exist; no note was changed"
        return Recovery(journal, "rolled back", (why,))
    if has_source and has_target and not os.path.samefile(source, target):
        why = f"{new} exists now; {old} was not moved and no note was changed"
        return Recovery(journal, "rolled back", (why,))
    return Recovery(journal, "completed", tuple(play(root, journal)))


def recover(root: Path, state_dir: Path) -> Recovery | None:
    """Complete (or roll back) a move a kill interrupted; None when there is none. The caller
    holds the lock."""
    path = journal_path(state_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VaultkitError(f"{path}: cannot read the move journal ({exc})") from exc
    found = _settle_journal(root, Journal.parse(text, path))
    finish(path)
    return found


def settle(
    root: Path, state_dir: Path, say: Callable[[str], None] | None = None
) -> Recovery | None:
    """What every command that reads or writes the vault's notes does first: a journal left by
    a kill is completed or rolled back (under the lock), and said on stderr (or to ``say``).
    One ``stat`` when there is none."""
    if not journal_path(state_dir).is_file():
        return None
    with locked(state_dir):
        found = recover(root, state_dir)
    if found is not None:
        (say or _stderr)(found.line())
    return found


@contextmanager
def writing(root: Path, state_dir: Path) -> Iterator[None]:
    """Hold the write lock, a move a kill interrupted settled first under the same hold (a
    second ``flock`` of the same file from this process would wait for the first)."""
    with locked(state_dir):
        found = recover(root, state_dir)
        if found is not None:
            _stderr(found.line())
        yield


def _stderr(line: str) -> None:
    print(f"vaultkit: {line}", file=sys.stderr)
