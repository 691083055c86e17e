"""Continuity inside the real Claude Code CLI: the ``/handoff`` slash command installed by
``vaultkit hooks install`` makes the (mock) model run ``vaultkit baton``; the next session of the
project gets the memo first in its context, exactly once; the prompt hook feeds the activity log.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from vaultkit.base.store import Store
from vaultkit.continuity import baton

from .harness import Sandbox
from .mockapi import Dynamic, Reply, Text, ToolUse
from .pipeline import (
    INJECTION_PREFIX,
    VAULTKIT,
    echo_distillation,
    injected_texts,
    new_session_id,
    observe,
    prompt_of,
    requests_for,
    vault_project,
    wait_distilled,
    wait_idle,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

MEMO = "## Next move\nMEMO-E2E-42: add the failing tokenizer test in tests/test_tok.py\n"
_TEMPLATE_CALL = re.compile(r"(\S*vaultkit) baton --session \"([0-9a-f-]+)\"")


def _request_text(body: dict[str, Any]) -> str:
    return json.dumps(body.get("messages", []), ensure_ascii=False)


def _baton_call(seen: dict[str, str]) -> Dynamic:
    """The model follows the slash command: one Bash call of the exact templated command."""

    def build(body: dict[str, Any]) -> Reply:
        text = prompt_of(body)
        found = _TEMPLATE_CALL.search(text)
        assert found is not None, "the /handoff command text did not reach the model"
        program, session = found.groups()
        seen["program"], seen["session"] = program, session
        command = f"{program} baton --session {shlex.quote(session)} <<'VAULTKIT_MEMO'\n"
        command += f"{MEMO}VAULTKIT_MEMO"
        return ToolUse("Bash", {"command": command, "description": "leave the baton"})

    return Dynamic(build)


def test_baton_round_trip_through_the_slash_command(sandbox: Sandbox) -> None:
    project = vault_project(sandbox)
    store = Store(project / "sessions")
    command_file = project / ".claude" / "commands" / "handoff.md"
    assert command_file.is_file(), "vaultkit hooks install did not install /handoff"
    sandbox.mock.set_default("worker", echo_distillation())
    seen: dict[str, str] = {}
    sandbox.mock.queue("agent", _baton_call(seen), Text("Baton left for the next session."))
    first = new_session_id()
    run = sandbox.run("/handoff", project, "--session-id", first)
    assert run.returncode == 0, f"claude failed: {run.stdout}{run.stderr}"
    assert seen["session"] == first  # Claude Code filled ${CLAUDE_SESSION_ID} in the command
    assert Path(seen["program"]) == VAULTKIT
    ((_, left),) = baton.pending(store)
    assert left.session_id == first and "MEMO-E2E-42" in left.memo
    assert left.agent_pid > 0  # the claude process was found above the Bash tool's shell

    wait_distilled(store, first)
    sandbox.mock.queue("agent", Text("Continuing with the tokenizer test."))
    second = new_session_id()
    assert sandbox.run("continue", project, "--session-id", second).returncode == 0
    (request,) = requests_for(sandbox.mock.of_kind("agent"), second)
    body = _request_text(request.body)
    assert "MEMO-E2E-42" in body
    injected = "\n".join(injected_texts(sandbox, project, second))
    assert injected.startswith("## vaultkit: baton from the previous session")
    # a session that only ran /handoff has no user turn of its own: it leaves a baton and no
    # note (issue 22), so the memo is all the memory there is
    assert f"HANDOFF-{first}" not in injected and len(injected) < 10_000
    assert not list(store.summary.glob(f"*{first[:8]}*"))
    taken = baton.read(store.state / "batons" / "taken" / f"{_baton_name(store)}")
    assert taken is not None and taken.taken_by == second

    sandbox.mock.queue("agent", Text("Fresh start."))
    third = new_session_id()
    assert sandbox.run("hello", project, "--session-id", third).returncode == 0
    (later,) = requests_for(sandbox.mock.of_kind("agent"), third)
    # Consumed: exactly one session inherits (the memo may still appear in the distilled notes).
    assert "vaultkit: baton from the previous session" not in _request_text(later.body)
    assert "vaultkit: baton from the previous session" in body
    log = "\n".join(p.read_text() for p in sorted((store.root / "logs").glob("*.log")))
    assert f"agent: session start (startup) {second[:8]}" in log
    assert f"agent: baton left by {first[:8]}" in log
    assert wait_idle(store)
    observe(
        "baton",
        injected_head=injected[:400],
        prefix_seen=INJECTION_PREFIX in body,
        activity_lines=len(log.splitlines()),
    )


def _baton_name(store: Store) -> str:
    (path,) = (store.state / "batons" / "taken").glob("*.json")
    return path.name


def test_context_pressure_warning_reaches_the_model_once(sandbox: Sandbox) -> None:
    project = vault_project(sandbox)
    store = Store(project / "sessions")
    done = subprocess.run(
        [str(VAULTKIT), "hooks", "install", "--scope", "project", "--prompt-hook"],
        cwd=project,
        env=sandbox.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with store.config_file.open("a", encoding="utf-8") as handle:
        handle.write("[pressure]\nwindow = 10\nthreshold = 50\n")  # the mock reports ~19 tokens
    sandbox.mock.set_default("worker", echo_distillation())
    sid = new_session_id()
    assert sandbox.run("first prompt", project, "--session-id", sid).returncode == 0
    for prompt in ("second prompt", "third prompt"):
        assert sandbox.run(prompt, project, "--resume", sid).returncode == 0
    requests = requests_for(sandbox.mock.of_kind("agent"), sid)
    warned = [
        r
        for r in requests
        if "vaultkit: this session's context holds about" in _request_text(r.body)
    ]
    first_warned = next(i for i, r in enumerate(requests) if r in warned)
    assert first_warned == 1  # the first prompt had no reported usage yet; the second warns
    texts = [_request_text(r.body) for r in requests]
    assert all(t.count("vaultkit: this session's context holds about") == 1 for t in texts[1:])
    log = "\n".join(p.read_text() for p in sorted((store.root / "logs").glob("*.log")))
    assert log.count(f"agent: prompt {sid[:8]}") == 3
    assert wait_idle(store)
    observe("pressure", requests=len(requests), warned_requests=len(warned))
