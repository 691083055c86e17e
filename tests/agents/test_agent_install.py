"""``vaultkit hooks install|uninstall|status --agent`` for Codex and Gemini, as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.agents import hookcmd

CONSOLE_SCRIPT = str(Path(sys.executable).parent / "vaultkit-hook")
# What hooks install writes: this Python with -I -S on the package's entry file (agents.hookcmd),
# run through the shell; status shows the entry file as the program the hook depends on.
COMMAND = " ".join(hookcmd.hook_command(sys.executable, CONSOLE_SCRIPT))
HOOK = hookcmd.entry_file()
BARE_PATH = f"/usr/bin{os.pathsep}/bin"  # no agent CLI on it
GEMINI_HAND_WRITTEN = """{
  "model": {"name": "gemini-2.5-flash"},
  "hooks": {
    "SessionStart": [{"hooks": [{"type": "command", "command": "echo mine", "timeout": 500}]}]
  },
  "mcpServers": {"other": {"command": "other-server"}},
  "note": "세션 🎉"
}
"""
VAULTKIT = str(Path(sys.executable).parent / "vaultkit")


def vk(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PATH": BARE_PATH, **(env or {})},
        timeout=60,
    )


def home() -> Path:
    return Path(os.environ["HOME"])


def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True, exist_ok=True)
    return folder


def test_codex_user_scope_install_is_idempotent_and_uninstall_leaves_no_file(
    tmp_path: Path,
) -> None:
    target = home() / ".codex" / "hooks.json"
    first = vk("hooks", "install", "--agent", "codex", cwd=project(tmp_path))
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0] == f"installed vaultkit hooks in {target}"
    assert lines[1].startswith("Codex skips these hooks until you trust them: run `codex` in ")
    assert '"Trust this folder?" question, at "Hooks need review" choose Review hooks' in lines[1]
    assert "pick each vaultkit event (SessionStart, SessionEnd), press Enter, then t" in lines[1]
    assert "dangerously" not in first.stdout + first.stderr
    assert first.stderr.splitlines() == ["agents: codex (as asked with --agent)"]
    data = json.loads(target.read_text())
    start, end = (data["hooks"][e][0]["hooks"][0] for e in ("SessionStart", "SessionEnd"))
    assert start == {
        "type": "command",
        "command": f"{COMMAND} SessionStart --agent codex",
        "timeout": 10,
    }
    assert end["command"] == f"{COMMAND} SessionEnd --agent codex" and end["timeout"] == 3
    installed = target.read_bytes()
    again = vk("hooks", "install", "--agent", "codex", cwd=project(tmp_path))
    assert again.stdout.splitlines()[0] == f"{target}: already up to date, nothing changed"
    assert target.read_bytes() == installed
    assert not (home() / ".claude").exists()  # only the agent asked for
    assert f"add the MCP server: codex mcp add vaultkit -- {VAULTKIT} mcp" in first.stdout
    config = target.with_name("config.toml")  # as `codex mcp add` writes it; vaultkit never does
    config.write_text(f'[mcp_servers.vaultkit]\ncommand = "{VAULTKIT}"\nargs = ["mcp"]\n')
    gone = vk("hooks", "uninstall", "--agent", "codex")
    assert gone.returncode == 0
    assert gone.stdout.splitlines() == [
        f"removed vaultkit hooks in {target}",
        f"{config} still has the MCP server vaultkit: codex mcp remove vaultkit",
    ]
    assert not target.exists()


def test_codex_home_and_project_scope(tmp_path: Path) -> None:
    folder = project(tmp_path)
    codex_home = tmp_path / "codex-home"
    done = vk("hooks", "install", "--agent", "codex", env={"CODEX_HOME": str(codex_home)})
    assert done.returncode == 0, done.stderr
    assert (codex_home / "hooks.json").is_file() and not (home() / ".codex").exists()
    local = vk("hooks", "install", "--agent", "codex", "--scope", "project", cwd=folder)
    assert local.returncode == 0, local.stderr
    assert (folder / ".codex" / "hooks.json").is_file()
    assert f"Codex loads {folder}/.codex/hooks.json only in a trusted project" in local.stdout


def test_gemini_hand_written_settings_keep_foreign_hooks_and_are_restored_exactly(
    tmp_path: Path,
) -> None:
    target = home() / ".gemini" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text(GEMINI_HAND_WRITTEN, encoding="utf-8")
    done = vk("hooks", "install", "--agent", "gemini", cwd=project(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Gemini CLI runs hooks only in trusted folders" in done.stdout
    assert str(home() / ".gemini" / "trustedFolders.json") in done.stdout
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["note"] == "세션 🎉" and data["model"] == {"name": "gemini-2.5-flash"}
    starts = data["hooks"]["SessionStart"]
    assert starts[0]["hooks"][0]["command"] == "echo mine"  # foreign hook first, kept
    assert starts[1]["hooks"][0] == {
        "name": "vaultkit-SessionStart",
        "type": "command",
        "command": f"{COMMAND} SessionStart --agent gemini",
        "timeout": 10_000,
    }
    assert data["mcpServers"] == {
        "other": {"command": "other-server"},
        "vaultkit": {"command": VAULTKIT, "args": ["mcp"]},
    }
    assert f"{target} also registers the MCP server vaultkit ({VAULTKIT} mcp)" in done.stdout
    assert vk("hooks", "uninstall", "--agent", "gemini").returncode == 0
    assert target.read_text(encoding="utf-8") == GEMINI_HAND_WRITTEN


def test_gemini_cli_home_stands_in_for_home(tmp_path: Path) -> None:
    other = tmp_path / "gem-home"
    done = vk("hooks", "install", "--agent", "gemini", env={"GEMINI_CLI_HOME": str(other)})
    assert done.returncode == 0, done.stderr
    assert (other / ".gemini" / "settings.json").is_file()
    assert not (home() / ".gemini").exists()


def test_gemini_settings_with_comments_are_refused_and_nothing_is_written(tmp_path: Path) -> None:
    target = home() / ".gemini" / "settings.json"
    target.parent.mkdir(parents=True)
    text = '{\n  // my model\n  "model": {"name": "x"}\n}\n'
    target.write_text(text)
    done = vk("hooks", "install", "--agent", "claude,gemini", cwd=project(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {target}: has comments; vaultkit left it unchanged")
    assert "hint: remove the comments" in done.stderr
    assert target.read_text() == text
    assert not (home() / ".claude").exists()  # planned first: Claude's file was not written


@pytest.mark.parametrize("text", ['{"hooks": {,}', "[1, 2]\n", '{"hooks": []}'])
def test_malformed_codex_hooks_are_refused_untouched(tmp_path: Path, text: str) -> None:
    target = home() / ".codex" / "hooks.json"
    target.parent.mkdir(parents=True)
    target.write_text(text)
    done = vk("hooks", "install", "--agent", "codex")
    assert done.returncode == 2 and done.stderr.startswith(f"error: {target}:")
    assert target.read_text() == text
    assert not target.with_name("hooks.json.vaultkit.bak").exists()


def test_dry_run_says_would_install_and_writes_nothing(tmp_path: Path) -> None:
    done = vk("hooks", "install", "--agent", "all", "--dry-run", cwd=project(tmp_path))
    assert done.returncode == 0, done.stderr
    for path in (".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json"):
        assert f"would install vaultkit hooks in {home() / path}" in done.stderr
        assert f"+++ {home() / path}" in done.stdout
    assert list(home().iterdir()) == []


def test_default_is_every_agent_found_on_this_machine(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "codex"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    path = f"{bin_dir}{os.pathsep}{BARE_PATH}"
    (home() / ".gemini").mkdir()
    done = vk("hooks", "install", cwd=project(tmp_path), env={"PATH": path})
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        f"agents found on this machine: codex: codex on PATH ({fake}); "
        f"gemini: {home() / '.gemini'} exists (--agent chooses)"
    )
    assert (home() / ".codex" / "hooks.json").is_file()
    assert (home() / ".gemini" / "settings.json").is_file()
    assert not (home() / ".claude").exists()


def test_no_agent_found_means_claude_code_as_before(tmp_path: Path) -> None:
    done = vk("hooks", "install", cwd=project(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("agents: claude (no agent CLI on PATH and no agent config")
    assert done.stdout.strip() == f"installed vaultkit hooks in {home() / '.claude/settings.json'}"
    assert not (home() / ".codex").exists() and not (home() / ".gemini").exists()


def test_unknown_agents_and_a_scope_the_agent_lacks_are_usage_errors(tmp_path: Path) -> None:
    bad = vk("hooks", "install", "--agent", "codex,cursor")
    assert bad.returncode == 2
    assert "unknown agent 'cursor'; choose from claude, codex, gemini, all" in bad.stderr
    local = vk("hooks", "install", "--agent", "gemini", "--scope", "local", cwd=project(tmp_path))
    assert local.returncode == 2
    assert "--scope local is Claude Code's only; Gemini CLI 0.61 has user and project" in (
        local.stderr
    )
    assert list(home().iterdir()) == []


def test_repeated_agent_options_and_status_per_agent(tmp_path: Path) -> None:
    folder = project(tmp_path)
    done = vk("hooks", "install", "--agent", "codex", "--agent", "gemini", cwd=folder)
    assert done.returncode == 0, done.stderr
    status = vk("hooks", "status", "--agent", "all", "--format", "json", cwd=folder)
    rows = {(r["agent"], r["scope"]): r for r in json.loads(status.stdout)}
    assert len(rows) == 7  # claude: user, project, local; codex and gemini: user, project
    assert rows["codex", "user"]["events"] == {"SessionStart": [HOOK], "SessionEnd": [HOOK]}
    assert rows["gemini", "user"]["events"] == {"SessionStart": [HOOK], "SessionEnd": [HOOK]}
    assert rows["claude", "user"]["events"] == {} and rows["codex", "project"]["exists"] is False
    text = vk("hooks", "status", "--agent", "codex", cwd=folder).stdout
    assert text.splitlines()[:2] == [
        f"codex user {home() / '.codex' / 'hooks.json'}",
        f"        SessionEnd: {HOOK} (ok)",
    ]


def test_installed_codex_and_gemini_commands_really_run(tmp_path: Path) -> None:
    folder = project(tmp_path)
    assert vk("hooks", "install", "--agent", "codex,gemini", cwd=folder).returncode == 0
    for file in (home() / ".codex" / "hooks.json", home() / ".gemini" / "settings.json"):
        hook = json.loads(file.read_text())["hooks"]["SessionEnd"][0]["hooks"][0]
        payload = json.dumps({"cwd": str(folder), "session_id": "s-1", "transcript_path": "/x"})
        done = subprocess.run(
            ["sh", "-c", hook["command"]], input=payload, capture_output=True, text=True
        )
        assert done.returncode == 0 and done.stdout == done.stderr == ""
    log = (folder / "sessions" / ".vaultkit" / "vaultkit.log").read_text(encoding="utf-8")
    assert log.count("SessionEnd s-1") == 2  # each ran vaultkit's SessionEnd hook
