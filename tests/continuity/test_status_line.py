"""SessionStart's first line says when distillation is broken, failing or waiting, and no sentence
of the injection points at a summary or a wiki note that is not there. Real store folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hook_start_support import add_session, make_project

from vaultkit.base.store import Store
from vaultkit.continuity import inject
from vaultkit.hooks.session_start import run
from vaultkit.session.queue import health, jobs, runlock

HOOK = str(Path(sys.executable).parent / "vaultkit-hook")
OLD = time.time() - 3600


def context(project: Path, source: str = "startup") -> str:
    out = run({"source": source, "cwd": str(project)}, {})
    if out is None:
        return ""
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str)
    return text


def store_of(project: Path) -> Store:
    return Store(project / "sessions")


def queue(store: Store, sid: str, *, last_error: str = "", attempts: int = 0) -> None:
    job = jobs.Job(sid, f"/t/{sid}.jsonl", attempts=attempts, last_error=last_error)
    path = jobs.write_job(store, job)
    os.utime(path, (OLD, OLD))  # queued an hour ago


def give_up(store: Store, sid: str, last_error: str) -> None:
    jobs.fail_job(store, jobs.Job(sid, f"/t/{sid}.jsonl", attempts=5, last_error=last_error))


def no_missing_notes(text: str, *, summary: bool, wiki: bool) -> None:
    """No sentence refers to a summary or wiki note the text does not hold."""
    lowered = text.lower()
    if not summary:
        assert "summary below" not in lowered and "latest session summary" not in lowered
        assert "아래 요약" not in text
    if not wiki:
        assert "wiki note" not in lowered and "위키 노트" not in text


def test_an_empty_store_injects_nothing(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    assert context(project) == ""


def test_a_store_with_only_failures_says_so_first_and_mentions_no_summary(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    store = store_of(project)
    (store.raw / "2026-11-30_0900_aaaa.jsonl").write_text("{}\n")
    queue(store, "aaaa", attempts=1, last_error="distillation backend unavailable: Invalid API key")
    give_up(store, "bbbb", "claude: usage limit reached\nhint: check `claude` login/quota")
    text = context(project)
    first, _, rest = text.partition("\n")
    assert first == (
        "vaultkit: distillation is failing: 1 session(s) queued for another attempt, "
        "1 session(s) out of attempts (last error: claude: usage limit reached); "
        "`vaultkit doctor` shows the fix."
    )
    assert "Earlier sessions are archived in sessions/raw/, but none has a summary yet." in rest
    no_missing_notes(text, summary=False, wiki=False)


def test_a_store_with_a_summary_but_no_wiki_note_mentions_no_wiki_note(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="SUM\n", wiki=None)
    text = context(project)
    assert "SUM" in text
    assert not text.startswith("vaultkit: "), "nothing is failing"
    no_missing_notes(text, summary=True, wiki=False)
    jobs.mark_running(store_of(project), "cccc", "2026-11-30T09:00:00+00:00")  # a live worker
    running = context(project)
    assert "the summary below may be one session old" in running
    no_missing_notes(running, summary=True, wiki=False)


def test_a_running_distillation_without_any_summary_does_not_mention_one(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    store = store_of(project)
    (store.raw / "2026-11-30_0900_aaaa.jsonl").write_text("{}\n")
    jobs.mark_running(store, "aaaa", "2026-11-30T09:00:00+00:00")
    text = context(project)
    assert "A distillation of an earlier session is still running." in text
    no_missing_notes(text, summary=False, wiki=False)


def test_a_broken_config_is_the_first_line_until_it_is_fixed(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="SUM\n")
    store = store_of(project)
    store.config_file.write_text("[distill]\nfoo = 1\n")
    queue(store, "held", last_error=f"config: {store.config_file}: unknown setting distill.foo")
    text = context(project)
    first = text.splitlines()[0]
    assert first == (
        "vaultkit: sessions/vaultkit.toml is invalid (unknown setting distill.foo), so sessions "
        "are archived but not distilled until it is fixed; `vaultkit doctor` shows the fix."
    )
    assert "SUM" in text
    store.config_file.write_text("[distill]\nmax_attempts = 3\n")
    assert not context(project).startswith("vaultkit: ")


def test_broken_toml_syntax_names_the_line(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    store_of(project).config_file.write_text("[distill]\nmodel = \n")
    first = context(project).splitlines()[0]
    assert first.startswith("vaultkit: sessions/vaultkit.toml is invalid (invalid TOML: ")
    assert "line 2" in first


def test_waiting_sessions_are_counted_only_when_no_runner_drains_them(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    store = store_of(project)
    fd = runlock.try_lock(store)  # a queue runner is alive: the queue is its work, not a problem
    assert fd is not None
    try:
        queue(store, "late-1")
        queue(store, "late-2")
        assert not context(project).startswith("vaultkit: ")
    finally:
        runlock.release(fd)
    assert health.queue_facts(store, time.time()).waiting == 2  # nobody drains them now
    jobs.mark_running(store, "late-1", "2026-11-30T09:00:00+00:00")
    assert health.queue_facts(store, time.time()).waiting == 1, "late-2 still has no worker"


def test_sessions_past_the_daily_budget_are_reported(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", degraded="budget")
    queue(store_of(project), "aaaa1111", last_error="budget: daily budget reached")
    text = context(project)
    assert text.splitlines()[0] == (
        "vaultkit: the daily distillation budget is spent: 1 session(s) have offline notes and "
        "get their LLM distillation on the next day."
    )
    assert "written in degraded mode (budget)" in text


def test_the_status_line_keeps_the_injection_within_its_budget(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="x\n" * 6000)
    give_up(store_of(project), "bbbb", "usage limit")
    for budget in (9_000, 2_000):
        store_of(project).config_file.write_text(f"[inject]\nbudget = {budget}\n")
        text = context(project)
        assert text.startswith("vaultkit: distillation is failing")
        assert len(text) <= budget


def test_a_korean_store_gets_a_korean_status_line(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "파서", summary="스트리밍 파서를 완성했다.\n")
    give_up(store_of(project), "bbbb", "usage limit")
    assert context(project).startswith("vaultkit: 요약이 실패하고 있습니다")


def test_the_real_hook_process_puts_the_status_line_first(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="SUM\n")
    give_up(store_of(project), "bbbb", "usage limit")
    payload = {"session_id": "zz", "source": "startup", "cwd": str(project)}
    env = {k: v for k, v in os.environ.items() if k != "VAULTKIT_CHILD"}
    out = subprocess.run(
        [HOOK, "SessionStart"], input=json.dumps(payload).encode(), capture_output=True, env=env
    )
    assert (out.returncode, out.stderr) == (0, b"")
    text = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("vaultkit: distillation is failing: 1 session(s) out of attempts")
    assert "SUM" in text


@pytest.mark.parametrize(
    ("health", "expected"),
    [
        (inject.Health(), ""),
        (inject.Health(gave_up=2), "(last error: unknown)"),
        (inject.Health(retrying=1, reason="a\nb"), "(last error: a b)"),
        (inject.Health(waiting=3, config_error="x", config_path="c"), "c is invalid (x)"),
    ],
)
def test_status_line_is_one_line_of_facts(health: inject.Health, expected: str) -> None:
    line = inject.status_line(health)
    assert expected in line
    assert "\n" not in line
    if line:
        assert line.startswith("vaultkit: ") and len(line) <= inject.STATUS_MAX
    if health.config_error:
        assert "wait for distillation" not in line


def test_with_status_puts_the_line_first_and_keeps_the_budget() -> None:
    assert inject.with_status("", "body", 1000) == "body"
    assert inject.with_status("L", "", 1000) == "L"
    text = inject.with_status("L", "a\n" * 1000, 500)
    assert text.startswith("L\n\na\n") and len(text) <= 500


def test_the_status_line_comes_where_the_memory_does(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    give_up(store_of(project), "bbbb", "usage limit")
    assert context(project, "startup").startswith("vaultkit: distillation is failing")
    assert context(project, "brand-new-source").startswith("vaultkit: distillation is failing")
    for source in ("resume", "fork", "compact", "clear"):
        assert context(project, source) == "", source
    store_of(project).config_file.write_text("[inject]\non_clear = true\n")
    assert context(project, "clear").startswith("vaultkit: distillation is failing")
