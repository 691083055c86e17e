"""Project-scope files (committed by a team) name bare commands found on PATH, never a path of
this machine; user scope keeps this environment's fast absolute command; ``vaultkit doctor``
says whether the committed commands resolve here and what to install when they do not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hook_start_support import add_session, make_project

from vaultkit.base import dist

BIN = Path(sys.executable).parent
BARE_PATH = f"/usr/bin{os.pathsep}/bin"  # no vaultkit on it
ON_PATH = f"{BIN}{os.pathsep}{BARE_PATH}"
COMMITTED = (".claude/settings.json", ".mcp.json", ".codex/hooks.json", ".gemini/settings.json")


def vk(*args: str, cwd: Path, path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PATH": path},
        timeout=60,
    )


def _json(path: Path) -> dict[str, object]:
    value = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def _first(data: dict[str, object], event: str) -> dict[str, object]:
    hooks = data["hooks"]
    assert isinstance(hooks, dict)
    hook = hooks[event][0]["hooks"][0]
    assert isinstance(hook, dict)
    return hook


def test_project_scope_files_carry_bare_commands_only(tmp_path: Path) -> None:
    folder = make_project(tmp_path / "proj")
    done = vk("hooks", "install", "--agent", "all", "--scope", "project", cwd=folder, path=ON_PATH)
    assert done.returncode == 0, done.stderr
    assert "not on PATH here" not in done.stdout + done.stderr  # they resolve: no warning
    for name in COMMITTED:
        text = (folder / name).read_text(encoding="utf-8")
        for local in (str(BIN), sys.prefix, str(tmp_path), "vaultkit_hook.py", " -I "):
            assert local not in text, f"{name} names {local!r}: {text}"
    claude = _json(folder / ".claude" / "settings.json")
    start = _first(claude, "SessionStart")
    assert (start["command"], start["args"]) == ("vaultkit-hook", ["SessionStart"])
    assert _json(folder / ".mcp.json")["mcpServers"] == {
        "vaultkit": {"type": "stdio", "command": "vaultkit", "args": ["mcp"], "env": {}}
    }
    codex = _first(_json(folder / ".codex" / "hooks.json"), "SessionEnd")
    assert codex["command"] == "vaultkit-hook SessionEnd --agent codex"
    gemini = _json(folder / ".gemini" / "settings.json")
    assert _first(gemini, "SessionStart")["command"] == "vaultkit-hook SessionStart --agent gemini"
    assert gemini["mcpServers"] == {"vaultkit": {"command": "vaultkit", "args": ["mcp"]}}


def test_user_scope_keeps_this_environments_fast_command(tmp_path: Path) -> None:
    folder = make_project(tmp_path / "proj")
    assert vk("hooks", "install", cwd=folder, path=BARE_PATH).returncode == 0
    user = _json(Path(os.environ["HOME"]) / ".claude" / "settings.json")
    start = _first(user, "SessionStart")
    assert start["command"] == sys.executable
    args = start["args"]
    assert isinstance(args, list) and args[:2] == ["-I", "-S"]


def test_the_committed_command_runs_a_session_start_through_path(tmp_path: Path) -> None:
    folder = make_project(tmp_path / "proj")
    add_session(folder, 29, "0900", "aaaa1111", "S", summary="PORTABLE-HOOK-RAN\n")
    assert vk("hooks", "install", "--scope", "project", cwd=folder, path=ON_PATH).returncode == 0
    hook = _first(_json(folder / ".claude" / "settings.json"), "SessionStart")
    args = hook["args"]
    assert isinstance(args, list)
    argv = [str(hook["command"]), *(str(a) for a in args)]
    payload = json.dumps({"source": "startup", "cwd": str(folder)})
    env = {**os.environ, "PATH": ON_PATH}
    ran = subprocess.run(argv, input=payload, capture_output=True, text=True, env=env, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert "PORTABLE-HOOK-RAN" in ran.stdout


def test_unresolved_committed_commands_are_named_with_the_install_command(
    tmp_path: Path,
) -> None:
    folder = make_project(tmp_path / "proj")
    done = vk("hooks", "install", "--scope", "project", cwd=folder, path=BARE_PATH)
    assert done.returncode == 0, done.stderr
    assert (
        "run `vaultkit-hook` and `vaultkit` from PATH (portable for a team), but it is not on PATH"
        f" here: install vaultkit with `{dist.INSTALL}`" in done.stdout
    )
    settings = folder / ".claude" / "settings.json"
    away = vk("doctor", cwd=folder, path=BARE_PATH)
    assert away.returncode == 1, away.stdout
    assert (
        f"fail  hooks (project): {settings} and its MCP server run vaultkit, vaultkit-hook from"
        " PATH, but it is not on PATH here" in away.stdout
    )
    assert f"install vaultkit: {dist.INSTALL}" in away.stdout
    here = vk("doctor", "--format", "json", cwd=folder, path=ON_PATH)
    checks = {c["name"]: c for c in json.loads(here.stdout)["checks"]}
    assert "hooks (project)" not in checks
    resolved = checks["commands (project)"]
    assert resolved["status"] == "ok"
    assert resolved["detail"] == (
        f"{settings} and its MCP server: vaultkit -> {BIN / 'vaultkit'},"
        f" vaultkit-hook -> {BIN / 'vaultkit-hook'}"
    )
