"""The Gemini CLI adapter over real Gemini CLI 0.61 payloads and chat files, and hostile ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from vaultkit.agents import gemini, jsonlines
from vaultkit.agents.adapter import ASSISTANT, TOOL, USER, Entry, config_dir
from vaultkit.agents.gemini import distill as gemini_distill
from vaultkit.agents.gemini import reader as gemini_reader
from vaultkit.agents.payload import HookFields

CHATS = FIXTURES / "gemini"
PAYLOADS = FIXTURES / "hooks" / "gemini"
CONVERSATION = [
    (USER, "Write hi into out.txt"),
    (TOOL, "echo hi > out.txt"),
    (ASSISTANT, "I wrote hi into out.txt."),
    (USER, "그리고 요약해 줘"),
    (ASSISTANT, "Hello from the mock Gemini model."),
]


def _payload(name: str) -> dict[str, Any]:
    value = json.loads((PAYLOADS / name).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def test_real_payloads_carry_the_common_fields() -> None:
    start = HookFields.of(_payload("session-start-startup.json"))
    end = HookFields.of(_payload("session-end-exit.json"))
    assert start.hook_event_name == gemini.AGENT.start_event
    assert end.hook_event_name == gemini.AGENT.end_event
    assert end.reason == "exit" and end.reason in gemini.AGENT.end_reasons
    assert end.end_reason == "other"  # "exit" is not one of Claude Code's reasons
    assert start.session_id and start.session_id == end.session_id
    assert start.transcript_path == end.transcript_path
    rel = start.transcript_path.split("/.gemini/", 1)[1]
    assert Path(rel).match(gemini.AGENT.transcript_glob)
    assert rel.endswith(f"-{start.session_id[:8]}.jsonl")


def test_a_resume_start_names_a_stub_while_the_turns_go_to_the_original_file() -> None:
    resumed = HookFields.of(_payload("session-start-resume.json"))
    first = HookFields.of(_payload("session-start-startup.json"))
    assert resumed.source == "resume"
    assert resumed.session_id == first.session_id
    assert resumed.transcript_path != first.transcript_path
    assert list(gemini_reader.read(CHATS / "resume-stub.jsonl")) == []


def test_config_dir_follows_gemini_cli_home(tmp_path: Path) -> None:
    assert config_dir(gemini.AGENT, {"HOME": str(tmp_path)}) == str(tmp_path / ".gemini")
    moved = {"HOME": str(tmp_path), "GEMINI_CLI_HOME": "/srv/g"}
    assert config_dir(gemini.AGENT, moved) == "/srv/g/.gemini"


@pytest.mark.parametrize("name", ["chat.jsonl", "resumed-same-minute.jsonl"])
def test_reader_keeps_the_conversation_and_drops_injections(name: str) -> None:
    path = CHATS / name
    entries = list(gemini_reader.read(path))
    assert [(e.kind, e.text) for e in entries] == CONVERSATION
    assert entries[1] == Entry(
        TOOL, text="echo hi > out.txt", tool="run_shell_command", command="echo hi > out.txt"
    )
    everything = json.dumps([e.as_dict() for e in entries], ensure_ascii=False)
    assert "<hook_context>" in path.read_text(encoding="utf-8")
    assert "Handoff from the previous session" not in everything
    assert "session_context" not in everything
    assert "Process Group PGID" not in everything  # tool results are dropped


def _write(path: Path, records: list[object]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _msg(key: str, kind: str, content: object, **extra: object) -> dict[str, object]:
    return {"id": key, "type": kind, "content": content, **extra}


def test_hostile_chat_lines_are_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonlines, "MAX_LINE_BYTES", 4096)
    path = _write(
        tmp_path / "c.jsonl",
        [
            "{broken",
            "42",
            json.dumps(_msg("big", "user", "x" * 100_000)),
            {"$set": {"messages": [_msg("m0", "user", "set-up context")]}},
            _msg("i", "info", "Switched model"),
            _msg("e", "error", "quota"),
            {"id": "weird", "type": "user"},
            {"type": "gemini", "content": "no id"},
            _msg("u1", "user", [{"text": "<hook_context>unclosed injection"}]),
            _msg("u2", "user", [{"text": "real"}, {"inlineData": {"mimeType": "image/png"}}]),
            _msg("g1", "gemini", 7, toolCalls=["bad", {"name": "write_file", "args": 3}]),
        ],
    )
    assert list(gemini_reader.read(path)) == [
        Entry(USER, text="real"),
        Entry(TOOL, tool="write_file"),
    ]


def test_a_reappended_message_replaces_the_earlier_copy(tmp_path: Path) -> None:
    call = {"name": "write_file", "args": {"file_path": "/p/notes.md", "content": "x"}}
    path = _write(
        tmp_path / "c.jsonl",
        [
            _msg("g1", "gemini", ""),
            _msg("u1", "user", "in between"),
            _msg("g1", "gemini", "", toolCalls=[call]),
        ],
    )
    assert list(gemini_reader.read(path)) == [
        Entry(TOOL, text="/p/notes.md", tool="write_file", paths=("/p/notes.md",)),
        Entry(USER, text="in between"),
    ]


def test_rewind_drops_the_held_back_messages_after_its_target(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "c.jsonl",
        [
            _msg("u1", "user", "first"),
            _msg("u2", "user", "abandoned"),
            _msg("g2", "gemini", "abandoned answer"),
            {"$rewindTo": "u2"},
            _msg("u3", "user", "second"),
        ],
    )
    assert [e.text for e in gemini_reader.read(path)] == ["first", "second"]


def test_reading_streams_with_a_bounded_window(tmp_path: Path) -> None:
    def turn(i: int) -> str:
        return json.dumps(_msg(f"m{i}", "user" if i % 2 else "gemini", f"turn {i}")) + "\n"

    path = tmp_path / "c.jsonl"
    path.write_text("".join(turn(i) for i in range(gemini_reader.WINDOW + 1)), encoding="utf-8")
    reader = gemini_reader.read(path)
    assert next(reader).text == "turn 0"  # yielded once the window is full
    with path.open("a", encoding="utf-8") as handle:  # lines written after that still arrive
        handle.write("".join(turn(i) for i in range(gemini_reader.WINDOW + 1, 5_000)))
    assert [e.text for e in reader][-1] == "turn 4999"


def test_child_settings_turn_hooks_off() -> None:
    settings = gemini_distill.child_settings()
    assert settings["hooksConfig"] == {"enabled": False}
    assert settings["security"]["auth"]["selectedType"] == "gemini-api-key"
    assert gemini.AGENT.child_argv == ("gemini", "--skip-trust")
