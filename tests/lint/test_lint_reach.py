"""File arguments bring in the notes a change can break: backlinks of named notes, and the notes
that linked to a listed path that no longer exists (a deletion, a rename's old name)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, require_program

BIN = Path(sys.executable).parent


def _vault(root: Path, extra: int = 0) -> Path:
    (root / ".obsidian").mkdir(parents=True)
    (root / "a.md").write_text("# Head\n\nBack to [[b]].\n", encoding="utf-8")
    (root / "b.md").write_text("See [[a]] and [[a#Head]].\n", encoding="utf-8")
    (root / "c.md").write_text("Only [[b]].\n", encoding="utf-8")
    for i in range(extra):  # enough notes for the lint cache (50+)
        (root / f"n{i:03d}.md").write_text(f"[[c]] [[n{(i + 1) % extra:03d}]]\n", encoding="utf-8")
    return root


def _lint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("extra", [0, 60], ids=["small", "cached"])
def test_a_listed_deleted_note_checks_the_notes_that_linked_to_it(
    tmp_path: Path, extra: int
) -> None:
    vault = _vault(tmp_path / "v", extra)
    assert _lint("-q", str(vault), cwd=tmp_path).returncode == 0  # warm the caches
    (vault / "a.md").unlink()
    done = _lint("--files-from", "-", cwd=tmp_path, stdin="v/a.md\n")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "v/b.md:1:5: VK101 [[a]]: no note named 'a'",
        "v/b.md:1:15: VK101 [[a#Head]]: no note named 'a'",
    ]
    assert "a.md no longer exists: checking the notes that linked to it" in done.stderr
    assert "no such file" not in done.stderr


def test_a_named_note_brings_in_its_backlinks(tmp_path: Path) -> None:
    vault = _vault(tmp_path / "v")
    (vault / "a.md").write_text("# Renamed head\n\nBack to [[b]].\n", encoding="utf-8")
    done = _lint(str(vault / "a.md"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # a broken anchor is a warning
    assert done.stdout == "v/b.md:1:15: VK105 [[a#Head]]: heading 'Head' not found in a.md\n"
    # c.md links only to b.md: a change to a.md cannot break it, so its findings stay out
    assert "c.md" not in done.stdout


def test_a_named_path_that_does_not_exist_is_still_an_error(tmp_path: Path) -> None:
    vault = _vault(tmp_path / "v")
    done = _lint(str(vault / "typo.md"), cwd=tmp_path)
    assert done.returncode == 2
    assert "typo.md: no such file or folder" in done.stderr


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "PRE_COMMIT_HOME": str(root.parent / "pre-commit-home"),
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, env=env)


def _local_hook_config() -> str:
    """This repository's vaultkit-lint hook as a local hook (same entry, filters and flags),
    run with the vaultkit of this test's environment."""
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "vaultkit-lint")
    local = {**hook, "language": "system", "args": ["v"]}
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]})


@pytest.mark.slow
def test_pre_commit_refuses_a_deletion_that_leaves_a_ghost(tmp_path: Path) -> None:
    require_program("git")
    pre_commit = BIN / "pre-commit"
    if not pre_commit.exists():
        pytest.skip("pre-commit is not installed in this environment (pip install -e '.[dev]')")
    root = tmp_path / "repo"
    _vault(root / "v")
    (root / ".pre-commit-config.yaml").write_text(_local_hook_config(), encoding="utf-8")
    assert _git(root, "init", "-q").returncode == 0
    install = subprocess.run(
        [str(pre_commit), "install"], cwd=root, capture_output=True, text=True, check=False
    )
    assert install.returncode == 0, install.stderr
    _git(root, "add", "-A")
    first = _git(root, "commit", "-qm", "vault")
    assert first.returncode == 0, first.stdout + first.stderr
    _git(root, "rm", "-q", "v/a.md")
    refused = _git(root, "commit", "-qm", "drop a")
    assert refused.returncode != 0, refused.stdout
    assert "v/b.md:1:5: VK101 [[a]]: no note named 'a'" in refused.stdout + refused.stderr
    (root / "v" / "b.md").write_text("No links left.\n", encoding="utf-8")
    (root / "v" / "a2.md").write_text("[[b]] [[c]]\n", encoding="utf-8")
    _git(root, "add", "-A")
    landed = _git(root, "commit", "-qm", "drop a, unlink b")
    assert landed.returncode == 0, landed.stdout + landed.stderr
