"""The harness itself against the real Claude Code CLI: mock answers, tools, hooks, transcripts.

These pin down the facts the rest of vaultkit relies on (hook payload fields, where transcripts
live, how a SessionStart injection reaches the model), so a Claude Code upgrade that changes them
fails here first, with a precise message.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import require_program

from .capture_fixtures import interactive_clear_and_exit
from .harness import Sandbox, hooks_settings, read_jsonl, write_project_settings
from .mockapi import HttpError, Text, ToolUse

pytestmark = pytest.mark.e2e

HOOK = Path(__file__).with_name("dump_hook.py")
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")


def _payloads(folder: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.json")):
        value = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(value, dict)
        out.append(value)
    return out


def _blocks_of(body: Any, kind: str) -> list[dict[str, Any]]:
    return [
        block
        for message in body["messages"]
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if isinstance(block, dict) and block.get("type") == kind
    ]


def _with_dump_hooks(sandbox: Sandbox, project: Path) -> Path:
    dumps = sandbox.root / "dumps"
    command = f"{sys.executable} {HOOK}"
    write_project_settings(project, hooks_settings(command, EVENTS))
    return dumps


def test_print_mode_answers_from_the_mock_and_stays_local(sandbox: Sandbox) -> None:
    project = sandbox.project()
    sandbox.mock.queue("agent", Text("scripted answer 4711"))
    run = sandbox.run("hello", project)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "scripted answer 4711"
    agent = sandbox.mock.of_kind("agent")
    assert len(agent) == 1
    assert agent[0].body["stream"] is True
    assert "hello" in agent[0].user_texts()
    assert "x-api-key" not in agent[0].headers
    assert agent[0].headers["user-agent"].startswith("claude-cli/")
    assert sandbox.mock.outside() == []
    session_id = agent[0].headers["x-claude-code-session-id"]
    transcript = sandbox.transcripts_dir(project) / f"{session_id}.jsonl"
    assert sandbox.transcripts(project) == [transcript]
    kinds = [row.get("type") for row in read_jsonl(transcript)]
    assert "user" in kinds and "assistant" in kinds


def test_tool_use_makes_the_agent_really_run_bash(sandbox: Sandbox) -> None:
    project = sandbox.project()
    sandbox.mock.queue(
        "agent",
        ToolUse("Bash", {"command": "echo hi > out.txt", "description": "write out.txt"}),
        Text("wrote out.txt"),
    )
    run = sandbox.run("write hi into out.txt", project, "--allowedTools", "Bash")
    assert run.returncode == 0, run.stderr
    assert (project / "out.txt").read_text(encoding="utf-8") == "hi\n"
    first, second = sandbox.mock.of_kind("agent")
    assert _blocks_of(first.body, "tool_result") == []
    (call,) = _blocks_of(second.body, "tool_use")
    (result,) = _blocks_of(second.body, "tool_result")
    assert call["name"] == "Bash"
    assert result["tool_use_id"] == call["id"]
    assert run.stdout.strip() == "wrote out.txt"


def test_real_hook_payloads_carry_the_fields_vaultkit_reads(sandbox: Sandbox) -> None:
    project = sandbox.project()
    dumps = _with_dump_hooks(sandbox, project)
    env = {"E2E_DUMP_DIR": str(dumps)}
    assert sandbox.run("first prompt", project, extra_env=env).returncode == 0
    payloads = _payloads(dumps)
    assert [p["hook_event_name"] for p in payloads] == list(EVENTS)
    start, prompt, _stop, end = payloads
    assert start["source"] == "startup"
    assert prompt["prompt"] == "first prompt"
    assert end["reason"] == "other"
    session_id = start["session_id"]
    transcript = Path(start["transcript_path"])
    for payload in payloads:
        assert payload["session_id"] == session_id
        assert Path(payload["transcript_path"]) == transcript
        assert Path(payload["cwd"]) == project
    assert transcript.is_file()
    assert transcript.parent == sandbox.transcripts_dir(project)


def test_resume_keeps_the_session_id_and_appends_to_its_transcript(sandbox: Sandbox) -> None:
    project = sandbox.project()
    dumps = _with_dump_hooks(sandbox, project)
    env = {"E2E_DUMP_DIR": str(dumps)}
    assert sandbox.run("first prompt", project, extra_env=env).returncode == 0
    session_id = _payloads(dumps)[0]["session_id"]
    transcript = sandbox.transcripts_dir(project) / f"{session_id}.jsonl"
    lines_before = len(read_jsonl(transcript))
    run = sandbox.run("second prompt", project, "--resume", session_id, extra_env=env)
    assert run.returncode == 0, run.stderr
    payloads = _payloads(dumps)[len(EVENTS) :]
    assert [p["hook_event_name"] for p in payloads] == list(EVENTS)
    assert payloads[0]["source"] == "resume"
    assert {p["session_id"] for p in payloads} == {session_id}
    assert sandbox.transcripts(project) == [transcript]
    assert len(read_jsonl(transcript)) > lines_before


def test_session_start_output_reaches_the_model_and_the_transcript(sandbox: Sandbox) -> None:
    project = sandbox.project()
    dumps = _with_dump_hooks(sandbox, project)
    env = {"E2E_DUMP_DIR": str(dumps), "E2E_INJECT": "FACT-8812: the build uses tabs."}
    assert sandbox.run("hello", project, extra_env=env).returncode == 0
    (request,) = sandbox.mock.of_kind("agent")
    assert request.text.count("FACT-8812") == 1
    session_id = _payloads(dumps)[0]["session_id"]
    rows = read_jsonl(sandbox.transcripts_dir(project) / f"{session_id}.jsonl")
    attachments = [r["attachment"] for r in rows if r.get("type") == "attachment"]
    injected = [a for a in attachments if a.get("type") == "hook_additional_context"]
    assert len(injected) == 1
    assert "FACT-8812" in json.dumps(injected[0])


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        (HttpError(500, "api_error", "boom"), "API Error: 500"),
        (HttpError(529, "overloaded_error", "Overloaded"), "529"),
        (HttpError(401, "authentication_error", "invalid x-api-key"), "Invalid API key"),
    ],
)
def test_api_errors_end_print_mode_with_a_message(
    sandbox: Sandbox, error: HttpError, shown: str
) -> None:
    project = sandbox.project()
    sandbox.mock.set_default("agent", error)
    run = sandbox.run("hello", project)
    assert run.returncode == 1
    assert shown in run.stdout
    assert len(sandbox.mock.of_kind("agent")) == 1  # x-should-retry: false stops the retries


def test_interactive_clear_and_exit_under_tmux(sandbox: Sandbox) -> None:
    require_program("tmux")
    project = sandbox.project()
    dumps = _with_dump_hooks(sandbox, project)
    events = interactive_clear_and_exit(sandbox, project, dumps)
    assert events == [*EVENTS[:3], "SessionEnd", "SessionStart", *EVENTS[1:]]
    payloads = _payloads(dumps)
    first_end, clear_start, last_end = payloads[3], payloads[4], payloads[-1]
    assert (first_end["reason"], clear_start["source"]) == ("clear", "clear")
    assert last_end["reason"] == "prompt_input_exit"
    assert clear_start["session_id"] != first_end["session_id"]
    assert last_end["session_id"] == clear_start["session_id"]
    assert len(sandbox.mock.of_kind("agent")) == 2
    # The interactive UI tries hosts of its own despite the quiet variables; the proxy turns
    # each attempt into a refused CONNECT to 127.0.0.1, so nothing leaves the machine.
    assert all(r.method == "CONNECT" for r in sandbox.mock.outside())
