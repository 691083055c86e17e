"""The store's ``sessions/.gitattributes``: the block vaultkit owns, and what real git does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import require_program

from vaultkit.base import gitattributes, gitignore
from vaultkit.base.store import Store


def test_the_block_is_added_once_and_the_users_lines_are_kept() -> None:
    mine = "*.png binary\n# my notes\n"
    first = gitattributes.merged(mine)
    assert first.startswith(mine) and "wiki/INDEX.md merge=union\n" in first
    assert gitattributes.merged(first) == first
    assert gitattributes.merged("*.png binary") == "*.png binary\n" + gitattributes.block()
    stale = mine + gitattributes.BEGIN + "\nold rule\n" + gitattributes.END + "\ntail\n"
    assert gitattributes.merged(stale) == mine + gitattributes.block() + "tail\n"


def test_a_new_store_gets_both_files_and_sync_writes_only_on_change(tmp_path: Path) -> None:
    store = Store(tmp_path / "proj" / "sessions")
    gitignore.ensure(store)
    path = Path(store.at("gitattributes"))
    assert path.read_text(encoding="utf-8") == gitattributes.block()
    assert Path(store.at("gitignore")).is_file()
    assert gitattributes.sync(store) is False
    path.write_text("*.pdf binary\n", encoding="utf-8")
    gitignore.ensure(store)  # present: the hooks leave it alone
    assert path.read_text(encoding="utf-8") == "*.pdf binary\n"
    assert gitattributes.sync(store) is True  # the worker brings it up to date
    assert path.read_text(encoding="utf-8") == "*.pdf binary\n" + gitattributes.block()


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=30, check=True
    )
    return done.stdout


def test_git_merges_index_md_as_a_union_with_no_config_of_its_own(tmp_path: Path) -> None:
    require_program("git")
    project = tmp_path / "proj"
    project.mkdir()
    git("init", "-q", cwd=project)
    store = Store(project / "sessions")
    gitignore.ensure(store)
    said = git("check-attr", "merge", "--", "sessions/wiki/INDEX.md", cwd=project)
    assert said.strip() == "sessions/wiki/INDEX.md: merge: union"
    other = git("check-attr", "merge", "--", "sessions/wiki/note.md", cwd=project)
    assert other.strip().endswith("merge: unspecified")  # the notes merge as usual


def doctor(project: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "doctor"],
        capture_output=True,
        text=True,
        cwd=project,
        env=os.environ,
        timeout=60,
        check=False,
    )
    (line,) = [ln for ln in done.stdout.splitlines() if ln[6:].startswith("git merge:")]
    return line


def test_doctor_says_whether_git_merges_index_md_as_a_union(tmp_path: Path) -> None:
    require_program("git")
    project = tmp_path / "proj"
    (project / "sessions" / "wiki").mkdir(parents=True)
    git("init", "-q", cwd=project)
    line = doctor(project)
    assert line.startswith("warn  git merge: git merges sessions/wiki/INDEX.md with unspecified")
    assert "will conflict" in line
    gitignore.ensure(Store(project / "sessions"))
    line = doctor(project)
    assert line == (
        "ok    git merge: sessions/wiki/INDEX.md merges as a union: two clones never conflict"
    )
