"""The move journal: what a move is about to do, written before it starts, so that the next
``vaultkit mv`` completes a move a kill interrupted (every step can be done again safely)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.fsio import atomic_write_bytes, atomic_write_text
from vaultkit.base.statedir import ensure_folder
from vaultkit.errors import VaultkitError

JOURNAL_NAME = "mv-journal.json"


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


def _rename(root: Path, old: str, new: str) -> None:
    source, target = root / old, root / new
    if not os.path.lexists(source):
        return  # done already (or a second run after completion)
    if os.path.lexists(target) and not os.path.samefile(source, target):
        raise VaultkitError(f"{new}: exists already; the move was not completed")
    target.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(target):  # a case-only rename on a file system that ignores case
        step = target.with_name(f".{target.name}.vaultkit-mv")
        os.rename(source, step)
        os.rename(step, target)
    else:
        os.rename(source, target)


def play(root: Path, journal: Journal) -> list[str]:
    """Do (or finish) the journal's steps; returns the notes left alone because they changed
    since the move was planned."""
    _rename(root, *journal.rename)
    skipped: list[str] = []
    for write in journal.writes:
        file = root / write.path
        try:
            current = file.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            skipped.append(write.path)
            continue
        if current == write.text:
            continue
        if digest(current) != write.before:
            skipped.append(write.path)
            continue
        atomic_write_bytes(file, write.text.encode("utf-8"))
    return skipped


def finish(path: Path) -> None:
    path.unlink(missing_ok=True)


def recover(root: Path, state_dir: Path) -> tuple[Journal, list[str]] | None:
    """Complete a move a kill interrupted: the journal found, and the notes left alone."""
    path = journal_path(state_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VaultkitError(f"{path}: cannot read the move journal ({exc})") from exc
    journal = Journal.parse(text, path)
    skipped = play(root, journal)
    finish(path)
    return journal, skipped
