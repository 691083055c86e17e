"""``vaultkit shell-init``: real bash and zsh sessions log ``[HH:MM:SS] command`` lines."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest
from baton_support import project, vk
from conftest import require_program

LINE = re.compile(r"^\[\d{2}:\d{2}:\d{2}\] (.*)$")
SHELLS = {
    "bash": ["bash", "--norc", "--noprofile", "-i"],
    "zsh": ["zsh", "-f", "-i"],
}


def snippet(shell: str, tmp_path: Path) -> Path:
    done = vk("shell-init", shell, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    path = tmp_path / f"hook.{shell}"
    path.write_text(done.stdout)
    return path


def interactive(shell: str, hook: Path | None, script: str, cwd: Path, **env: str) -> str:
    """Run ``script`` line by line in an interactive shell (stdin is a pipe); stdout back."""
    require_program(shell)
    source = f"source {hook}\n" if hook is not None else ""
    done = subprocess.run(
        SHELLS[shell],
        input=source + script + "exit\n",
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "HISTFILE": "/dev/null", "PS1": "$ ", **env},
        timeout=120,
    )
    return done.stdout


def logged(root: Path) -> list[str]:
    lines = []
    for path in sorted((root / "sessions" / "logs").glob("*.log")):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = LINE.match(line)
            assert match is not None, line
            lines.append(match.group(1))
    return lines


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_commands_are_logged_before_they_run_inside_a_vaultkit_project(
    shell: str, tmp_path: Path
) -> None:
    root, _ = project(tmp_path / "proj")
    (root / "src" / "deep").mkdir(parents=True)
    hook = snippet(shell, tmp_path)
    script = (
        "echo one | tr o O\n"
        "false\n"
        "echo status=$?\n"
        'echo "two\nlines"\n'
        "cd src/deep\n"
        "ls -a > /dev/null\n"
    )
    out = interactive(shell, hook, script, root)
    assert "One" in out and "status=1" in out
    assert logged(root) == [
        "echo one | tr o O",
        "false",
        "echo status=$?",
        'echo "two ⏎ lines"',
        "cd src/deep",
        "ls -a > /dev/null",
        "exit",
    ]


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_nothing_is_logged_outside_vaultkit_projects_or_in_vaultkit_children(
    shell: str, tmp_path: Path
) -> None:
    plain = tmp_path / "plain"
    (plain / ".git").mkdir(parents=True)
    hook = snippet(shell, tmp_path)
    assert "hi" in interactive(shell, hook, "echo hi\n", plain)
    assert not (plain / "sessions").exists()
    root, _ = project(tmp_path / "proj")
    interactive(shell, hook, "echo hi\n", root, VAULTKIT_CHILD="1")
    assert not (root / "sessions" / "logs").exists()


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_a_broken_log_never_fails_the_users_command(shell: str, tmp_path: Path) -> None:
    root, _ = project(tmp_path / "proj")
    (root / "sessions" / "logs").write_text("a file where the folder should be")
    out = interactive(shell, snippet(shell, tmp_path), "echo still-works\necho rc=$?\n", root)
    assert "still-works" in out and "rc=0" in out


def test_the_log_stays_out_of_git_without_global_configuration(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    require_program("git")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "sessions" / ".vaultkit").mkdir(parents=True)
    interactive("bash", snippet("bash", tmp_path), "echo hi\n", root)
    assert logged(root)
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null"},
    )
    assert "logs" not in status.stdout
    assert (root / "sessions" / "logs" / ".gitignore").read_text().splitlines()[-1] == "*"
    assert not (Path(os.environ["HOME"]) / ".gitconfig").exists()


def _timed(shell: str, hook: Path | None, cwd: Path, count: int) -> float:
    started = time.perf_counter()
    interactive(shell, hook, ":\n" * count, cwd)
    return time.perf_counter() - started


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_the_hook_costs_no_noticeable_delay(shell: str, tmp_path: Path) -> None:
    root, _ = project(tmp_path / "proj")
    (root / "a" / "b" / "c").mkdir(parents=True)
    hook = snippet(shell, tmp_path)
    count = 300
    base = min(_timed(shell, None, root / "a" / "b" / "c", count) for _ in range(2))
    hooked = min(_timed(shell, hook, root / "a" / "b" / "c", count) for _ in range(2))
    assert len(logged(root)) == 2 * (count + 1)
    per_command_ms = 1000 * (hooked - base) / count
    print(f"{shell}: {per_command_ms:.2f} ms per command")


def test_unknown_shell_is_a_named_error(tmp_path: Path) -> None:
    done = vk("shell-init", "fish", cwd=tmp_path)
    assert done.returncode == 2 and "unknown shell 'fish'" in done.stderr
    assert "bash, zsh, pwsh" in done.stderr


def test_pwsh_snippet_chains_the_existing_history_handler(tmp_path: Path) -> None:
    text = vk("shell-init", "pwsh", cwd=tmp_path).stdout
    assert "AddToHistoryHandler" in text and "__vaultkitPrevious" in text
    assert "return $true" in text and "catch { }" in text
    assert text.count("{") == text.count("}")
