"""``vaultkit hooks install`` registers the MCP server for Claude Code beside the hooks, in each
scope, idempotently, keeping everyone else's servers, and ``uninstall`` restores the files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.agents import mcpconfig
from vaultkit.errors import VaultkitError

VAULTKIT = Path(sys.executable).parent / "vaultkit"


def vk(project: Path, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(config)}
    return subprocess.run(
        [str(VAULTKIT), "hooks", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root


def _json(path: Path) -> dict[str, object]:
    value = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


@pytest.mark.slow
def test_project_scope_writes_mcp_json_and_approves_it(project: Path, tmp_path: Path) -> None:
    config = tmp_path / "config"
    done = vk(project, config, "install", "--scope", "project")
    assert done.returncode == 0, done.stderr
    server = _json(project / ".mcp.json")["mcpServers"]
    assert server == {"vaultkit": mcpconfig.entry("vaultkit")}  # committed: the bare command
    settings = _json(project / ".claude" / "settings.json")
    assert settings["enabledMcpjsonServers"] == ["vaultkit"]
    assert f"registered MCP server vaultkit (vaultkit mcp) in {project}/.mcp.json" in done.stderr
    assert 'to let the agent write to the wiki, add "--allow-write" after "mcp"' in done.stderr
    before = (project / ".mcp.json").read_bytes()
    again = vk(project, config, "install", "--scope", "project")
    assert "MCP server vaultkit already registered" in again.stderr
    assert (project / ".mcp.json").read_bytes() == before
    removed = vk(project, config, "uninstall", "--scope", "project")
    assert removed.returncode == 0, removed.stderr
    assert f"removed MCP server vaultkit from {project}/.mcp.json" in removed.stderr
    assert not (project / ".mcp.json").exists()
    assert not (project / ".claude" / "settings.json").exists()


def test_other_servers_are_kept_and_restored_exactly(project: Path, tmp_path: Path) -> None:
    original = '{\n    "mcpServers": {"github": {"command": "gh-mcp", "args": []}}\n}\n'
    (project / ".mcp.json").write_text(original, encoding="utf-8")
    config = tmp_path / "config"
    assert vk(project, config, "install", "--scope", "project").returncode == 0
    servers = _json(project / ".mcp.json")["mcpServers"]
    assert isinstance(servers, dict) and set(servers) == {"github", "vaultkit"}
    assert vk(project, config, "uninstall", "--scope", "project").returncode == 0
    assert (project / ".mcp.json").read_text(encoding="utf-8") == original


def test_a_foreign_server_named_vaultkit_is_refused_and_left_alone(
    project: Path, tmp_path: Path
) -> None:
    text = '{"mcpServers": {"vaultkit": {"command": "someone-else", "args": ["serve"]}}}\n'
    (project / ".mcp.json").write_text(text, encoding="utf-8")
    done = vk(project, tmp_path / "config", "install", "--scope", "project")
    assert done.returncode == 2
    assert 'an MCP server named "vaultkit" that is not vaultkit\'s is there' in done.stderr
    assert (project / ".mcp.json").read_text(encoding="utf-8") == text


def test_user_and_local_scopes_use_claude_json_and_keep_its_state(
    project: Path, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    state = {"numStartups": 3, "projects": {"/elsewhere": {"allowedTools": []}}}
    (config / ".claude.json").write_text(json.dumps(state), encoding="utf-8")
    assert vk(project, config, "install", "--scope", "user").returncode == 0
    assert vk(project, config, "install", "--scope", "local").returncode == 0
    data = _json(config / ".claude.json")
    assert data["numStartups"] == 3
    assert mcpconfig.registered(data, ())
    assert mcpconfig.registered(data, ("projects", str(project.resolve())))
    assert data["projects"]["/elsewhere"] == {"allowedTools": []}  # type: ignore[index]
    assert vk(project, config, "uninstall", "--scope", "local").returncode == 0
    assert vk(project, config, "uninstall", "--scope", "user").returncode == 0
    after = _json(config / ".claude.json")
    assert not mcpconfig.registered(after, ()) and after["numStartups"] == 3
    assert not mcpconfig.registered(after, ("projects", str(project.resolve())))


def test_a_dry_run_says_would_and_writes_nothing(project: Path, tmp_path: Path) -> None:
    done = vk(project, tmp_path / "config", "install", "--scope", "project", "--dry-run")
    assert done.returncode == 0
    assert f"would register MCP server vaultkit (vaultkit mcp) in {project}/.mcp.json" in (
        done.stderr
    )
    assert "registered MCP" not in done.stderr.replace("would register MCP", "")
    assert not (project / ".mcp.json").exists()


def test_malformed_mcp_config_is_refused() -> None:
    with pytest.raises(VaultkitError, match="not an object"):
        mcpconfig.register({"mcpServers": []}, (), "/v/vaultkit", ".mcp.json")
    with pytest.raises(VaultkitError, match="not an object"):
        mcpconfig.register({"projects": {"/p": 3}}, ("projects", "/p"), "/v/vaultkit", "x")
    assert mcpconfig.unapprove(mcpconfig.approve({"enabledMcpjsonServers": ["a"]})) == {
        "enabledMcpjsonServers": ["a"]
    }
