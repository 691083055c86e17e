"""Every agent's reader through the condenser: real fixtures, garbage lines, bounded memory."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vaultkit.agents import readers
from vaultkit.agents.adapter import ASSISTANT, TOOL, USER, Entry
from vaultkit.agents.claude import reader as claude_reader
from vaultkit.agents.jsonlines import Tally
from vaultkit.session.transcripts.condense import condense
from vaultkit.vault.index import IndexEntry

SOURCES = {
    "claude": FIXTURES / "claude" / "transcripts" / "tool-use.jsonl",
    "codex": FIXTURES / "codex" / "rollout.jsonl",
    "gemini": FIXTURES / "gemini" / "chat.jsonl",
}
INJECTED = "Handoff from the previous session"


def lines_of(agent: str) -> list[bytes]:
    return SOURCES[agent].read_bytes().splitlines(keepends=True)


def test_codex_and_gemini_digests_hold_the_conversation_and_not_the_injection() -> None:
    for agent in ("codex", "gemini"):
        digest = condense(SOURCES[agent], 60_000, agent, cwd="/work/proj")
        assert digest.recent_prompts == ("Write hi into out.txt", "그리고 요약해 줘"), agent
        assert digest.commands == ("echo hi > out.txt",), agent
        assert digest.last_assistant.startswith("Hello from the mock"), agent
        assert digest.turns == 4 and digest.bad_lines == 0, agent
        assert INJECTED not in digest.text and "Streaming transcripts" not in digest.text
        assert "<environment_context>" not in digest.text and "session_context" not in digest.text
    codex = condense(SOURCES["codex"], 60_000, "codex")
    assert (codex.git_branch, codex.cwd) == ("main", "{CWD}")  # from session_meta
    gemini = condense(SOURCES["gemini"], 60_000, "gemini", cwd="/work/proj")
    assert (gemini.git_branch, gemini.cwd) == (None, "/work/proj")  # the chat has neither
    assert condense(FIXTURES / "gemini" / "resume-stub.jsonl", 60_000, "gemini").turns == 0


def test_claude_reader_groups_a_reply_by_message_id_and_keeps_read_targets(tmp_path: Path) -> None:
    rows = [
        {"type": "user", "cwd": "/p", "gitBranch": "dev", "message": {"content": "go"}},
        {"type": "assistant", "message": {"id": "m1", "content": [{"type": "text", "text": "a"}]}},
        {
            "type": "assistant",
            "message": {
                "id": "m1",
                "content": [{"type": "tool_use", "name": "Read", "input": {"file_path": "/p/x"}}],
            },
        },
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "no id"}]}},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": "no id again"}]}},
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    entries = list(claude_reader.read(path))
    assert [e.kind for e in entries] == ["meta", USER, ASSISTANT, TOOL, ASSISTANT, ASSISTANT]
    tool = entries[3]
    assert (tool.tool, tool.target, tool.paths, tool.turn) == ("Read", "/p/x", (), "m1")
    assert entries[4].turn != entries[5].turn  # lines without an id are replies of their own
    digest = condense(path, 10_000)
    assert digest.text.count("## Assistant") == 3 and "→ Read x" in digest.text
    assert (digest.git_branch, digest.cwd) == ("dev", "/p")


def garbage(line: bytes, cut: int) -> bytes:
    """A line that no reader can use: ``line`` cut short, or bytes that are not UTF-8 JSON."""
    body = line.rstrip(b"\n")
    if 0 < cut < len(body):
        return body[:cut] + b"\n"
    return b"\xff" + body[: max(0, cut)] + b"\n"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    agent=st.sampled_from(sorted(SOURCES)),
    noise=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 60_000)), max_size=12),
    stop=st.integers(0, 40),
)
def test_garbage_and_truncated_lines_change_nothing_but_the_bad_count(
    tmp_path_factory: pytest.TempPathFactory, agent: str, noise: list[tuple[int, int]], stop: int
) -> None:
    folder = tmp_path_factory.mktemp("r")
    lines = lines_of(agent)
    clean = lines[: max(1, stop)] if stop < len(lines) else lines
    mixed = list(clean)
    for at, cut in noise:
        source = lines[at % len(lines)]
        mixed.insert(at % (len(mixed) + 1), garbage(source, cut % (len(source) + 1)))
    (folder / "clean.jsonl").write_bytes(b"".join(clean))
    (folder / "mixed.jsonl").write_bytes(b"".join(mixed))
    tally = Tally()
    got: list[Entry] = list(readers.read(folder / "mixed.jsonl", agent, tally))
    assert got == list(readers.read(folder / "clean.jsonl", agent))
    assert tally.lines == len(mixed)
    if agent != "claude":  # Claude's reader drops some lines unparsed (tool results), not bad
        assert tally.bad == len(noise)
    digest = condense(folder / "mixed.jsonl", 2_000, agent)
    assert digest.lines == len(mixed)


def item(kind: str, **fields: object) -> bytes:
    """One rollout ``response_item`` line."""
    return json.dumps({"type": "response_item", "payload": {"type": kind, **fields}}).encode()


def message(role: str, text: str) -> bytes:
    part = "output_text" if role == "assistant" else "input_text"
    return item("message", role=role, content=[{"type": part, "text": text}])


def test_a_big_codex_rollout_condenses_in_bounded_memory(tmp_path: Path) -> None:
    blob = "o" * 200_000
    rows = (
        message("developer", blob),
        message("user", "step " + "p" * 500),
        item("function_call", name="exec_command", arguments=json.dumps({"cmd": "make test"})),
        item("function_call_output", output=blob),
        message("assistant", "done " + "r" * 2_000),
    )
    turn = b"".join(row + b"\n" for row in rows)
    path = tmp_path / "big.jsonl"
    with path.open("wb") as handle:
        while handle.tell() < 30 * 1024 * 1024:
            handle.write(turn)
    tracemalloc.start()
    try:
        digest = condense(path, 60_000, "codex")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert digest.turns > 100 and digest.commands[-1] == "make test"
    assert len(digest.text) < 70_000 and blob[:1000] not in digest.text
    assert peak < 8 * 1024 * 1024, peak


def test_detect_tells_each_agents_transcript_and_names_every_objection(tmp_path: Path) -> None:
    for agent, source in SOURCES.items():
        assert readers.detect(str(source)) == (agent, "")
    other = tmp_path / "events.jsonl"
    other.write_text('{"event": "click"}\n', encoding="utf-8")
    found, why = readers.detect(str(other))
    assert found is None
    assert why.startswith("Claude Code: ") and "Codex CLI 0.171: " in why and "Gemini" in why
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    assert readers.detect(str(tmp_path / "empty.jsonl")) == (None, "the file is empty")
    assert readers.session_id(SOURCES["codex"], "codex") == "01a23083-4503-71f2-8ceb-9ded42e56aa1"
    assert readers.session_id(SOURCES["gemini"], "gemini") == "115dd1e7-9b20-4147-9888-2ec4921a4de4"
    assert readers.session_id(SOURCES["claude"], "codex") == ""


def test_an_index_line_names_the_agent_before_the_degraded_mark() -> None:
    entry = IndexEntry("a.md", "a", "Did things", "2026-12-01T00:00:00", "offline", "codex")
    assert entry.render() == "- [[a]] — Did things · codex ⚠ degraded (offline)"
    assert IndexEntry("b.md", "b", "Old note", "").render() == "- [[b]] — Old note"
