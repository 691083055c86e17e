"""The worker when things are wrong: files that are not the agent's transcript, the daily budget,
and what each distillation cost. Real files, real subprocess backends; only the clock is set."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import FIXTURES
from worker_support import (
    claude_projects,
    configure_command_backend,
    fake_distill,
    log_text,
    queued,
    write_transcript,
)

from vaultkit.base.config import load_config
from vaultkit.base.store import Store
from vaultkit.session.distill import costs
from vaultkit.session.notes.write import read_frontmatter
from vaultkit.session.queue import jobs
from vaultkit.session.transcripts import rawcopy
from vaultkit.session.worker import outcome, steps
from vaultkit.session.worker.job import process_job
from vaultkit.session.worker.outcome import Status

FAST = rawcopy.Settle(window=0.05, max_wait=5)
PRINT_JSON = FIXTURES / "claude" / "print-json"
DAY = datetime(2026, 12, 1, 10, 0, tzinfo=timezone(timedelta(hours=9)))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    store = Store(tmp_path / "proj" / "sessions")
    store.root.mkdir()
    return store


def queue(store: Store, path: Path, sid: str, source: str = "session-end") -> None:
    jobs.write_job(store, jobs.Job(sid, str(path), cwd=str(store.project), source=source))


def run(store: Store, sid: str, distill: outcome.DistillFn | None = None) -> outcome.Result:
    return process_job(store, sid, distill=distill, settle=FAST)


@pytest.mark.parametrize(
    ("name", "body", "why"),
    [
        ("passwd", None, "not under"),
        ("not-json", b"root:x:0:0:root:/root:/bin/bash\n", "line 1 is not JSON"),
        ("other-jsonl", b'{"event": "click", "id": 1}\n', "no Claude Code record type"),
        ("empty", b"", "the file is empty"),
    ],
)
def test_what_is_not_the_agents_transcript_is_refused_and_never_copied(
    store: Store, name: str, body: bytes | None, why: str
) -> None:
    if body is None:
        path = Path("/etc/passwd")
    else:
        path = claude_projects() / f"{name}.jsonl"
        path.parent.mkdir(parents=True)
        path.write_bytes(body)
    queue(store, path, f"s-{name}")
    result = run(store, f"s-{name}", distill=fake_distill)
    assert result.status is Status.REFUSED
    assert why in result.message
    assert queued(store) == []
    assert not store.raw.exists() or list(store.raw.iterdir()) == []
    assert not store.summary.exists()
    [line] = [ln for ln in log_text(store).splitlines() if "refused" in ln]
    assert f"s-{name}: refused {path}: " in line and "not archived, job removed" in line


def test_an_ingested_file_may_live_anywhere_but_must_still_be_a_transcript(
    store: Store, tmp_path: Path
) -> None:
    good = write_transcript(tmp_path / "old" / "s-old.jsonl", "s-old")
    queue(store, good, "s-old", source="ingest")
    assert run(store, "s-old", distill=fake_distill).status is Status.DONE
    bad = tmp_path / "old" / "notes.jsonl"
    bad.write_text('{"a": 1}\n')
    queue(store, bad, "s-bad", source="ingest")
    assert run(store, "s-bad", distill=fake_distill).status is Status.REFUSED
    queue(store, good, "s-hook")  # the same file named by a hook payload: not the agent's folder
    assert run(store, "s-hook", distill=fake_distill).status is Status.REFUSED


def replay_claude(store: Store, tmp_path: Path, fixture: str, extra: str = "") -> None:
    """``claude`` = a script printing what the real CLI 2.1.332 printed (fixtures/print-json)."""
    binary = tmp_path / "bin" / "claude"
    binary.parent.mkdir(exist_ok=True)
    body = f"import sys\nsys.stdin.read()\nprint(open({str(PRINT_JSON / fixture)!r}).read())\n"
    binary.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    binary.chmod(0o755)
    store.config_file.write_text(f'[distill]\nclaude_path = "{binary}"\n{extra}')


def at(monkeypatch: pytest.MonkeyPatch, when: datetime) -> None:
    monkeypatch.setattr(steps, "now", lambda: when)  # the day budgets and costs are counted in


def test_each_distillation_logs_what_the_backend_reported_it_cost(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(monkeypatch, DAY)
    replay_claude(store, tmp_path, "success.json")
    queue(store, write_transcript(claude_projects() / "s-a.jsonl", "s-a"), "s-a")
    assert run(store, "s-a").status is Status.DONE
    configure_command_backend(store, tmp_path)
    queue(store, write_transcript(claude_projects() / "s-b.jsonl", "s-b"), "s-b")
    assert run(store, "s-b").status is Status.DONE
    assert costs.entries(store) == [
        costs.Entry("2026-12-01", "s-a", "claude", "claude-sonnet-5-5", 12, 7, 0.000094),
        costs.Entry("2026-12-01", "s-b", "command", "", 0, 0, 0.0),
    ]
    assert costs.totals(store, "2026-12").sessions == 2
    assert costs.totals(store, "2026-12-01").cost_usd == pytest.approx(0.000094)
    assert "s-a: cost 12 input + 7 output tokens, $0.000094" in log_text(store)


def test_past_the_daily_budget_the_offline_note_is_written_once_and_the_llm_waits_a_day(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(monkeypatch, DAY)
    replay_claude(store, tmp_path, "success.json", "daily_budget = 0.5\n")
    costs.record(store, costs.Entry("2026-12-01", "earlier", "claude", "m", 10, 10, 0.6))
    queue(store, write_transcript(claude_projects() / "s-cap.jsonl", "s-cap"), "s-cap")

    first = run(store, "s-cap")
    assert first.status is Status.DEFERRED
    assert "daily budget reached ($0.60 of $0.50 spent today)" in first.message
    [summary] = store.summary.glob("*.md")
    meta = read_frontmatter(summary)
    assert (meta["quality"], meta["degraded_reason"]) == ("degraded", "budget")
    [job] = queued(store)
    assert (job.attempts, job.last_error.split(":")[0]) == (0, "budget")
    assert len(costs.entries(store)) == 1, "no LLM call, nothing spent"
    done = jobs.read_done(store, "s-cap")
    assert done is not None and done.degraded_reason == "budget"

    before = summary.read_bytes(), summary.stat().st_mtime_ns
    assert run(store, "s-cap").status is Status.DEFERRED  # the same day: nothing rewritten
    assert (summary.read_bytes(), summary.stat().st_mtime_ns) == before
    assert "its notes are already written, kept as they are" in log_text(store)

    at(monkeypatch, DAY + timedelta(days=1))
    assert run(store, "s-cap").status is Status.DONE
    assert queued(store) == []
    [summary] = store.summary.glob("*.md")
    assert "quality" not in read_frontmatter(summary), "a clean LLM note replaced the offline one"
    assert [e.session_id for e in costs.entries(store)] == ["earlier", "s-cap"]


def test_no_budget_or_the_offline_backend_is_never_capped(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(monkeypatch, DAY)
    costs.record(store, costs.Entry("2026-12-01", "x", "claude", "m", 1, 1, 99.0))
    assert steps.budget_spent(store, load_config(store.config_file)) == ""
    store.config_file.write_text('[distill]\nbackend = "offline"\ndaily_budget = 1\n')
    assert steps.budget_spent(store, load_config(store.config_file)) == ""
    store.config_file.write_text("[distill]\ndaily_budget = 1\n")
    assert steps.budget_spent(store, load_config(store.config_file)).startswith(
        "daily budget reached"
    )


def test_a_damaged_cost_log_line_is_skipped(store: Store) -> None:
    costs.record(store, costs.Entry("2026-12-01", "a", "claude", "m", 1, 2, 0.5))
    with open(costs.log_path(store), "a", encoding="utf-8") as handle:
        handle.write('{"date": "2026-12-01", "trunc\n')
    costs.record(store, costs.Entry("2026-12-01", "b", "claude", "m", 1, 2, 0.25))
    assert costs.totals(store, "2026-12-01") == costs.Totals(2, 2, 4, 0.75)
    assert json.loads(Path(costs.log_path(store)).read_text().splitlines()[0])["session_id"] == "a"


def test_past_the_budget_a_session_that_ends_again_keeps_its_clean_note(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at(monkeypatch, DAY)
    replay_claude(store, tmp_path, "success.json", "daily_budget = 0.00009\n")
    transcript = write_transcript(claude_projects() / "s-again.jsonl", "s-again", turns=2)
    queue(store, transcript, "s-again")
    assert run(store, "s-again").status is Status.DONE  # $0.000094 spent: the cap is reached
    [summary] = store.summary.glob("*.md")
    clean = summary.read_bytes()
    write_transcript(transcript, "s-again", turns=4)  # resumed and ended again
    queue(store, transcript, "s-again")
    result = run(store, "s-again")
    assert (result.status, result.quality) == (Status.DEFERRED, "ok")
    assert [p.read_bytes() for p in store.summary.glob("*.md")] == [clean]
    done = jobs.read_done(store, "s-again")
    assert done is not None and done.quality == "ok"
    [job] = queued(store)
    assert job.last_error.startswith("budget: daily budget reached")
    [raw] = store.raw.glob("*.jsonl")
    assert raw.read_bytes() == transcript.read_bytes(), "the longer transcript is archived"
