"""The Claude Code plugin for someone who only ran ``claude plugin install``: no vaultkit on PATH.

With the real pinned CLI against the mock API: the plugin validates for the plugin directory, a
session completes, its SessionStart tells the user (``systemMessage``) and the model the exact
install command, nothing prints ``vaultkit-hook: not found``, and the MCP server fails with the
same sentence (in Claude Code's MCP log) instead of ENOENT.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from vaultkit.base import dist

from .harness import REPO, Sandbox, read_jsonl
from .mockapi import Text
from .pipeline import injected_texts, new_session_id

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(300)]


def path_without_vaultkit() -> str:
    """PATH with every folder that holds a ``vaultkit`` or ``vaultkit-hook`` program left out."""
    folders = [*os.environ.get("PATH", "").split(os.pathsep), "/usr/bin", "/bin"]
    return os.pathsep.join(
        f
        for f in dict.fromkeys(folders)
        if f and not any(os.access(Path(f, n), os.X_OK) for n in (dist.CLI, dist.HOOK))
    )


def _claude(sandbox: Sandbox, cwd: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(sandbox.claude), *args],
        cwd=cwd,
        env=sandbox.env(env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"claude {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def test_the_plugin_validates_for_the_plugin_directory(sandbox: Sandbox) -> None:
    env = {"PATH": path_without_vaultkit()}
    plugin = str(REPO / "plugin")
    out = _claude(
        sandbox, REPO, env, "plugin", "validate", "--strict", "--profile", "directory", plugin
    )
    assert "These checks found nothing to report" in out and "Validation passed" in out
    assert "Validation passed" in _claude(
        sandbox, REPO, env, "plugin", "validate", "--strict", str(REPO)
    )


def _attachments(transcript: Path, kind: str) -> list[object]:
    rows = read_jsonl(transcript)
    return [
        r["attachment"].get("content") for r in rows if r.get("attachment", {}).get("type") == kind
    ]


def test_without_vaultkit_the_session_goes_on_and_is_told_how_to_install(sandbox: Sandbox) -> None:
    env = {"PATH": path_without_vaultkit()}
    assert shutil.which(dist.HOOK, path=env["PATH"]) is None
    project = sandbox.project()
    _claude(sandbox, project, env, "plugin", "marketplace", "add", str(REPO))
    installed = _claude(sandbox, project, env, "plugin", "install", "vaultkit@vaultkit")
    assert "vaultkit@vaultkit" in installed
    sid = new_session_id()
    sandbox.mock.queue("agent", Text("Hello."))
    run = sandbox.run("hello", project, "--session-id", sid, extra_env=env)
    assert run.returncode == 0, run.stderr
    assert "not found" not in run.stdout + run.stderr and dist.HOOK not in run.stderr
    transcript = sandbox.transcripts_dir(project) / f"{sid}.jsonl"
    assert _attachments(transcript, "hook_system_message") == [dist.MISSING]  # shown to the user
    assert injected_texts(sandbox, project, sid) == [dist.MISSING]  # and the model knows it
    [failed] = [
        server
        for delta in read_jsonl(transcript)
        for server in delta.get("attachment", {}).get("failedMcpServers", [])
    ]
    assert failed["name"] == "plugin:vaultkit:vaultkit"
    logs = sandbox.home.glob(".cache/claude-cli-nodejs/*/mcp-logs-plugin-vaultkit-vaultkit/*")
    assert any(dist.MISSING in log.read_text(encoding="utf-8") for log in logs)
    assert not (project / "sessions").exists()  # nothing archived, nothing half-made

    [cached] = sandbox.config_dir.glob("plugins/cache/vaultkit/vaultkit/*/scripts")
    payload = json.dumps(
        {"session_id": sid, "transcript_path": str(transcript), "cwd": str(project)}
    )
    ended = subprocess.run(
        [str(cached / "vaultkit-hook.sh"), "SessionEnd", "--plugin"],
        input=payload,
        capture_output=True,
        text=True,
        env=sandbox.env(env),
        timeout=30,
    )
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, "", "")
