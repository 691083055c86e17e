"""The notes vaultkit writes: one H1 whatever the LLM writes (through a real command backend)."""

from __future__ import annotations

import json
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from vaultkit.base.config import Config, DistillConfig
from vaultkit.base.store import Store
from vaultkit.session.distill.pipeline import SessionInfo, distill_session
from vaultkit.session.notes.shape import one_h1
from vaultkit.vault.parse import parse_note

SID = "a1b2c3d4-1111-2222-3333-444455556666"
WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))


def make_session(
    tmp_path: Path, prompt: str = "Fix the idempotency keys"
) -> tuple[Store, SessionInfo]:
    store = Store(tmp_path / "proj" / "sessions")
    raw = store.raw / f"2026-11-30_0905_{SID}.jsonl"
    raw.parent.mkdir(parents=True)
    base = {"sessionId": SID, "cwd": "/w/proj"}
    lines = [
        {**base, "type": "user", "message": {"role": "user", "content": prompt}},
        {
            **base,
            "type": "assistant",
            "message": {"id": "m1", "content": [{"type": "text", "text": "Done, keys dedupe."}]},
        },
    ]
    raw.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return store, SessionInfo(SID, raw, "proj", str(tmp_path / "proj"), None, WHEN)


def answering(tmp_path: Path, answer: str) -> Config:
    """A command backend: a real Python child that reads the prompt and prints ``answer``."""
    path = tmp_path / "llm.py"
    path.write_text(
        textwrap.dedent(f"""
            import sys
            sys.stdin.read()
            sys.stdout.write({answer!r})
        """),
        encoding="utf-8",
    )
    return Config(distill=DistillConfig(backend="command", command=[sys.executable, str(path)]))


def h1_count(path: Path) -> int:
    note = parse_note(path.name, path.read_bytes())
    return sum(1 for h in note.headings if h.level == 1)


def test_an_answer_with_its_own_h1s_gives_notes_with_one_h1(tmp_path: Path) -> None:
    store, info = make_session(tmp_path)
    answer = (
        "@@@TITLE@@@\nIdempotency keys\n"
        "@@@HANDOFF@@@\n# Idempotency keys\n## Done\n- keys\n# Next steps\n- more\n"
        "@@@WIKI@@@\nKeys dedupe retries\n=====\n\n```bash\n# not a heading\n```\n# Findings\nok\n"
    )
    outcome = distill_session(store, info, answering(tmp_path, answer))
    assert outcome.quality == "ok"
    for path in (outcome.summary_path, outcome.wiki_path):
        assert h1_count(path) == 1, path.read_text(encoding="utf-8")
    summary = outcome.summary_path.read_text(encoding="utf-8")
    assert summary.count("Idempotency keys\n") == 2  # frontmatter and one heading: no repeat
    assert "## Next steps" in summary
    wiki = outcome.wiki_path.read_text(encoding="utf-8")
    assert "## Keys dedupe retries" in wiki and "## Findings" in wiki
    assert "```bash\n# not a heading\n```" in wiki


@pytest.mark.parametrize(
    ("body", "title", "expected"),
    [
        ("# T\nx", "T", "x"),
        ("# Other\nx", "T", "## Other\nx"),
        ("intro\n# T", "T", "intro\n## T"),
        ("~~~\n# a\n~~~\n#b\n# c #", "", "~~~\n# a\n~~~\n#b\n## c"),
        ("- item\n===", "", "- item\n==="),
        ("#\n", "", "##\n"),
    ],
)
def test_one_h1_demotes_outside_code(body: str, title: str, expected: str) -> None:
    assert one_h1(body, title) == expected
