"""Backfill finds this project's Codex rollouts and Gemini chat files that were never distilled
(real fixture transcripts, placed where each CLI keeps them), under the same rule as Claude
Code's: provably finished, not the current session, not queued, never distilled."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from agent_fixtures import (
    CHAT,
    CODEX_SID,
    GEMINI_SID,
    STUB,
    codex_rollout,
    day_folder,
    gemini_chat,
    register_gemini_project,
)
from worker_support import make_project

from vaultkit.agents import scan
from vaultkit.agents.codex import scan as codex_scan
from vaultkit.base.store import Store
from vaultkit.session.queue import backfill, finished, jobs

TODAY = day_folder()


def plan(store: Store, **kw: object) -> backfill.Plan:
    env = kw.get("env")
    return backfill.plan(
        store,
        str(kw.get("transcript", "")),
        str(kw.get("session", "current")),
        max_attempts=5,
        now=time.time(),
        env=env if isinstance(env, dict) else dict(os.environ),
        agent=str(kw.get("agent", "claude")),
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture
def store(project: Path) -> Store:
    store = Store(project / "sessions")
    os.makedirs(store.top)
    return store


# --- Codex -------------------------------------------------------------------------------------


def test_a_finished_codex_rollout_of_this_project_is_queued(project: Path, store: Store) -> None:
    rollout = codex_rollout(project, day=TODAY)
    [job] = plan(store).missed
    assert (job.session_id, job.agent, job.source) == (CODEX_SID, "codex", "backfill")
    assert (job.transcript_path, job.cwd) == (str(rollout), str(project))


def test_codex_rollouts_are_found_whichever_agent_starts(project: Path, store: Store) -> None:
    codex_rollout(project, day=TODAY)
    for agent in ("claude", "codex", "gemini"):
        assert [j.session_id for j in plan(store, agent=agent).missed] == [CODEX_SID]


def test_a_settled_codex_rollout_after_a_finished_turn_is_finished_at_once(
    project: Path, store: Store
) -> None:
    """Codex holds its rollout open while it lives (tests/e2e: test_codex_holds_its_rollout_open),
    so a finished turn (``task_complete`` last) that no process holds open means Codex exited."""
    rollout = codex_rollout(project, day=TODAY, age=10.0)
    [facts] = finished.observe([str(rollout)], time.time(), "codex")
    assert (facts.closed, facts.written, facts.finished) == (True, False, True)
    assert len(plan(store).missed) == 1


def test_a_codex_rollout_cut_mid_turn_is_finished_only_when_silent(
    project: Path, store: Store
) -> None:
    rollout = codex_rollout(project, day=TODAY, age=None)
    lines = rollout.read_text(encoding="utf-8").splitlines(keepends=True)
    rollout.write_text("".join(lines[:-3]), encoding="utf-8")  # killed before task_complete
    stamp = time.time() - 10
    os.utime(rollout, (stamp, stamp))
    [facts] = finished.observe([str(rollout)], time.time(), "codex")
    assert (facts.closed, facts.finished) == (False, False)
    assert plan(store).missed == ()
    stamp = time.time() - finished.IDLE_SECONDS - 1
    os.utime(rollout, (stamp, stamp))
    assert len(plan(store).missed) == 1


def test_exit_records_are_per_agent() -> None:
    turn_end = {"type": "event_msg", "payload": {"type": "task_complete"}}
    assert finished.is_exit({"type": "cost-state"}, "claude")
    assert not finished.is_exit(turn_end, "claude")
    assert finished.is_exit(turn_end, "codex")
    assert not finished.is_exit({"type": "event_msg", "payload": {"type": "task_started"}}, "codex")
    assert not finished.is_exit({"type": "cost-state"}, "codex")
    assert not finished.is_exit({"type": "gemini"}, "gemini")


def test_a_rollout_open_for_writing_is_never_taken(project: Path, store: Store) -> None:
    rollout = codex_rollout(project, day=TODAY)
    with open(rollout, "a", encoding="utf-8"):
        stamp = time.time() - finished.IDLE_SECONDS - 60
        os.utime(rollout, (stamp, stamp))
        assert plan(store).missed == ()
    assert len(plan(store).missed) == 1


def test_codex_rollouts_that_are_not_to_be_queued(
    project: Path, store: Store, tmp_path: Path
) -> None:
    other = make_project(tmp_path / "other")
    codex_rollout(other, day=TODAY, session_id="0000aaaa-4503-71f2-8ceb-9ded42e56aa1")
    old = day_folder(time.time() - 10 * 86400)
    codex_rollout(project, day=old, session_id="1111bbbb-4503-71f2-8ceb-9ded42e56aa1")
    stale = codex_rollout(project, day=TODAY, session_id="2222cccc-4503-71f2-8ceb-9ded42e56aa1")
    stamp = time.time() - 9 * 86400
    os.utime(stale, (stamp, stamp))
    current = codex_rollout(project, day=TODAY)
    assert plan(store, session=CODEX_SID).missed == ()  # the starting session itself
    assert plan(store, session="x", transcript=str(current), agent="codex").missed == ()
    jobs.write_done(store, jobs.Done(CODEX_SID, 1, "", "", "", "ok", "", ""))
    assert plan(store).missed == ()  # distilled once already


def test_a_queued_codex_session_is_not_queued_twice(project: Path, store: Store) -> None:
    rollout = codex_rollout(project, day=TODAY)
    jobs.write_job(store, jobs.Job(CODEX_SID, str(rollout), agent="codex"))
    found = plan(store)
    assert found.missed == ()
    assert [j.session_id for j in found.orphaned] == [CODEX_SID]


def test_rollout_meta_reads_only_the_head(tmp_path: Path) -> None:
    """The session id and cwd come from the first 4 KB of a 22 KB first line."""
    rollout = codex_rollout(tmp_path / "p", day=TODAY)
    first = rollout.read_bytes().split(b"\n", 1)[0]
    assert len(first) > 4 * codex_scan.HEAD_BYTES
    assert codex_scan.rollout_meta(str(rollout)) == (CODEX_SID, str(tmp_path / "p"))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type":"event_msg","payload":{"cwd":"/x","id":"y"}}\n', encoding="utf-8")
    assert codex_scan.rollout_meta(str(broken)) == ("", "")


def test_the_codex_scan_is_bounded_in_files(
    project: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(5):
        sid = f"{n}{n}{n}{n}aaaa-4503-71f2-8ceb-9ded42e56aa1"
        codex_rollout(project, day=TODAY, session_id=sid)
    monkeypatch.setattr(scan, "MAX_FILES", 3)
    assert len(plan(store).missed) == 3


def test_the_scan_stops_at_its_deadline(
    project: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    codex_rollout(project, day=TODAY)
    register_gemini_project(project)
    gemini_chat(project)
    monkeypatch.setattr(scan, "DEADLINE_SECONDS", -1.0)
    assert plan(store).missed == ()


def test_codex_home_decides_where_rollouts_are(project: Path, store: Store, tmp_path: Path) -> None:
    rollout = codex_rollout(project, day=TODAY)
    moved = tmp_path / "codex-home"
    os.rename(rollout.parents[4], moved)  # ~/.codex -> elsewhere
    assert plan(store).missed == ()
    [job] = plan(store, env={**os.environ, "CODEX_HOME": str(moved)}).missed
    assert job.transcript_path.startswith(str(moved))


# --- Gemini ------------------------------------------------------------------------------------


def test_a_finished_gemini_chat_of_this_project_is_queued(project: Path, store: Store) -> None:
    register_gemini_project(project)
    chat = gemini_chat(project)
    [job] = plan(store).missed
    assert (job.session_id, job.agent, job.source) == (GEMINI_SID, "gemini", "backfill")
    assert (job.transcript_path, job.cwd) == (str(chat), str(project))


def test_a_resume_stub_is_skipped(project: Path, store: Store) -> None:
    """The file a resumed run opens first holds only the header and set-up: nothing to distil
    (and it shares the session id with the real chat)."""
    register_gemini_project(project)
    gemini_chat(project, name=STUB, source="resume-stub.jsonl")
    assert plan(store).missed == ()
    chat = gemini_chat(project, name=CHAT)
    assert [j.transcript_path for j in plan(store).missed] == [str(chat)]


def test_the_live_gemini_session_is_not_taken(project: Path, store: Store) -> None:
    """A resume appends to the original chat, while its SessionStart names the stub: the
    session id keeps the original out."""
    register_gemini_project(project)
    gemini_chat(project)
    stub = gemini_chat(project, name=STUB, source="resume-stub.jsonl", age=None)
    assert plan(store, session=GEMINI_SID, transcript=str(stub), agent="gemini").missed == ()


def test_a_gemini_chat_is_finished_only_when_silent(project: Path, store: Store) -> None:
    """No exit record, and Gemini never holds the file open: only silence counts."""
    register_gemini_project(project)
    chat = gemini_chat(project, age=30.0)
    [facts] = finished.observe([str(chat)], time.time(), "gemini")
    assert (facts.closed, facts.finished) == (False, False)
    assert plan(store).missed == ()


@pytest.mark.parametrize(
    "registry",
    ["", "not json", '{"projects": []}', '{"projects": {"/elsewhere": "project"}}'],
)
def test_without_a_registry_entry_for_this_project_nothing_is_found(
    project: Path, store: Store, registry: str
) -> None:
    gemini_chat(project)
    path = Path.home() / ".gemini" / "projects.json"
    if registry:
        path.write_text(registry, encoding="utf-8")
    assert plan(store).missed == ()


def test_a_subfolder_registered_with_gemini_maps_to_the_projects_store(
    project: Path, store: Store
) -> None:
    sub = project / "src"
    sub.mkdir()
    register_gemini_project(sub, "src")
    target = Path.home() / ".gemini" / "tmp" / "src" / "chats" / CHAT
    target.parent.mkdir(parents=True)
    chat = gemini_chat(project)
    os.rename(chat, target)
    [job] = plan(store).missed
    assert (job.transcript_path, job.cwd) == (str(target), str(sub))


def test_gemini_cli_home_decides_where_chats_are(
    project: Path, store: Store, tmp_path: Path
) -> None:
    register_gemini_project(project)
    gemini_chat(project)
    (tmp_path / "g").mkdir()
    os.rename(Path.home() / ".gemini", tmp_path / "g" / ".gemini")
    assert plan(store).missed == ()
    env = {**os.environ, "GEMINI_CLI_HOME": str(tmp_path / "g")}
    assert [j.session_id for j in plan(store, env=env).missed] == [GEMINI_SID]


def test_claude_codex_and_gemini_sessions_are_found_together(project: Path, store: Store) -> None:
    claude_dir = Path.home() / ".claude" / "projects" / "-proj"
    claude_dir.mkdir(parents=True)
    line = {"type": "user", "sessionId": "c-old", "cwd": str(project), "message": {"content": "x"}}
    old = claude_dir / "c-old.jsonl"
    old.write_text(json.dumps(line) + "\n", encoding="utf-8")
    stamp = time.time() - 3600
    os.utime(old, (stamp, stamp))
    codex_rollout(project, day=TODAY)
    register_gemini_project(project)
    gemini_chat(project)
    current = claude_dir / "now.jsonl"
    current.write_text(json.dumps({**line, "sessionId": "now"}) + "\n", encoding="utf-8")
    found = plan(store, transcript=str(current), session="now").missed
    assert sorted((j.agent, j.session_id) for j in found) == [
        ("claude", "c-old"),
        ("codex", CODEX_SID),
        ("gemini", GEMINI_SID),
    ]
