"""The spool's recovery: a SessionEnd hook killed after its first write still gets its job.

Real spool entries (as the hook writes them) of real dead processes, real transcripts in the
agents' folders, real stores; the hook itself in a real process for SessionStart's drain.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from agent_fixtures import CODEX_SID, codex_rollout, payload
from worker_support import (
    claude_projects,
    exited,
    hook_env,
    log_text,
    make_project,
    queued,
    spawned_pids,
    wait_for,
    write_transcript,
)

from vaultkit.base import spool
from vaultkit.base.store import Store
from vaultkit.session.queue import jobs, recover

SID = "5b001ed0-1111-4222-8333-444455556666"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def end_payload(session_id: str, transcript: Path, cwd: Path) -> bytes:
    data = {"session_id": session_id, "transcript_path": str(transcript), "cwd": str(cwd)}
    return json.dumps({**data, "hook_event_name": "SessionEnd", "reason": "logout"}).encode()


def put_entry(
    raw: bytes,
    argv: tuple[str, ...] = ("SessionEnd",),
    *,
    pid: int | None = None,
    age: float = 0.0,
    cwd: str = "/",
    temp: bool = False,
    cut: int = 0,
) -> Path:
    """An entry as a hook writes it (``temp``: the temp file of one killed before its rename)."""
    folder = Path(spool.spool_dir(os.environ))
    folder.mkdir(parents=True, exist_ok=True)
    born = time.time_ns() - int(age * 1e9)
    name = f"{born}.{dead_pid() if pid is None else pid}{spool.SUFFIX}"
    path = folder / (f".{name}.0a1b2c3d4e5f.tmp" if temp else name)
    data = spool.encode(raw, cwd, argv)
    path.write_bytes(data[: len(data) - cut])
    return path


def spool_names() -> list[str]:
    folder = Path(spool.spool_dir(os.environ))
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_a_dead_hooks_entry_becomes_the_job_the_hook_would_have_written(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    put_entry(end_payload(SID, transcript, project), age=5.0)
    store = Store(project / "sessions")

    [found] = recover.drain(os.environ, time.time())

    assert (found.store, found.session_id, found.queued) == (store, SID, True)
    [job] = queued(store)
    assert (job.session_id, job.transcript_path, job.cwd) == (SID, str(transcript), str(project))
    assert (job.reason, job.agent, job.source) == ("logout", "claude", "session-end")
    assert job.ended_at.startswith("20")
    assert f"SessionEnd {SID} (logout): queued from the spool (its hook stopped)" in log_text(store)
    assert spool_names() == []


def test_a_payload_without_cwd_is_read_from_the_hooks_own_folder(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    raw = json.dumps({"session_id": SID, "transcript_path": str(transcript)}).encode()
    put_entry(raw, cwd=str(project))
    recover.drain(os.environ, time.time())
    assert [job.session_id for job in queued(Store(project / "sessions"))] == [SID]


def test_a_live_hooks_fresh_entry_is_left_to_it_a_stale_one_is_not(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    fresh = put_entry(end_payload(SID, transcript, project), pid=os.getpid())
    assert recover.drain(os.environ, time.time()) == []
    assert spool_names() == [fresh.name]
    later = time.time() + recover.STALE_SECONDS + 1
    assert [r.session_id for r in recover.drain(os.environ, later)] == [SID]
    assert spool_names() == []


def test_an_entry_naming_no_transcript_is_refused_as_the_hook_refuses_it(project: Path) -> None:
    fake = claude_projects() / f"{SID}.jsonl"
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text("not a transcript\n")
    put_entry(end_payload(SID, fake, project))
    store = Store(project / "sessions")
    [found] = recover.drain(os.environ, time.time())
    assert found.queued is False and queued(store) == []
    assert "refused: line 1 is not JSON (from the spool)" in log_text(store)
    assert spool_names() == []


def test_a_session_the_hook_queued_before_it_died_is_not_queued_again(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    store = Store(project / "sessions")
    job = jobs.Job(SID, str(transcript), str(project), attempts=2, last_error="boom")
    jobs.write_job(store, job)
    put_entry(end_payload(SID, transcript, project))
    [found] = recover.drain(os.environ, time.time())
    assert found.queued is False
    assert queued(store) == [job], "the queued job is left as it was"
    assert spool_names() == []


def test_a_session_distilled_since_its_hook_died_is_not_queued_again(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    store = Store(project / "sessions")
    put_entry(end_payload(SID, transcript, project), age=30.0)
    done = jobs.Done(SID, 10, "raw", "summary", "wiki", "ok", "", "2026-12-02T00:00:00+00:00")
    jobs.write_done(store, done)
    [found] = recover.drain(os.environ, time.time())
    assert found.queued is False and queued(store) == []


def test_a_whole_temp_file_of_a_hook_killed_before_its_rename_is_recovered(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    put_entry(end_payload(SID, transcript, project), temp=True)
    put_entry(end_payload("cut-short", transcript, project), temp=True, cut=3)
    found = recover.drain(os.environ, time.time())
    assert [r.session_id for r in found] == [SID]
    assert [job.session_id for job in queued(Store(project / "sessions"))] == [SID]
    assert spool_names() == [], "the cut temp file is removed too"


def test_an_entry_of_another_event_or_garbage_is_dropped(project: Path) -> None:
    start = {"session_id": SID, "cwd": str(project), "hook_event_name": "SessionStart"}
    put_entry(json.dumps(start).encode(), argv=())
    put_entry(b"\x00garbage", argv=("SessionEnd",))
    folder = Path(spool.spool_dir(os.environ))
    (folder / "stray-file.txt").write_text("not the spool's")
    found = recover.drain(os.environ, time.time())
    assert [r.queued for r in found] == [False]  # the garbage: no session id, logged
    assert queued(Store(project / "sessions")) == []
    assert spool_names() == ["stray-file.txt"], "only the spool's own entries are touched"


def test_a_codex_hooks_entry_queues_a_codex_job(project: Path) -> None:
    rollout = codex_rollout(project, age=None)
    argv = ("SessionEnd", "--agent", "codex")
    put_entry(payload("codex", "session-end-other.json", project), argv)
    recover.drain(os.environ, time.time())
    [job] = queued(Store(project / "sessions"))
    assert (job.session_id, job.agent, job.transcript_path) == (CODEX_SID, "codex", str(rollout))


def test_an_entry_whose_store_cannot_be_written_stays_for_the_next_drain(project: Path) -> None:
    """A file where the queue folder belongs fails every writer, root included."""
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    entry = put_entry(end_payload(SID, transcript, project))
    store = Store(project / "sessions")
    store.state.mkdir(parents=True)
    store.queue.write_text("in the way")
    assert recover.drain(os.environ, time.time()) == []
    assert spool_names() == [entry.name], "kept: nothing is lost"
    store.queue.unlink()
    assert [r.queued for r in recover.drain(os.environ, time.time())] == [True]
    assert spool_names() == []


def test_session_start_drains_the_spool_and_starts_the_worker(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    put_entry(end_payload(SID, transcript, project))
    store = Store(project / "sessions")
    start = {"session_id": "next", "cwd": str(project), "hook_event_name": "SessionStart"}
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.hookentry", "SessionStart"],
        input=json.dumps(start).encode(),
        cwd=project,
        env=hook_env(),
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert spool_names() == []
    log = log_text(store)
    assert f"SessionEnd {SID} (logout): queued from the spool" in log
    wait_for(lambda: jobs.read_done(store, SID) is not None, 60, "the recovered session distilled")
    pids = spawned_pids(store)
    wait_for(lambda: all(exited(pid) for pid in pids), 30, "the worker to exit")
