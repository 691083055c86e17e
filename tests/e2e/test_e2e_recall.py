"""Recall through the Claude Code plugin, with the real pinned CLI against the mock API.

The plugin is added from this repository as a local marketplace and installed with the real
``claude plugin`` commands; its hooks archive, distil and inject a session, and the mock model
asks the plugin's MCP server for a fact that only an older note holds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.base.store import Store

from .harness import REPO, Sandbox
from .mockapi import Text, ToolUse
from .pipeline import (
    echo_distillation,
    frontmatter,
    injected_texts,
    new_session_id,
    prompt_of,
    requests_for,
    wait_distilled,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

SEARCH_TOOL = (
    "mcp__plugin_vaultkit_vaultkit__search"  # plugin:<plugin>:<server>, as the CLI names it
)
KOREAN_NOTE = "wiki/2026-11-09_1545_1d6f0b8a_카테고리 규칙 엔진.md"
# The plugin's hooks and server call `vaultkit-hook` and `vaultkit` from PATH.
PATH_ENV = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def _claude(sandbox: Sandbox, project: Path, *args: str) -> str:
    done = subprocess.run(
        [str(sandbox.claude), *args],
        cwd=project,
        env=sandbox.env(PATH_ENV),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"claude {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def _plugin_project(sandbox: Sandbox) -> Path:
    project = sandbox.project()
    shutil.copytree(
        REPO / "examples" / "sessions",
        project / "sessions",
        ignore=shutil.ignore_patterns(".vaultkit", "raw"),
    )
    config = f"[distill]\nclaude_path = {json.dumps(str(sandbox.claude))}\n"
    (project / "sessions" / "vaultkit.toml").write_text(config, encoding="utf-8")
    _claude(sandbox, project, "plugin", "marketplace", "add", str(REPO))
    installed = _claude(sandbox, project, "plugin", "install", "vaultkit@vaultkit")
    assert "vaultkit@vaultkit" in installed
    return project


def test_the_plugin_archives_distils_injects_and_serves_search(sandbox: Sandbox) -> None:
    project = _plugin_project(sandbox)
    store = Store(project / "sessions")
    sandbox.mock.set_default("worker", echo_distillation("Plugin"))

    first = new_session_id()
    sandbox.mock.queue("agent", Text("Noted the rounding rule."))
    run = sandbox.run(
        "Remember: rounding is banker's rounding.",
        project,
        "--session-id",
        first,
        extra_env=PATH_ENV,
    )
    assert run.returncode == 0, run.stderr
    result = wait_distilled(store, first)
    assert result.raw.stat().st_mode & 0o777 == 0o600
    assert frontmatter(result.summary)["session_id"] == first

    second = new_session_id()
    sandbox.mock.queue(
        "agent",
        ToolUse("ToolSearch", {"query": f"select:{SEARCH_TOOL}"}),
        ToolUse(SEARCH_TOOL, {"query": "규칙"}),
        Text("The category rules are in the rule-engine session note."),
    )
    run = sandbox.run(
        "What did we decide about the category rules?",
        project,
        "--session-id",
        second,
        "--allowedTools",
        SEARCH_TOOL,
        extra_env=PATH_ENV,
    )
    assert run.returncode == 0, run.stderr
    injected = "\n".join(injected_texts(sandbox, project, second))
    assert f"HANDOFF-{first}" in injected  # the plugin's SessionStart hook injected session 1
    requests = requests_for(sandbox.mock.of_kind("agent"), second)
    answer = requests[-1].body["messages"][-1]
    results = [b for b in answer["content"] if b.get("type") == "tool_result"]
    assert results and not results[0].get("is_error"), answer
    found = json.loads(
        results[0]["content"]
        if isinstance(results[0]["content"], str)
        else results[0]["content"][0]["text"]
    )
    assert KOREAN_NOTE in [r["path"] for r in found["results"]]

    wait_distilled(store, second)
    workers = sandbox.mock.of_kind("worker")
    assert len(workers) == 2  # one distillation per user session: no recursion
    for worker in workers:
        tools = [t.get("name", "") for t in worker.body.get("tools", [])]
        assert not [t for t in tools if t.startswith("mcp__")], tools  # no MCP server in the child
        assert "plugin:vaultkit" not in json.dumps(worker.body.get("system", ""))
        assert "SessionStart hook additional context" not in prompt_of(worker.body)
    log = store.log.read_text(encoding="utf-8")
    assert log.count(f"SessionEnd {first}") == 1 and log.count(f"SessionEnd {second}") == 1


def test_hooks_run_once_when_the_plugin_and_hooks_install_are_both_present(
    sandbox: Sandbox,
) -> None:
    project = _plugin_project(sandbox)
    vaultkit = Path(sys.executable).parent / "vaultkit"
    done = subprocess.run(
        [str(vaultkit), "hooks", "install", "--scope", "project"],
        cwd=project,
        env=sandbox.env(PATH_ENV),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    store = Store(project / "sessions")
    sandbox.mock.set_default("worker", echo_distillation("Once"))
    sid = new_session_id()
    sandbox.mock.queue("agent", Text("ok"))
    run = sandbox.run("hello", project, "--session-id", sid, extra_env=PATH_ENV)
    assert run.returncode == 0, run.stderr
    wait_distilled(store, sid)
    log = store.log.read_text(encoding="utf-8")
    assert log.count(f"SessionEnd {sid}") == 1, log
    assert "(plugin):" in log and "registers vaultkit too" in log
    assert len(injected_texts(sandbox, project, sid)) <= 1


@pytest.mark.parametrize("folder", ["plugin", "."])
def test_claude_plugin_validate_passes_strictly(sandbox: Sandbox, folder: str) -> None:
    out = _claude(sandbox, REPO, "plugin", "validate", str(REPO / folder), "--strict")
    assert "Validation passed" in out


QUESTION = "How do imports avoid counting the same transaction twice?"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("엔진", KOREAN_NOTE),  # a two-character Korean query finds the Korean note
        (QUESTION, "wiki/concepts/Idempotent imports.md"),  # the sentence a model writes
    ],
    ids=["korean-word", "question"],
)
def test_hooks_install_registers_the_server_the_agent_calls_as_mcp_vaultkit_search(
    sandbox: Sandbox, query: str, expected: str
) -> None:
    project = sandbox.project()
    shutil.copytree(
        REPO / "examples" / "sessions",
        project / "sessions",
        ignore=shutil.ignore_patterns(".vaultkit", "raw"),
    )
    vaultkit = Path(sys.executable).parent / "vaultkit"
    done = subprocess.run(
        [str(vaultkit), "hooks", "install", "--scope", "project"],
        cwd=project,
        env=sandbox.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    tool = "mcp__vaultkit__search"
    sandbox.mock.queue(
        "agent",
        ToolUse("ToolSearch", {"query": f"select:{tool}"}),
        ToolUse(tool, {"query": query, "type": ["wiki"]}),
        Text("The rule engine session has it."),
    )
    run = sandbox.run("Where is the rule engine described?", project, "--allowedTools", tool)
    assert run.returncode == 0, run.stderr
    last = sandbox.mock.of_kind("agent")[-1].body["messages"][-1]
    [result] = [b for b in last["content"] if b.get("type") == "tool_result"]
    text = result["content"] if isinstance(result["content"], str) else result["content"][0]["text"]
    paths = [r["path"] for r in json.loads(text)["results"]]
    assert paths[0] == expected, paths
