"""Derived state in a user's vault: ``.vaultkit/`` ignores itself in git, and no SQLite side
files (``-wal``, ``-shm``) remain once a command has exited. Real processes, real git."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import require_program

from benchmarks.generate import write_vault
from vaultkit.base.statedir import ensure_folder
from vaultkit.vault.thresholds import TABLE


def vaultkit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def _side_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(("-wal", "-shm", "-journal")))


@pytest.mark.slow
def test_commands_leave_an_ignored_state_folder_without_side_files(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "vault", TABLE.cache_min_notes + 20, 7)  # big enough for caches
    require_program("git")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    state = root / ".vaultkit"
    vaultkit("lint", "-q", ".", cwd=root)  # cold: both caches written
    assert {"cache.sqlite", "lint.sqlite", ".gitignore"} <= {p.name for p in state.iterdir()}
    assert _side_files(state) == []
    note = next(root.glob("*.md"))
    note.write_text(note.read_text(encoding="utf-8") + "\n[[Somewhere new]]\n", encoding="utf-8")
    for args in (("lint", "-q", "."), ("lint", "-q", "."), ("index", "-q", "."), ("graph", ".")):
        vaultkit(*args, cwd=root)  # incremental, stored, the index's log, the note cache read
        assert _side_files(state) == [], args
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert ".vaultkit" not in status
    assert "INDEX.md" in status  # git does see the vault's own files


def test_the_gitignore_is_written_once_and_never_replaced(tmp_path: Path) -> None:
    state = tmp_path / "v" / ".vaultkit"
    ensure_folder(state)
    assert (state / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    (state / ".gitignore").write_text("# mine\n*\n!keep.txt\n", encoding="utf-8")
    ensure_folder(state)
    assert (state / ".gitignore").read_text(encoding="utf-8") == "# mine\n*\n!keep.txt\n"
    ensure_folder(tmp_path / "other")
    assert not (tmp_path / "other" / ".gitignore").exists()  # only state folders
