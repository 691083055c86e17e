"""Captured Claude Code fixtures: secret-free, complete, still what the pinned CLI writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import require_program

from .capture_fixtures import FIXTURES, capture
from .harness import DUMMY_KEY, REPO, read_jsonl

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

HOOK_FILES = (
    "session-start-startup.json",
    "session-start-resume.json",
    "user-prompt-submit.json",
    "stop.json",
    "session-end-other.json",
    "interactive-session-start-startup.json",
    "interactive-user-prompt-submit.json",
    "interactive-stop.json",
    "interactive-session-end-clear.json",
    "interactive-session-start-clear.json",
    "interactive-session-end-prompt_input_exit.json",
)
TRANSCRIPTS = ("tool-use.jsonl", "injection.jsonl", "resumed.jsonl")
COMMON = {"session_id", "transcript_path", "cwd", "hook_event_name"}


def _load(path: Path) -> dict[str, Any]:
    value = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def _line_kinds(path: Path) -> set[tuple[str, str]]:
    return {
        (str(row.get("type")), str((row.get("attachment") or {}).get("type", "")))
        for row in read_jsonl(path)
    }


def _blocks(rows: list[dict[str, Any]], role: str, kind: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in rows:
        content = (row.get("message") or {}).get("content")
        if row.get("type") == role and isinstance(content, list):
            out.extend(b for b in content if isinstance(b, dict) and b.get("type") == kind)
    return out


def test_fixtures_hold_no_secrets() -> None:
    files = sorted(p for p in FIXTURES.rglob("*") if p.is_file())
    assert len(files) >= len(HOOK_FILES) + len(TRANSCRIPTS)
    for path in files:
        text = path.read_text(encoding="utf-8")
        for needle in (DUMMY_KEY, "sk-ant-", "MESSAGING_TOKEN", "x-api-key", "machineID"):
            assert needle not in text, f"{path.name} contains {needle}"
        assert str(REPO) not in text, f"{path.name} contains this checkout's path"


def test_every_hook_payload_fixture_has_the_common_fields() -> None:
    for name in HOOK_FILES:
        payload = _load(FIXTURES / "hooks" / name)
        assert payload.keys() >= COMMON, name
    assert _load(FIXTURES / "hooks" / "session-start-startup.json")["source"] == "startup"
    assert _load(FIXTURES / "hooks" / "session-start-resume.json")["source"] == "resume"
    assert _load(FIXTURES / "hooks" / "session-end-other.json")["reason"] == "other"
    hooks = FIXTURES / "hooks"
    assert _load(hooks / "interactive-session-end-clear.json")["reason"] == "clear"
    assert _load(hooks / "interactive-session-start-clear.json")["source"] == "clear"
    exit_payload = _load(hooks / "interactive-session-end-prompt_input_exit.json")
    assert exit_payload["reason"] == "prompt_input_exit"


def test_transcript_fixtures_cover_tools_injection_and_resume() -> None:
    tool_rows = read_jsonl(FIXTURES / "transcripts" / "tool-use.jsonl")
    (call,) = _blocks(tool_rows, "assistant", "tool_use")
    (result,) = _blocks(tool_rows, "user", "tool_result")
    assert result["tool_use_id"] == call["id"]
    injection = FIXTURES / "transcripts" / "injection.jsonl"
    assert ("attachment", "hook_additional_context") in _line_kinds(injection)
    resumed = read_jsonl(FIXTURES / "transcripts" / "resumed.jsonl")
    prompts = [
        row["message"]["content"]
        for row in resumed
        if row.get("type") == "user" and isinstance(row["message"]["content"], str)
    ]
    assert prompts == ["What did the last session do?", "이 프로젝트는 어떻게 빌드해?"]
    assert len({row.get("sessionId") for row in resumed if row.get("sessionId")}) == 1


def test_a_fresh_capture_has_the_same_shape_as_the_fixtures(
    tmp_path: Path, claude_bin: Path
) -> None:
    require_program("tmux")  # the capture includes the interactive UI
    fresh = capture(tmp_path / "out", tmp_path / "sandbox", claude_bin)
    assert sorted(p.name for p in fresh.hooks) == sorted(HOOK_FILES)
    for path in fresh.hooks:
        committed = _load(FIXTURES / "hooks" / path.name)
        assert set(_load(path)) == set(committed), path.name
    for path in fresh.transcripts:
        committed_kinds = _line_kinds(FIXTURES / "transcripts" / path.name)
        assert _line_kinds(path) == committed_kinds, path.name
