"""`.pre-commit-hooks.yaml` for real: `pre-commit try-repo` in a temporary git repository, and
the declared `entry` commands run as written."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, require_program

HOOKS_FILE = REPO / ".pre-commit-hooks.yaml"
BIN = Path(sys.executable).parent


def _hooks() -> dict[str, dict[str, object]]:
    hooks = yaml.safe_load(HOOKS_FILE.read_text(encoding="utf-8"))
    return {hook["id"]: hook for hook in hooks}


def _project(root: Path, *, ghost: bool) -> Path:
    """A git repository whose session wiki (sessions/wiki at the git root) has a current
    INDEX.md, with or without a ghost link."""
    require_program("git")
    wiki = root / "sessions" / "wiki"
    wiki.mkdir(parents=True)
    (wiki / "A.md").write_text("---\ntitle: Alpha\n---\nSee [[B]].\n", encoding="utf-8")
    extra = " and [[Nowhere]]" if ghost else ""
    (wiki / "B.md").write_text(f"# Beta\n\nBack to [[A]]{extra}.\n", encoding="utf-8")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["vaultkit", "index", "-q", str(wiki)], check=True, env=env)
    shutil.rmtree(root / "sessions" / ".vaultkit")  # the index run's log is not project content
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    return root


def _git_env(tmp_path: Path) -> dict[str, str]:
    identity = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    return {**os.environ, **identity, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}


def test_hooks_file_declares_both_hooks_and_lint_gets_the_changed_files() -> None:
    hooks = _hooks()
    assert set(hooks) == {"vaultkit-lint", "vaultkit-index-check"}
    for hook in hooks.values():
        assert hook["language"] == "python"
    assert hooks["vaultkit-lint"]["pass_filenames"] is True
    assert hooks["vaultkit-lint"]["always_run"] is True  # a deletion passes no file names
    assert hooks["vaultkit-lint"]["entry"] == "vaultkit lint --staged"
    assert hooks["vaultkit-index-check"]["pass_filenames"] is False
    assert hooks["vaultkit-index-check"]["entry"] == "vaultkit index --check"


def test_lint_entry_with_changed_files_reports_only_those(tmp_path: Path) -> None:
    """pre-commit appends the changed files, from anywhere in the repository."""
    project = _project(tmp_path / "p", ghost=True)
    commit = subprocess.run(["git", "commit", "-qm", "v"], cwd=project, env=_git_env(tmp_path))
    assert commit.returncode == 0  # nothing staged: --staged adds no note of its own
    (project / "README.md").write_text("[[Not a vault note]]\n", encoding="utf-8")
    entry = shlex.split(str(_hooks()["vaultkit-lint"]["entry"]))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    run = [*entry, "README.md", "sessions/wiki/A.md"]
    clean = subprocess.run(run, cwd=project, capture_output=True, text=True, env=env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert clean.stdout == ""  # B.md's ghost is not reported: B.md did not change
    assert "README.md is not in the vault" in clean.stderr
    run = [*entry, "sessions/wiki/B.md", "README.md"]
    ghost = subprocess.run(run, cwd=project, capture_output=True, text=True, env=env)
    assert ghost.returncode == 1
    assert ghost.stdout == "sessions/wiki/B.md:3:19: VK101 [[Nowhere]]: no note named 'Nowhere'\n"


@pytest.mark.parametrize("hook_id", ["vaultkit-lint", "vaultkit-index-check"])
def test_declared_entries_pass_on_a_clean_project(tmp_path: Path, hook_id: str) -> None:
    project = _project(tmp_path / "p", ghost=False)
    entry = shlex.split(str(_hooks()[hook_id]["entry"]))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    out = subprocess.run(entry, cwd=project, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stdout + out.stderr


def test_declared_index_check_entry_fails_on_a_stale_index(tmp_path: Path) -> None:
    project = _project(tmp_path / "p", ghost=False)
    (project / "sessions" / "wiki" / "C.md").write_text("[[A]]\n", encoding="utf-8")
    entry = shlex.split(str(_hooks()["vaultkit-index-check"]["entry"]))
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    out = subprocess.run(entry, cwd=project / "sessions", capture_output=True, text=True, env=env)
    assert out.returncode == 1
    assert "+- [[C]]" in out.stdout


@pytest.mark.slow
@pytest.mark.network  # pre-commit pip-installs the clone and its dependencies from PyPI
@pytest.mark.timeout(900)
def test_pre_commit_try_repo_runs_both_hooks(tmp_path: Path) -> None:
    """Installs vaultkit from a clean clone of this repository's HEAD (so colleagues' unfinished
    edits in a shared working tree cannot leak in) and runs both hooks through pre-commit."""
    clone = tmp_path / "vaultkit-clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    project = _project(tmp_path / "p", ghost=True)
    out = subprocess.run(
        [str(BIN / "pre-commit"), "try-repo", str(clone), "--all-files"],
        cwd=project,
        capture_output=True,
        text=True,
        env=_git_env(tmp_path),
        timeout=880,
    )
    report = out.stdout + out.stderr
    assert out.returncode == 1, report
    assert "vaultkit lint" in report
    assert "sessions/wiki/B.md:3:19: VK101 [[Nowhere]]: no note named 'Nowhere'" in report
    index_line = next(line for line in report.splitlines() if "vaultkit index --check" in line)
    assert index_line.endswith("Passed"), report
