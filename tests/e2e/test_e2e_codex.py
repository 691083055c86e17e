"""The real Codex CLI 0.171 against the mock Responses API: hooks, injection, rollout, trust.

These pin down the facts vaultkit's Codex adapter relies on (hook payload fields, where the
rollout lives, how SessionStart output reaches the model, that untrusted hooks are skipped and
that ``--disable hooks --ephemeral`` makes a quiet child run), so a Codex upgrade that changes
them fails here first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import require_program

from .agents_harness import CodexSandbox, hook_groups, recorder_command
from .mock_openai import FunctionCall, MockOpenAI, Text, input_texts

pytestmark = pytest.mark.e2e

EVENTS = ("SessionStart", "Stop", "SessionEnd")
BYPASS = "--dangerously-bypass-hook-trust"
MARKER = "Handoff from the previous session: INJECTED-7f3a"


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIXTURE_NAMES = ("session-start-startup.json", "stop.json", "session-end-other.json")


def _fixture(name: str) -> dict[str, object]:
    value = json.loads((FIXTURES / "hooks" / "codex" / name).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def _record_kinds(path: Path) -> set[str]:
    return {json.loads(line)["type"] for line in path.read_text("utf-8").splitlines()}


@pytest.fixture
def mock() -> Iterator[MockOpenAI]:
    with MockOpenAI() as server:
        yield server


@pytest.fixture
def box(tmp_path: Path, codex_bin: Path, mock: MockOpenAI) -> CodexSandbox:
    require_program("git")  # the sandbox's projects are git repositories
    sandbox = CodexSandbox(tmp_path, codex_bin, mock.url)
    sandbox.write_hooks(hook_groups(recorder_command(), EVENTS, 10))
    return sandbox


def _agent_texts(mock: MockOpenAI) -> list[str]:
    return [t for r in mock.of_kind("agent") for t in input_texts(r.body)]


def test_hooks_fire_with_the_documented_fields(box: CodexSandbox, mock: MockOpenAI) -> None:
    project = box.project()
    mock.replies.queue(
        "agent", FunctionCall("exec_command", {"cmd": "echo hi > out.txt"}), Text("Wrote it.")
    )
    run = box.exec(
        "Write hi into out.txt",
        project,
        BYPASS,
        "--dangerously-bypass-approvals-and-sandbox",
        extra_env={"E2E_INJECT": MARKER},
    )
    assert run.returncode == 0, run.stderr
    payloads = box.payloads()
    assert [p["hook_event_name"] for p in payloads] == list(EVENTS)
    start, stop, end = payloads
    assert start["source"] == "startup"
    assert end["reason"] == "other"
    assert stop["last_assistant_message"] == "Wrote it."
    assert {p["session_id"] for p in payloads} == {start["session_id"]}
    assert {Path(p["cwd"]).resolve() for p in payloads} == {project.resolve()}
    transcript = Path(start["transcript_path"])
    assert {p["transcript_path"] for p in payloads} == {str(transcript)}
    assert transcript.is_file()
    rel = transcript.relative_to(box.codex_home / "sessions").as_posix()
    assert re.fullmatch(rf"\d{{4}}/\d\d/\d\d/rollout-[0-9T-]+-{start['session_id']}\.jsonl", rel)
    assert (project / "out.txt").read_text(encoding="utf-8").strip() == "hi"
    assert mock.of_kind("outside") == []
    for payload, name in zip(payloads, FIXTURE_NAMES, strict=True):
        assert sorted(payload) == sorted(_fixture(name)), name  # the committed fixtures still hold
    assert _record_kinds(transcript) == _record_kinds(FIXTURES / "codex" / "rollout.jsonl")


@pytest.mark.parametrize("mode", ["json", "plain"])
def test_session_start_output_reaches_the_model(
    box: CodexSandbox, mock: MockOpenAI, mode: str
) -> None:
    run = box.exec(
        "say hi",
        box.project(),
        BYPASS,
        extra_env={"E2E_INJECT": MARKER, "E2E_INJECT_MODE": mode},
    )
    assert run.returncode == 0, run.stderr
    assert any(MARKER in text for text in _agent_texts(mock)), mode
    # Codex adds it as a developer message of its own, not inside the user's prompt.
    developer = [
        item
        for r in mock.of_kind("agent")
        for item in r.body["input"]
        if item.get("role") == "developer" and MARKER in str(item.get("content"))
    ]
    assert developer
    assert mock.of_kind("outside") == []


def test_untrusted_hooks_are_skipped_silently(box: CodexSandbox, mock: MockOpenAI) -> None:
    run = box.exec("say hi", box.project(), extra_env={"E2E_INJECT": MARKER})
    assert run.returncode == 0, run.stderr
    assert box.payloads() == []
    assert not any(MARKER in text for text in _agent_texts(mock))
    assert mock.of_kind("agent")


def test_a_child_run_fires_no_hooks_and_keeps_no_rollout(
    box: CodexSandbox, mock: MockOpenAI
) -> None:
    run = box.exec("summarise", box.project(), BYPASS, "--disable", "hooks", "--ephemeral")
    assert run.returncode == 0, run.stderr
    assert "Hello from the mock Codex model." in run.stdout
    assert box.payloads() == []
    assert not (box.codex_home / "sessions").exists()


def test_project_hooks_load_only_in_a_trusted_project(box: CodexSandbox, mock: MockOpenAI) -> None:
    box.write_hooks({})
    project = box.project()
    (project / ".codex").mkdir()
    hooks = hook_groups(recorder_command(), ("SessionStart", "SessionEnd"), 10)
    (project / ".codex" / "hooks.json").write_text(json.dumps(hooks), encoding="utf-8")
    assert box.exec("say hi", project, BYPASS).returncode == 0
    assert box.payloads() == []
    assert box.exec("say hi", project, BYPASS, "--trust").returncode == 0
    assert [p["hook_event_name"] for p in box.payloads()] == ["SessionStart", "SessionEnd"]
    config = (box.codex_home / "config.toml").read_text(encoding="utf-8")
    assert f'[projects."{project}"]' in config or f"[projects.'{project}']" in config
    assert 'trust_level = "trusted"' in config


def test_hooks_in_config_toml_run_too(box: CodexSandbox, mock: MockOpenAI) -> None:
    box.write_hooks({})
    config = box.codex_home / "config.toml"
    table = (
        "\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\n"
        f'type = "command"\ncommand = "{recorder_command()}"\ntimeout = 10\n'
    )
    config.write_text(config.read_text(encoding="utf-8") + table, encoding="utf-8")
    assert box.exec("say hi", box.project(), BYPASS).returncode == 0
    assert [p["hook_event_name"] for p in box.payloads()] == ["SessionStart"]


def test_a_trust_record_with_a_wrong_hash_does_not_trust(
    box: CodexSandbox, mock: MockOpenAI
) -> None:
    hooks = box.codex_home / "hooks.json"
    config = box.codex_home / "config.toml"
    records = "".join(
        f'\n[hooks.state."{hooks}:{event}:0:0"]\ntrusted_hash = "sha256:{"0" * 64}"\n'
        for event in ("session_start", "stop", "session_end")
    )
    config.write_text(config.read_text(encoding="utf-8") + records, encoding="utf-8")
    assert box.exec("say hi", box.project()).returncode == 0
    assert box.payloads() == []


def _injected(mock: MockOpenAI, needle: str) -> str:
    found = [
        part["text"]
        for r in mock.of_kind("agent")
        for item in r.body["input"]
        if item.get("role") == "developer"
        for part in item.get("content") or []
        if needle in part.get("text", "")
    ]
    assert len(found) == 1
    return str(found[0])


def test_injections_over_10000_characters_are_truncated_and_saved_to_tmpdir(
    box: CodexSandbox, mock: MockOpenAI
) -> None:
    project = box.project()
    exact = "a" * 9_996 + "-END"
    assert box.exec("hi", project, BYPASS, extra_env={"E2E_INJECT": exact}).returncode == 0
    assert _injected(mock, "-END") == exact  # 10,000 characters arrive verbatim
    longer = "b" * 10_006 + "-END"
    assert box.exec("hi", project, BYPASS, extra_env={"E2E_INJECT": longer}).returncode == 0
    cut = _injected(mock, "bbbb")
    assert cut.startswith("Warning: truncated output")
    saved = list((box.tmp / "hook_outputs").glob("*/*.txt"))
    assert [p.read_text(encoding="utf-8").strip() for p in saved] == [longer]
    assert f"Full hook output saved to: {saved[0]}" in cut
