"""``vaultkit hooks install|uninstall|status`` as real processes on real settings files."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hook_start_support import add_session, make_project

import vaultkit

HOOK = str(Path(sys.executable).parent / "vaultkit-hook")
# This environment's scripts on PATH, as an installed vaultkit has them.
ON_PATH = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
# What `hooks install` writes: this Python, -I -S, the package's entry file (issue 12).
ENTRY = str(Path(vaultkit.__file__).resolve().parent / "vaultkit_hook.py")
USER_FILE = ".claude/settings.json"
HAND_WRITTEN = """{
    "model": "opus",
    "statusLine": {"type": "command", "command": "echo 세션 🎉"},
    "hooks": {
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}
        ]
    }
}
"""


def vk(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def home() -> Path:
    return Path(os.environ["HOME"])


def test_install_into_a_missing_file_then_uninstall_leaves_no_file(tmp_path: Path) -> None:
    target = home() / USER_FILE
    first = vk("hooks", "install")
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == f"installed vaultkit hooks in {target}"
    data = json.loads(target.read_text())
    start = data["hooks"]["SessionStart"][0]["hooks"][0]
    args = ["-I", "-S", ENTRY, "SessionStart"]
    assert start == {"type": "command", "command": sys.executable, "args": args, "timeout": 10}
    assert Path(start["command"]).is_absolute() and Path(start["command"]).is_file()
    assert data["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] == 2
    assert vk("hooks", "install").stdout.strip().endswith("already up to date, nothing changed")
    assert vk("hooks", "uninstall").returncode == 0
    assert not target.exists()
    assert not (home() / ".claude" / "settings.json.vaultkit.bak").exists()


@pytest.mark.slow
def test_hand_written_file_is_backed_up_kept_and_restored_byte_for_byte(tmp_path: Path) -> None:
    target = home() / USER_FILE
    target.parent.mkdir(parents=True)
    target.write_text(HAND_WRITTEN, encoding="utf-8")
    assert vk("hooks", "install").returncode == 0
    backup = target.with_name("settings.json.vaultkit.bak")
    assert backup.read_text(encoding="utf-8") == HAND_WRITTEN
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["model"] == "opus" and data["statusLine"]["command"] == "echo 세션 🎉"
    assert data["hooks"]["SessionStart"][0]["hooks"] == [{"type": "command", "command": "echo hi"}]
    installed = target.read_bytes()
    assert vk("hooks", "install").returncode == 0
    assert target.read_bytes() == installed
    assert vk("hooks", "uninstall").returncode == 0
    assert target.read_text(encoding="utf-8") == HAND_WRITTEN


def test_read_only_mode_is_kept(tmp_path: Path) -> None:
    target = home() / USER_FILE
    target.parent.mkdir(parents=True)
    target.write_text("{}\n")
    target.chmod(0o444)
    assert vk("hooks", "install").returncode == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert "SessionEnd" in json.loads(target.read_text())["hooks"]
    assert vk("hooks", "uninstall").returncode == 0
    assert target.read_text() == "{}\n" and stat.S_IMODE(target.stat().st_mode) == 0o444


def test_malformed_and_non_object_files_are_refused_untouched(tmp_path: Path) -> None:
    target = home() / USER_FILE
    target.parent.mkdir(parents=True)
    for text in ('{"hooks": {,}', "[1, 2]\n"):
        target.write_text(text)
        result = vk("hooks", "install")
        assert result.returncode == 2
        assert result.stderr.startswith(f"error: {target}:") and "hint:" in result.stderr
        assert target.read_text() == text
        assert not target.with_name("settings.json.vaultkit.bak").exists()


def test_dry_run_prints_the_diff_and_changes_nothing(tmp_path: Path) -> None:
    target = home() / USER_FILE
    target.parent.mkdir(parents=True)
    target.write_text('{"model": "opus"}\n')
    result = vk("hooks", "install", "--dry-run")
    assert result.returncode == 0
    assert f"--- {target}" in result.stdout and '+  "hooks": {' in result.stdout
    assert '-{"model": "opus"}' in result.stdout
    assert target.read_text() == '{"model": "opus"}\n'


@pytest.mark.slow
def test_project_and_local_scopes_and_claude_config_dir(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    assert vk("hooks", "install", "--scope", "project", cwd=project / "sessions").returncode == 0
    assert (project / ".claude" / "settings.json").is_file()
    assert vk("hooks", "install", "--scope", "local", "--project", str(project)).returncode == 0
    assert (project / ".claude" / "settings.local.json").is_file()
    config_dir = tmp_path / "cfg"
    assert vk("hooks", "install", env={"CLAUDE_CONFIG_DIR": str(config_dir)}).returncode == 0
    assert (config_dir / "settings.json").is_file() and not (home() / USER_FILE).exists()
    status = vk("hooks", "status", "--format", "json", cwd=project, env=ON_PATH)
    rows = {row["scope"]: row for row in json.loads(status.stdout)}
    bare = ["vaultkit-hook"]  # the project's file is committed: no path of this machine
    assert rows["project"]["events"] == {"SessionStart": bare, "SessionEnd": bare}
    assert rows["local"]["events"] == {"SessionStart": [ENTRY], "SessionEnd": [ENTRY]}
    assert rows["user"]["events"] == {}
    assert all(row["missing_executables"] == [] for row in rows.values())


def test_status_flags_a_missing_executable(tmp_path: Path) -> None:
    target = home() / USER_FILE
    target.parent.mkdir(parents=True)
    gone = "/nowhere/bin/vaultkit-hook"
    hook = {"type": "command", "command": gone, "args": ["SessionStart"]}
    target.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}}))
    result = vk("hooks", "status", cwd=tmp_path)
    assert f"SessionStart: {gone} (MISSING executable)" in result.stdout


def test_installed_commands_really_run_in_exec_and_shell_form(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="INSTALLED-HOOK-WORKS\n")
    payload = json.dumps({"source": "startup", "cwd": str(project)})
    for extra in ((), ("--shell-form",)):
        assert vk("hooks", "install", *extra).returncode == 0
        hook = json.loads((home() / USER_FILE).read_text())["hooks"]["SessionStart"][0]["hooks"][0]
        argv = [hook["command"], *hook["args"]] if "args" in hook else ["sh", "-c", hook["command"]]
        out = subprocess.run(argv, input=payload, capture_output=True, text=True, check=True)
        assert "INSTALLED-HOOK-WORKS" in out.stdout


def test_a_symlinked_settings_file_is_edited_through_the_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{"model": "opus"}\n')
    link = home() / USER_FILE
    link.parent.mkdir(parents=True)
    link.symlink_to(dotfiles)
    assert vk("hooks", "install").returncode == 0
    assert link.is_symlink() and "SessionStart" in json.loads(dotfiles.read_text())["hooks"]
    assert vk("hooks", "uninstall").returncode == 0
    assert link.is_symlink() and dotfiles.read_text() == '{"model": "opus"}\n'


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    target = home() / USER_FILE
    target.parent.mkdir(parents=True)
    target.write_bytes(b'\xef\xbb\xbf{"model": "opus"}\n')
    assert vk("hooks", "install").returncode == 0
    assert json.loads(target.read_text(encoding="utf-8"))["model"] == "opus"


def test_status_finds_a_module_form_command_on_path(tmp_path: Path) -> None:
    target = home() / USER_FILE
    target.parent.mkdir(parents=True)
    hook = {"type": "command", "command": "python3 -m vaultkit.hookentry SessionEnd"}
    target.write_text(json.dumps({"hooks": {"SessionEnd": [{"hooks": [hook]}]}}))
    result = vk("hooks", "status", cwd=tmp_path)
    assert "SessionEnd: python3 (ok)" in result.stdout


def test_a_dry_run_says_would_and_writes_nothing(tmp_path: Path) -> None:
    target = home() / USER_FILE
    first = vk("hooks", "install", "--dry-run")
    assert first.returncode == 0, first.stderr
    assert "+++ " + str(target) in first.stdout
    said = first.stdout + first.stderr
    assert f"would install vaultkit hooks in {target}" in first.stderr
    assert "would install slash command /handoff in" in first.stderr
    assert "installed" not in said
    assert not (home() / ".claude").exists()
    assert vk("hooks", "install").returncode == 0
    commands = sorted(p.name for p in (home() / ".claude" / "commands").iterdir())
    removing = vk("hooks", "uninstall", "--dry-run")
    assert removing.returncode == 0, removing.stderr
    assert f"would remove vaultkit hooks from {target}" in removing.stderr
    assert "would remove slash command /handoff" in removing.stderr
    assert "removed" not in removing.stdout + removing.stderr
    assert "SessionEnd" in json.loads(target.read_text())["hooks"]
    assert sorted(p.name for p in (home() / ".claude" / "commands").iterdir()) == commands


@pytest.mark.slow
def test_project_option_is_the_project_itself_not_its_git_root(tmp_path: Path) -> None:
    repo = make_project(tmp_path / "repo")
    sub = repo / "packages" / "app"
    sub.mkdir(parents=True)
    done = vk(
        "hooks", "install", "--scope", "project", "--project", "packages/app", cwd=repo, env=ON_PATH
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"installed vaultkit hooks in {sub / '.claude/settings.json'}"
    assert (sub / ".claude" / "commands" / "handoff.md").is_file()
    assert not (repo / ".claude").exists()
    status = vk("hooks", "status", "--format", "json", "--project", str(sub), cwd=tmp_path)
    rows = {row["scope"]: row for row in json.loads(status.stdout)}
    assert rows["project"]["path"] == str(sub / ".claude" / "settings.json")
    bare = ["vaultkit-hook"]
    assert rows["project"]["events"] == {"SessionStart": bare, "SessionEnd": bare}
    default = vk("hooks", "status", "--format", "json", cwd=sub)  # no --project: the git root
    rows = {row["scope"]: row for row in json.loads(default.stdout)}
    assert rows["project"]["path"] == str(repo / ".claude" / "settings.json")
    assert rows["project"]["exists"] is False


def test_a_project_option_that_is_not_a_folder_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-project"
    result = vk("hooks", "install", "--scope", "project", "--project", str(missing))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {missing}: --project is not a folder")
    assert "hint:" in result.stderr and not missing.exists()
