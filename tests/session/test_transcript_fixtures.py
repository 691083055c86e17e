"""Condensing real Claude Code 2.1.332 transcripts (tests/fixtures/claude/transcripts/)."""

from __future__ import annotations

from conftest import FIXTURES

from vaultkit.session.transcripts.condense import condense

TRANSCRIPTS = FIXTURES / "claude" / "transcripts"


def test_vaultkits_own_injection_is_not_fed_back() -> None:
    path = TRANSCRIPTS / "injection.jsonl"
    assert "Handoff from the previous session" in path.read_text(encoding="utf-8")
    digest = condense(path, 60_000)
    assert "Handoff from the previous session" not in digest.text
    assert "Streaming transcripts" not in digest.text
    assert digest.text == (
        "## User\nWhat did the last session do?\n\n"
        "## Assistant\nThe previous handoff says the parser now streams transcripts."
    )
    assert digest.bad_lines == 0


def test_tool_use_split_over_lines_gives_a_trail_and_no_tool_result() -> None:
    digest = condense(TRANSCRIPTS / "tool-use.jsonl", 60_000)
    assert digest.text == (
        "## User\nWrite hi into out.txt\n\n"
        "## Assistant\nI'll write the file with Bash.\n→ Bash: echo hi > out.txt\n\n"
        "## Assistant\nDone: `out.txt` now contains `hi`."
    )
    assert digest.commands == ("echo hi > out.txt",)
    assert digest.git_branch == "main"
    assert digest.last_assistant == "Done: `out.txt` now contains `hi`."


def test_resumed_session_keeps_both_exchanges_in_order() -> None:
    digest = condense(TRANSCRIPTS / "resumed.jsonl", 60_000)
    assert digest.text.index("What did the last session do?") < digest.text.index(
        "이 프로젝트는 어떻게 빌드해?"
    )
    assert digest.text.count("## User") == 2 and digest.text.count("## Assistant") == 2
    assert digest.recent_prompts == (
        "What did the last session do?",
        "이 프로젝트는 어떻게 빌드해?",
    )
    assert "Handoff from the previous session" not in digest.text
