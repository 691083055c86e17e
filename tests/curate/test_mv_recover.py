"""An interrupted ``vaultkit mv`` (a real process killed between its steps) is completed or
rolled back by the next command that reads the vault; one writer at a time; case-only renames."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.curate import journal as jr
from vaultkit.curate.apply import move

LINKER = "See [[Old note]] and [[Old note#Goals|the goals]].\n"


def _vk(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    where = ["--vault", str(root)] if args[0] == "mv" else [str(root)]
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args, *where],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    root.mkdir()
    (root / "Old note.md").write_text("# Old\n\n## Goals\n\ngoal\n", encoding="utf-8")
    (root / "A.md").write_text(LINKER, encoding="utf-8")
    (root / "B.md").write_text(LINKER, encoding="utf-8")
    return root


def _state(root: Path) -> Path:
    return root / ".vaultkit"


@pytest.mark.slow  # three CLI runs
def test_a_move_killed_after_one_write_is_completed_by_the_next_graph(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    killed = _vk(root, "mv", "Old note.md", "New.md", VAULTKIT_MV_FAULT="exit-after-write")
    assert killed.returncode == 97, killed.stderr
    assert jr.journal_path(_state(root)).is_file()
    texts = {(root / n).read_text(encoding="utf-8") for n in ("A.md", "B.md")}
    assert len(texts) == 2  # one note rewritten, the other not yet
    after = _vk(root, "graph", "--format", "json")
    assert after.returncode == 0, after.stderr
    assert "completed an interrupted move first: Old note.md -> New.md" in after.stderr
    assert not jr.journal_path(_state(root)).exists()
    for name in ("A.md", "B.md"):
        assert (root / name).read_text(encoding="utf-8") == LINKER.replace("Old note", "New")
    lint = _vk(root, "lint")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "interrupted" not in lint.stderr  # said once, by the command that settled it


@pytest.mark.slow  # two CLI runs
def test_a_move_that_cannot_be_completed_is_rolled_back_by_lint(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    state = _state(root)
    vault_before = {p.name: p.read_bytes() for p in root.glob("*.md")}
    journal = jr.Journal(("Old note.md", "New.md"), (jr.Write("A.md", "x", "changed\n"),))
    jr.begin(state, journal)  # as a run killed before its rename left it
    (root / "New.md").write_text("# someone else's note\n", encoding="utf-8")  # target taken now
    after = _vk(root, "lint")
    assert "rolled back an interrupted move Old note.md -> New.md" in after.stderr
    assert "New.md exists now" in after.stderr
    assert not jr.journal_path(state).exists()
    for name, data in vault_before.items():
        assert (root / name).read_bytes() == data


@pytest.mark.slow  # one CLI run
def test_a_second_writer_waits_for_the_lock_then_says_who_holds_it(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    lock = _state(root) / "locks" / jr.LOCK_NAME
    lock.parent.mkdir(parents=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        blocked = _vk(root, "mv", "Old note.md", "New.md", VAULTKIT_LOCK_WAIT="0.2")
    finally:
        os.close(fd)
    assert blocked.returncode != 0
    assert "another vaultkit mv or MCP write is changing this vault" in blocked.stderr
    assert "Traceback" not in blocked.stderr
    assert (root / "Old note.md").is_file() and not (root / "New.md").exists()
    moved = _vk(root, "mv", "Old note.md", "New.md")  # the lock is free again
    assert moved.returncode == 0, moved.stderr


def test_a_case_only_rename_moves_the_note_and_keeps_its_links(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    outcome = move(root, "Old note.md", "old Note.md", state_dir=tmp_path / "state")
    assert outcome.moves == (("Old note.md", "old Note.md"),)
    assert sorted(p.name for p in root.glob("*.md")) == ["A.md", "B.md", "old Note.md"]
    # links match names ignoring case, so every link still names it: no byte of them changes
    assert (root / "A.md").read_text(encoding="utf-8") == LINKER


def test_the_case_only_rename_step_goes_through_a_temporary_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a file system that ignores case, ``Note.md`` "exists" (it is ``note.md``): the rename
    goes through a temporary name. Simulated: the new name looks up the same file."""
    root = tmp_path / "v"
    root.mkdir()
    (root / "note.md").write_text("x\n", encoding="utf-8")
    real_lexists, real_samefile, real_rename = os.path.lexists, os.path.samefile, os.rename
    calls: list[tuple[str, str]] = []

    def folded(path: str | os.PathLike[str]) -> str:
        text = os.fspath(path)
        return text.replace("Note.md", "note.md") if text.endswith("/Note.md") else text

    def rename(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> None:
        calls.append((Path(a).name, Path(b).name))
        real_rename(a, b)

    monkeypatch.setattr(os.path, "lexists", lambda p: real_lexists(folded(p)))
    monkeypatch.setattr(os.path, "samefile", lambda a, b: real_samefile(folded(a), folded(b)))
    monkeypatch.setattr(os, "rename", rename)
    jr.play(root, jr.Journal(("note.md", "Note.md"), ()))
    assert calls == [("note.md", ".Note.md.vaultkit-mv"), (".Note.md.vaultkit-mv", "Note.md")]
    assert sorted(p.name for p in root.iterdir()) == ["Note.md"]


def test_a_case_only_rename_killed_between_its_steps_is_completed(tmp_path: Path) -> None:
    root = tmp_path / "v"
    root.mkdir()
    (root / ".Note.md.vaultkit-mv").write_text("x\n", encoding="utf-8")  # after step one
    state = tmp_path / "state"
    jr.begin(state, jr.Journal(("note.md", "Note.md"), ()))
    found = jr.settle(root, state, say=lambda line: None)
    assert found is not None and found.done == "completed"
    assert sorted(p.name for p in root.iterdir()) == ["Note.md"]
