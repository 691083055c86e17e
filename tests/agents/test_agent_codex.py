"""The Codex adapter over real Codex CLI 0.171 payloads and rollouts, and hostile rollouts."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from vaultkit.agents import codex, jsonlines
from vaultkit.agents.adapter import ASSISTANT, META, TOOL, USER, Entry, config_dir
from vaultkit.agents.codex import hooks as codex_hooks
from vaultkit.agents.codex import reader as codex_reader
from vaultkit.agents.codex import trust as codex_trust
from vaultkit.agents.payload import HookFields

ROLLOUT = FIXTURES / "codex" / "rollout.jsonl"
PAYLOADS = FIXTURES / "hooks" / "codex"
EXE = "/opt/venv/bin/vaultkit-hook"
TRUST = FIXTURES / "codex" / "trust"  # hooks and the hashes Codex 0.171.0 wrote for them


def _payload(name: str) -> dict[str, Any]:
    value = json.loads((PAYLOADS / name).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def test_real_payloads_carry_the_common_fields() -> None:
    start = HookFields.of(_payload("session-start-startup.json"))
    end = HookFields.of(_payload("session-end-other.json"))
    assert start.hook_event_name == codex.AGENT.start_event
    assert start.source in codex.AGENT.start_sources
    assert end.reason in codex.AGENT.end_reasons
    assert start.session_id and start.session_id == end.session_id
    assert start.cwd == "{CWD}"
    assert start.transcript_path.startswith("{HOME}/.codex/sessions/")
    assert start.transcript_path.endswith(f"-{start.session_id}.jsonl")
    assert _payload("stop.json")["last_assistant_message"]
    assert HookFields.of(_payload("session-start-resume.json")).source == "resume"


def test_the_transcript_glob_matches_where_the_payload_points(tmp_path: Path) -> None:
    rel = _payload("session-start-startup.json")["transcript_path"].split("/.codex/", 1)[1]
    assert Path(rel).match(codex.AGENT.transcript_glob)
    env = {"HOME": str(tmp_path)}
    assert config_dir(codex.AGENT, env) == str(tmp_path / ".codex")
    assert config_dir(codex.AGENT, {**env, "CODEX_HOME": "/srv/codex"}) == "/srv/codex"


def test_reader_keeps_the_conversation_and_drops_injections_and_harness() -> None:
    entries = list(codex_reader.read(ROLLOUT))
    said = [(e.kind, e.text) for e in entries if e.kind in (USER, ASSISTANT)]
    assert said == [
        (USER, "Write hi into out.txt"),
        (ASSISTANT, "I wrote hi into out.txt."),
        (USER, "그리고 요약해 줘"),
        (ASSISTANT, "Hello from the mock Codex model."),
    ]
    tools = [e for e in entries if e.kind == TOOL]
    assert tools == [
        Entry(TOOL, text="echo hi > out.txt", tool="exec_command", command="echo hi > out.txt")
    ]
    meta = [e for e in entries if e.kind == META]
    assert meta[0] == Entry(META, cwd="{CWD}", git_branch="main")
    everything = json.dumps([e.as_dict() for e in entries], ensure_ascii=False)
    assert "Handoff from the previous session" in ROLLOUT.read_text(encoding="utf-8")
    assert "Handoff from the previous session" not in everything  # the injection is dropped
    assert "environment_context" not in everything
    assert "skills_instructions" not in everything


def _write(path: Path, records: list[object]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _item(payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response_item", "payload": payload}


def test_hostile_rollout_lines_are_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonlines, "MAX_LINE_BYTES", 4096)
    huge = _item({"type": "message", "role": "user", "content": [{"text": "x" * 100_000}]})
    path = _write(
        tmp_path / "r.jsonl",
        [
            "{broken",
            "[1, 2]",
            "",
            json.dumps(huge),
            {"type": "brand_new_kind", "payload": {"text": "?"}},
            _item({"type": "reasoning", "summary": [{"text": "secret thoughts"}]}),
            _item({"type": "message", "role": "user", "content": "not a list"}),
            _item({"type": "function_call", "name": "exec_command", "arguments": "{nope"}),
            _item({"type": "message", "role": "user", "content": [{"text": "real prompt"}]}),
            {"type": "response_item", "payload": "not an object"},
        ],
    )
    entries = list(codex_reader.read(path))
    assert entries == [
        Entry(TOOL, tool="exec_command"),
        Entry(USER, text="real prompt"),
    ]


def test_tool_calls_yield_commands_and_patched_files(tmp_path: Path) -> None:
    patch = (
        "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n"
        "*** Add File: notes/new.md\n+hi\n*** End Patch\n"
    )
    shell = {"type": "exec", "command": ["bash", "-lc", "pytest -q"]}
    path = _write(
        tmp_path / "r.jsonl",
        [
            _item({"type": "custom_tool_call", "name": "apply_patch", "input": patch}),
            _item({"type": "local_shell_call", "action": shell}),
            _item(
                {
                    "type": "function_call",
                    "name": "shell",
                    "arguments": json.dumps({"command": ["git", "status", "--short"]}),
                }
            ),
        ],
    )
    entries = list(codex_reader.read(path))
    assert entries[0].paths == ("src/app.py", "notes/new.md")
    assert entries[1].command == "pytest -q"
    assert entries[2].command == "git status --short"


def test_harness_blocks_are_whole_tag_blocks_only() -> None:
    assert codex_reader.is_harness_block(
        "<environment_context>\n  <cwd>/x</cwd>\n</environment_context>"
    )
    assert codex_reader.is_harness_block("  <user_instructions>be nice</user_instructions>\n")
    assert not codex_reader.is_harness_block("<b>bold</b> and more text after")
    assert not codex_reader.is_harness_block("fix <div> rendering </div>")


def test_untrusted_lists_vaultkit_hooks_without_a_trust_record() -> None:
    hooks_path = "/home/me/.codex/hooks.json"
    data = codex_hooks.install({"hooks": {"SessionEnd": [{"hooks": [{"command": "x"}]}]}}, EXE)
    start_key = codex_trust.trust_key(hooks_path, "SessionStart", 0, 0)
    end_key = codex_trust.trust_key(hooks_path, "SessionEnd", 1, 0)
    assert end_key == "/home/me/.codex/hooks.json:session_end:1:0"
    both = {start_key: codex_trust.UNTRUSTED, end_key: codex_trust.UNTRUSTED}
    assert codex_trust.untrusted(data, hooks_path, "") == both
    end_hash = codex_trust.trust_hash("SessionEnd", data["hooks"]["SessionEnd"][1], installed(data))
    config = (
        f'model = "gpt-5"\n[hooks.state]\n[hooks.state."{end_key}"]\ntrusted_hash = "{end_hash}"\n'
    )
    assert codex_trust.trusted_hashes(config) == {end_key: end_hash}
    assert codex_trust.untrusted(data, hooks_path, config) == {start_key: codex_trust.UNTRUSTED}
    assert codex_trust.untrusted(data, hooks_path, "not = [toml") == both


def installed(data: dict[str, Any]) -> dict[str, Any]:
    """vaultkit's SessionEnd hook in ``data`` (the last group's only hook)."""
    hook: dict[str, Any] = data["hooks"]["SessionEnd"][-1]["hooks"][0]
    return hook


def test_trust_hash_reproduces_every_hash_the_codex_tui_wrote() -> None:
    cases = json.loads((TRUST / "tui-trusted.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 10
    for case in cases:
        got = codex_trust.trust_hash(case["event"], case["group"], case["hook"])
        assert got == case["trusted_hash"], case


def test_trust_hash_normalises_as_codex_does() -> None:
    hook = {"type": "command", "command": "echo a"}
    end = codex_trust.trust_hash("SessionEnd", {}, hook)
    assert end == codex_trust.trust_hash("SessionEnd", {}, {**hook, "timeout": 1})
    assert codex_trust.trust_hash(
        "SessionEnd", {}, {**hook, "timeout": 10}
    ) == codex_trust.trust_hash("SessionEnd", {}, {**hook, "timeout": 3})
    assert codex_trust.trust_hash("Stop", {"matcher": "x"}, hook) == codex_trust.trust_hash(
        "Stop", {}, hook
    )
    assert codex_trust.trust_hash("SessionStart", {"matcher": "x"}, hook) != codex_trust.trust_hash(
        "SessionStart", {}, hook
    )
    assert codex_trust.trust_hash(
        "SessionStart", {}, {**hook, "ignored": 1}
    ) == codex_trust.trust_hash("SessionStart", {}, hook)
    for bad in ({"command": "  "}, {"timeout": 2.5}, {"timeout": True}, {"type": "prompt"}):
        assert codex_trust.trust_hash("SessionStart", {}, {**hook, **bad}) is None


def test_a_stale_trust_record_is_reported_as_modified() -> None:
    """The hooks and the [hooks.state] records the Codex TUI wrote for them (path replaced)."""
    hooks_path = "/home/me/.codex/hooks.json"
    data = json.loads((TRUST / "hooks.json").read_text(encoding="utf-8"))
    config = (TRUST / "config.toml").read_text(encoding="utf-8")
    assert codex_trust.untrusted(data, hooks_path, config) == {}
    start_key = codex_trust.trust_key(hooks_path, "SessionStart", 0, 0)
    moved = copy.deepcopy(data)  # vaultkit moved to another venv: same spot, new command
    moved["hooks"]["SessionStart"][0]["hooks"][0]["command"] = "/opt/vk/bin/vaultkit-hook x"
    assert codex_trust.untrusted(moved, hooks_path, config) == {start_key: codex_trust.MODIFIED}
    # Reinstalling puts vaultkit's groups last, where the records are for the user's hooks.
    newer = codex_hooks.install(data, "/opt/vaultkit/bin/vaultkit-hook")
    assert codex_trust.untrusted(newer, hooks_path, config) == {
        codex_trust.trust_key(hooks_path, "SessionStart", 2, 0): codex_trust.MODIFIED,
        codex_trust.trust_key(hooks_path, "SessionEnd", 3, 0): codex_trust.MODIFIED,
    }
    assert codex_trust.untrusted(newer, hooks_path, "") == dict.fromkeys(
        codex_trust.untrusted(newer, hooks_path, config), codex_trust.UNTRUSTED
    )


def test_child_argv_reads_the_prompt_on_stdin_with_hooks_and_persistence_off() -> None:
    argv = codex.AGENT.child_argv
    assert argv[:2] == ("codex", "exec")
    disabled = {argv[i + 1] for i, word in enumerate(argv) if word == "--disable"}
    assert disabled == {"hooks", "plugins", "remote_plugin", "apps"}
    assert argv[argv.index("-c") + 1] == "analytics.enabled=false"
    assert "--ephemeral" in argv
    assert argv[-1] == "-"
