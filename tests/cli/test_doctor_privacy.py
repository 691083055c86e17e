"""``vaultkit doctor`` on what goes into git and where a store lives, with real git (issue 12)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import require_program
from worker_support import write_transcript

pytestmark = pytest.mark.timeout(120)

SID = "7c3e9a1f-2b4d-4c6e-8f0a-1b2c3d4e5f60"


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args),
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "VAULTKIT_SETTLE_SECONDS": "0.05", **env},
        timeout=60,
        check=False,
    )


def vk(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "vaultkit", *args, cwd=cwd, **env)


def doctor_line(out: str, name: str) -> str:
    (line,) = [ln for ln in out.splitlines() if ln[6:].startswith(f"{name}:")]
    return line


def project_with_a_session(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    require_program("git")
    run("git", "init", "-q", cwd=project)
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    transcript = write_transcript(tmp_path / "claude" / f"{SID}.jsonl", SID)
    done = vk("ingest", str(transcript), "--settle", "0.05", "-q", cwd=project)
    assert done.returncode == 0, done.stderr
    return project


@pytest.mark.slow
def test_doctor_names_the_git_rm_that_untracks_a_private_part(tmp_path: Path) -> None:
    project = project_with_a_session(tmp_path)
    assert doctor_line(vk("doctor", cwd=project).stdout, "git tracked").startswith("ok")
    run("git", "add", "-f", "sessions/raw", "sessions/.vaultkit", cwd=project)  # forced past it
    result = vk("doctor", cwd=project)
    assert result.returncode == 1
    line = doctor_line(result.stdout, "git tracked")
    assert line.startswith("fail") and "in sessions/.vaultkit/, sessions/raw/" in line
    fix = result.stdout.splitlines()[result.stdout.splitlines().index(line) + 1].strip()
    command = fix.removeprefix("fix: ").removesuffix("  (then commit)")
    assert command == (
        f"git -C {shlex.quote(str(project))} rm -r --cached -- sessions/.vaultkit sessions/raw"
    )
    assert run(*shlex.split(command), cwd=tmp_path).returncode == 0
    assert doctor_line(vk("doctor", cwd=project).stdout, "git tracked").startswith("ok")
    assert (project / "sessions" / "raw").is_dir()  # untracked, not deleted


@pytest.mark.slow
def test_doctor_warns_when_the_gitignore_disagrees_with_git_share(tmp_path: Path) -> None:
    project = project_with_a_session(tmp_path)
    config = project / "sessions" / "vaultkit.toml"
    config.write_text(config.read_text() + '[git]\nshare = ["wiki"]\n')
    line = doctor_line(vk("doctor", cwd=project).stdout, "gitignore")
    assert line.startswith("warn") and "not what [git] share says" in line
    transcript = tmp_path / "claude" / f"{SID}.jsonl"
    assert vk("ingest", str(transcript), "--settle", "0.05", "-q", cwd=project).returncode == 0
    line = doctor_line(vk("doctor", cwd=project).stdout, "gitignore")
    assert line.endswith(
        "shares wiki/; raw/, summary/, transcripts/, logs/, .vaultkit/ stay private"
    )
    status = run("git", "status", "--porcelain", "-uall", cwd=project).stdout
    assert "summary/" not in status and "sessions/wiki/INDEX.md" in status


def test_doctor_says_where_the_store_of_a_folder_that_is_not_a_project_is(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    result = vk("doctor", "--project", str(folder), cwd=folder, VAULTKIT_HOME=str(tmp_path / "vk"))
    line = doctor_line(result.stdout, "store location")
    where = tmp_path / "vk" / "projects"
    assert line.startswith(f"ok    store location: {folder} is not a project")
    assert f"its store is {where}" in line and line.endswith("/sessions")
    assert doctor_line(result.stdout, "git").endswith(
        "is not in a git repository: nothing is shared"
    )
    assert os.listdir(folder) == []


def test_before_the_first_session_the_missing_gitignore_is_no_warning(tmp_path: Path) -> None:
    project = tmp_path / "fresh"
    project.mkdir()
    require_program("git")
    run("git", "init", "-q", cwd=project)
    out = vk("doctor", cwd=project).stdout
    assert doctor_line(out, "gitignore").startswith("ok")
    assert doctor_line(out, "git tracked").startswith("ok")
    assert not (project / "sessions").exists()
