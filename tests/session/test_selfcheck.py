"""The self-check: echoes and empty answers are degraded with their reason, after one retry.

Each backend is a real Python child run through the ``command`` backend.
"""

from __future__ import annotations

import json
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from vaultkit.base.config import Config, DistillConfig
from vaultkit.base.store import Store
from vaultkit.base.templates import read_template
from vaultkit.session.distill.markers import parse_markers
from vaultkit.session.distill.pipeline import PROMPT_TEMPLATE, SessionInfo, distill_session
from vaultkit.session.distill.selfcheck import rejection
from vaultkit.session.notes.write import read_frontmatter

SID = "c3d4e5f6-1111-2222-3333-444455556666"
WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))
REQUEST = "Teach the importer to skip rows it has already seen by their idempotency key"
REPLY = (
    "I added a unique index on the fingerprint column and the importer now uses INSERT OR"
    " IGNORE so that a second import of the same bank export leaves the ledger unchanged;"
    " the tests in tests/test_import.py cover a repeated file, a file with one new row and"
    " a file whose rows only differ in their memo text, which must still count as new rows."
)


def make_session(tmp_path: Path) -> tuple[Store, SessionInfo]:
    store = Store(tmp_path / "proj" / "sessions")
    raw = store.raw / f"2026-11-30_0905_{SID}.jsonl"
    raw.parent.mkdir(parents=True)
    base = {"sessionId": SID, "cwd": "/w/p"}
    rows = [
        {**base, "type": "user", "message": {"role": "user", "content": REQUEST}},
        {
            **base,
            "type": "assistant",
            "message": {"id": "m1", "content": [{"type": "text", "text": REPLY}]},
        },
    ]
    raw.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return store, SessionInfo(SID, raw, "proj", str(tmp_path / "proj"), None, WHEN)


def command(tmp_path: Path, body: str) -> Config:
    path = tmp_path / "llm.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    argv = [sys.executable, str(path)]
    return Config(distill=DistillConfig(backend="command", command=argv, timeout=20))


GOOD = (
    "@@@TITLE@@@\nSkip rows already imported\n"
    "@@@HANDOFF@@@\n## Done\n- unique index on fingerprint; INSERT OR IGNORE\n"
    "## Next steps\n- run the importer on the March export\n"
    "@@@WIKI@@@\nRe-importing a bank export is a no-op: rows are keyed by their fingerprint.\n"
)


def answer_each(tmp_path: Path, *answers: str) -> Config:
    """A backend giving ``answers`` in turn (the last one again after that)."""
    state = tmp_path / "calls"
    return command(
        tmp_path,
        f"""
        import pathlib, sys
        sys.stdin.read()
        state = pathlib.Path({str(state)!r})
        n = int(state.read_text()) if state.exists() else 0
        state.write_text(str(n + 1))
        answers = {list(answers)!r}
        sys.stdout.write(answers[min(n, len(answers) - 1)])
        """,
    )


ECHO = "import sys; sys.stdout.write(sys.stdin.read())"


def test_a_backend_echoing_its_prompt_is_degraded_after_one_retry(tmp_path: Path) -> None:
    store, info = make_session(tmp_path)
    outcome = distill_session(store, info, command(tmp_path, ECHO))
    assert (outcome.quality, outcome.degraded_reason, outcome.retries) == (
        "degraded",
        "echoed-template",
        1,
    )
    assert outcome.title.startswith("Teach the importer")  # the offline title, not "One line:"
    front = read_frontmatter(outcome.wiki_path)
    assert front["quality"] == "degraded" and front["degraded_reason"] == "echoed-template"
    for path in (outcome.summary_path, outcome.wiki_path):
        text = path.read_text(encoding="utf-8")
        assert "One line: a short, specific title" not in text
        assert "Link related notes with" not in text
    log = store.log.read_text(encoding="utf-8")
    assert "attempt 1 via command: rejected (echoed-template)" in log
    assert "attempt 2 via command: rejected (echoed-template)" in log


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (
            "@@@TITLE@@@\nOne line: a short, specific title for this session's work (no date,"
            " no quotes).\n@@@HANDOFF@@@\n## Done\n- x\n@@@WIKI@@@\nA note.\n",
            "instruction-title",
        ),
        ("@@@TITLE@@@\nT\n@@@HANDOFF@@@\n## Done\n## Next steps\n@@@WIKI@@@\nok\n", "empty-part"),
        ("@@@TITLE@@@\nT\n@@@HANDOFF@@@\nok\n@@@WIKI@@@\n---\n# ...\n", "empty-part"),
        (
            "@@@TITLE@@@\nT\n@@@HANDOFF@@@\nSame words here.\n@@@WIKI@@@\nsame words HERE\n",
            "identical-parts",
        ),
        (f"@@@TITLE@@@\nT\n@@@HANDOFF@@@\n## Done\n- x\n@@@WIKI@@@\n{REPLY}\n", "transcript-copy"),
    ],
)
def test_answers_with_nothing_of_their_own_are_degraded(
    tmp_path: Path, answer: str, reason: str
) -> None:
    store, info = make_session(tmp_path)
    outcome = distill_session(store, info, answer_each(tmp_path, answer))
    assert (outcome.quality, outcome.degraded_reason, outcome.retries) == ("degraded", reason, 1)
    assert read_frontmatter(outcome.summary_path)["degraded_reason"] == reason


def test_an_echo_then_a_good_answer_is_a_good_note(tmp_path: Path) -> None:
    store, info = make_session(tmp_path)
    template = read_template(PROMPT_TEMPLATE)
    outcome = distill_session(store, info, answer_each(tmp_path, template, GOOD))
    assert (outcome.quality, outcome.retries, outcome.title) == (
        "ok",
        1,
        "Skip rows already imported",
    )


def test_good_answers_pass_the_check() -> None:
    template = read_template(PROMPT_TEMPLATE)
    assert rejection(parse_markers(GOOD), template, REQUEST + REPLY) is None
    quoting = GOOD + f"\n> {REQUEST}\n\nThe tests cover a repeated file and a new row.\n"
    assert rejection(parse_markers(quoting), template, REQUEST + REPLY) is None
