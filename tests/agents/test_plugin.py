"""The Claude Code plugin in this repository: its generated files are current, its manifests are
sound, and its hooks stand down where ``vaultkit hooks install`` registered vaultkit too."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, require_program

from vaultkit.agents import registration
from vaultkit.agents.claude import plugin, settings
from vaultkit.base import dist

PLUGIN = REPO / "plugin"


def test_the_generated_plugin_files_are_current() -> None:
    for rel, text in plugin.generated().items():
        path = PLUGIN / rel
        assert path.is_file(), f"{path} missing: run python -m vaultkit.agents.claude.plugin plugin"
        assert path.read_text(encoding="utf-8") == text, f"{rel} is stale: regenerate it"
        executable = rel in plugin.EXECUTABLE
        assert bool(path.stat().st_mode & 0o111) is executable, f"{rel}: wrong mode"


def test_the_manifests_state_the_requirement_and_the_icon_exists() -> None:
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text(encoding="utf-8"))
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    assert (
        dist.INSTALL in manifest["description"]
        and dist.INSTALL in market["plugins"][0]["description"]
    )
    icon = (PLUGIN / ".claude-plugin" / "icon.png").read_bytes()
    assert icon[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", icon[16:24])
    assert width == height and 512 <= width <= 2048 and len(icon) < 2 * 1024 * 1024


def _launch(
    script: str, path: str, *args: str, payload: str = "{}"
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PLUGIN / script), *args],
        input=payload,
        capture_output=True,
        text=True,
        env={"PATH": path, "HOME": os.environ["HOME"]},
        timeout=30,
        check=False,
    )


def test_without_vaultkit_the_launchers_say_how_to_install_it(tmp_path: Path) -> None:
    require_program("sh")
    bare = "/usr/bin:/bin"
    start = _launch(plugin.HOOK_LAUNCHER, bare, "SessionStart", "--plugin")
    assert start.returncode == 0 and start.stderr == ""
    said = json.loads(start.stdout)
    assert said["systemMessage"] == dist.MISSING
    assert said["hookSpecificOutput"] == {
        "hookEventName": "SessionStart",
        "additionalContext": dist.MISSING,
    }
    end = _launch(plugin.HOOK_LAUNCHER, bare, "SessionEnd", "--plugin")
    assert (end.returncode, end.stdout, end.stderr) == (0, "", "")
    mcp = _launch(plugin.MCP_LAUNCHER, bare)
    assert (mcp.returncode, mcp.stdout, mcp.stderr) == (1, "", dist.MISSING + "\n")


def test_with_vaultkit_on_path_the_launcher_runs_the_real_hook(tmp_path: Path) -> None:
    project = _project_with_summary(tmp_path)
    payload = json.dumps({"session_id": "s-1", "cwd": str(project), "source": "startup"})
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    done = _launch(plugin.HOOK_LAUNCHER, path, "SessionStart", "--plugin", payload=payload)
    assert done.returncode == 0, done.stderr
    assert "Everything shipped." in done.stdout


def test_the_manifests_name_one_plugin_whose_folder_exists() -> None:
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text(encoding="utf-8"))
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    [entry] = market["plugins"]
    assert entry["name"] == manifest["name"] == "vaultkit"
    assert (REPO / entry["source"]).resolve() == PLUGIN.resolve()
    assert entry["version"] == manifest["version"]
    skill = (PLUGIN / "skills" / "vaultkit-memory" / "SKILL.md").read_text(encoding="utf-8")
    assert skill.startswith("---\nname: vaultkit-memory\ndescription: ")
    for tool in ("search", "read_note", "links", "related", "vault_health", "vaultkit lint"):
        assert tool in skill


def test_plugin_commands_are_the_installed_commands_with_vaultkit_on_path() -> None:
    text = (PLUGIN / "commands" / "handoff.md").read_text(encoding="utf-8")
    assert "vaultkit baton --session" in text and "@VAULTKIT@" not in text
    assert plugin.PLUGIN_NOTE in text and "installed by `vaultkit hooks install`" not in text


def _entry(command: str, *args: str) -> dict[str, object]:
    return {
        "hooks": {
            "SessionEnd": [
                {
                    "matcher": "*",
                    "hooks": [{"type": "command", "command": command, "args": list(args)}],
                }
            ]
        }
    }


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (settings.install({}, "/v/bin/vaultkit-hook"), True),
        (_entry("/v/bin/vaultkit-hook", "SessionEnd"), True),
        (_entry("python -m vaultkit.hookentry SessionEnd"), True),
        (_entry("vaultkit-hook SessionEnd --plugin"), False),  # the plugin's own entry
        (_entry("/usr/bin/other-tool"), False),
        ({"hooks": {"SessionEnd": "not a list"}}, False),
        ({"hooks": []}, False),
        ([], False),
        (None, False),
    ],
)
def test_which_settings_register_vaultkit(data: object, expected: bool) -> None:
    assert registration.registers(data, "SessionEnd") is expected


def _hook(project: Path, config: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    payload = {
        "session_id": "s-1",
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    env = {"PATH": "/usr/bin:/bin", "HOME": str(project), "CLAUDE_CONFIG_DIR": str(config)}
    return subprocess.run(
        [sys.executable, "-m", "vaultkit.hookentry", *args],
        input=json.dumps(payload).encode(),
        cwd=project,
        env=env,
        capture_output=True,
        timeout=30,
        check=False,
    )


def _project_with_summary(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    summary = project / "sessions" / "summary"
    summary.mkdir(parents=True)
    (summary / "2026-11-30_1200_abcd1234_Done.md").write_text(
        "---\ntitle: Done\ndate: '2026-11-30T12:00:00+00:00'\ntype: handoff-summary\n---\n"
        "# Done\n\nEverything shipped.\n",
        encoding="utf-8",
    )
    return project


def test_a_plugin_hook_runs_when_no_settings_file_registers_vaultkit(tmp_path: Path) -> None:
    project = _project_with_summary(tmp_path)
    done = _hook(project, tmp_path / "config", "SessionStart", "--plugin")
    assert done.returncode == 0
    assert "Everything shipped." in done.stdout.decode()


def test_a_plugin_hook_stands_down_where_hooks_install_registered_vaultkit(tmp_path: Path) -> None:
    project = _project_with_summary(tmp_path)
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text(
        settings.render(settings.install({}, "/v/bin/vaultkit-hook")), encoding="utf-8"
    )
    done = _hook(project, tmp_path / "config", "SessionStart", "--plugin")
    assert (done.returncode, done.stdout) == (0, b"")
    log = (project / "sessions" / ".vaultkit" / "vaultkit.log").read_text(encoding="utf-8")
    assert f"{local} registers vaultkit too; it runs there" in log
    unmarked = _hook(project, tmp_path / "config", "SessionStart")  # the settings entry itself
    assert "Everything shipped." in unmarked.stdout.decode()


def _doctor(project: Path, config: Path) -> str:
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(config)}
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "doctor"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.stdout


def test_doctor_says_which_registration_runs_the_hooks(tmp_path: Path) -> None:
    project = _project_with_summary(tmp_path)
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text('{"enabledPlugins": {"vaultkit@vaultkit": true}}')
    out = _doctor(project, config)
    assert (
        f"ok    hooks (plugin): registered by the vaultkit plugin ({config}/settings.json)" in out
    )
    assert "not installed" not in out
    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text(
        settings.render(settings.install({}, "/v/bin/vaultkit-hook")), encoding="utf-8"
    )
    assert "the settings entries run them and the plugin's hooks stand down" in _doctor(
        project, config
    )
    (config / "settings.json").write_text('{"enabledPlugins": {"vaultkit@vaultkit": false}}')
    assert "hooks (plugin)" not in _doctor(project, config)


def test_the_hook_entry_knows_the_plugin_flag_without_importing_the_check() -> None:
    from vaultkit import hookentry

    assert hookentry.PLUGIN_FLAG == registration.PLUGIN_FLAG
