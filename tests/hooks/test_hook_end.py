"""SessionEnd through the real hook entry point: recorded payloads in, one queued job out, exit 0.

The tests hold the session's lock while the hook runs, so the worker the hook spawns finds the
session taken and leaves the job alone — which also shows that a second worker never runs a
session that is already held.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock
from worker_support import (
    claude_projects,
    exited,
    fixture_session_id,
    hook_env,
    log_text,
    make_project,
    payload_bytes,
    queued,
    run_hook,
    spawned_pids,
    wait_for,
    write_transcript,
)

from vaultkit.base.store import Store
from vaultkit.hookentry import handler_module
from vaultkit.session.queue import jobs

REASONS = ["clear", "resume", "logout", "prompt_input_exit", "other"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture
def store(project: Path) -> Store:
    return Store(project / "sessions")


def _hold(store: Store, session_id: str) -> FileLock:
    store.locks.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(store.locks / f"{jobs.safe_id(session_id)}.lock"), timeout=0)
    lock.acquire()
    return lock


@pytest.fixture
def held(store: Store) -> Iterator[list[FileLock]]:
    """Locks the test holds; released only after every worker the hooks spawned has exited."""
    locks: list[FileLock] = []
    yield locks
    pids = spawned_pids(store)
    wait_for(lambda: all(exited(pid) for pid in pids), 10, "spawned workers to exit")
    for lock in locks:
        lock.release()


@pytest.mark.parametrize("reason", REASONS)
def test_each_reason_queues_one_job_and_exits_quietly(
    reason: str, project: Path, store: Store, held: list[FileLock], tmp_path: Path
) -> None:
    fixture = f"session_end_{reason}.json"
    sid = fixture_session_id(fixture)
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    held.append(_hold(store, sid))
    done = run_hook("SessionEnd", payload_bytes(fixture, transcript, project), project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    [job] = queued(store)
    assert (job.session_id, job.reason, job.source) == (sid, reason, "session-end")
    assert (job.transcript_path, job.cwd, job.attempts) == (str(transcript), str(project), 0)
    assert job.ended_at.startswith("20")
    assert f"SessionEnd {sid} ({reason}): queued, worker pid" in log_text(store)
    assert list(store.raw.glob("*")) == [], "the hook itself must not copy the transcript"


def test_unknown_reason_is_read_as_other_and_logged(
    project: Path, store: Store, held: list[FileLock], tmp_path: Path
) -> None:
    fixture = "session_end_unknown_reason.json"
    sid = fixture_session_id(fixture)
    held.append(_hold(store, sid))
    done = run_hook(
        "SessionEnd", payload_bytes(fixture, claude_projects() / "t.jsonl", project), project
    )
    assert done.returncode == 0
    assert [j.reason for j in queued(store)] == ["other"]
    assert "unknown reason 'teleported_to_mars'" in log_text(store)


def test_non_utf8_bytes_are_tolerated(
    project: Path, store: Store, held: list[FileLock], tmp_path: Path
) -> None:
    fixture = "session_end_non_utf8.json"
    sid = fixture_session_id(fixture)
    held.append(_hold(store, sid))
    done = run_hook(
        "SessionEnd", payload_bytes(fixture, claude_projects() / "t.jsonl", project), project
    )
    assert (done.returncode, done.stdout) == (0, b"")
    assert [j.session_id for j in queued(store)] == [sid]


@pytest.mark.parametrize(
    ("fixture", "logged"),
    [
        ("session_end_missing_fields.json", "no session_id or transcript_path"),
        ("session_end_broken.json", "stdin is not JSON"),
        ("session_end_empty.json", "empty stdin"),
        ("session_end_not_an_object.json", "stdin JSON is a list, not an object"),
    ],
)
def test_unusable_payloads_queue_nothing_and_are_logged(
    fixture: str, logged: str, project: Path, store: Store, tmp_path: Path
) -> None:
    done = run_hook(
        "SessionEnd", payload_bytes(fixture, claude_projects() / "t.jsonl", project), project
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert queued(store) == []
    assert logged in log_text(store)


@pytest.mark.parametrize("guard", ["VAULTKIT_CHILD", "CLAUDE_WIKI_CHILD"])
def test_guard_variable_makes_the_hook_a_no_op(guard: str, project: Path, tmp_path: Path) -> None:
    fixture = "session_end_logout.json"
    transcript = write_transcript(claude_projects() / "t.jsonl", "x")
    stdin = payload_bytes(fixture, transcript, project)
    done = run_hook("SessionEnd", stdin, project, hook_env(**{guard: "1"}))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert not (project / "sessions").exists(), "a guarded hook must write nothing"


def test_requeue_keeps_attempts_and_last_error(
    project: Path, store: Store, held: list[FileLock], tmp_path: Path
) -> None:
    fixture = "session_end_clear.json"
    sid = fixture_session_id(fixture)
    jobs.write_job(store, jobs.Job(sid, "/old/path.jsonl", attempts=2, last_error="usage limit"))
    held.append(_hold(store, sid))
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    run_hook("SessionEnd", payload_bytes(fixture, transcript, project), project)
    [job] = queued(store)
    assert (job.transcript_path, job.attempts, job.last_error) == (
        str(transcript),
        2,
        "usage limit",
    )


def test_a_failing_handler_is_logged_with_its_traceback_and_exits_0(
    project: Path, store: Store, tmp_path: Path
) -> None:
    store.state.mkdir(parents=True)
    (store.state / "queue").write_text("not a folder")  # writing the job must fail
    fixture = "session_end_other.json"
    done = run_hook(
        "SessionEnd", payload_bytes(fixture, claude_projects() / "t.jsonl", project), project
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    log = log_text(store)
    assert "hook SessionEnd:" in log
    assert "Traceback" in log


def test_unknown_event_is_ignored_and_logged(project: Path, store: Store, tmp_path: Path) -> None:
    stdin = payload_bytes("session_end_other.json", claude_projects() / "t.jsonl", project)
    done = run_hook("NoSuchEvent", stdin, project)
    assert (done.returncode, done.stdout) == (0, b"")
    assert "no handler for event 'NoSuchEvent'" in log_text(store)
    assert queued(store) == []


def test_store_comes_from_payload_cwd_not_process_cwd(
    project: Path, store: Store, held: list[FileLock], tmp_path: Path
) -> None:
    elsewhere = make_project(tmp_path / "elsewhere")
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)
    fixture = "session_end_resume.json"
    sid = fixture_session_id(fixture)
    held.append(_hold(store, sid))
    run_hook("SessionEnd", payload_bytes(fixture, claude_projects() / "t.jsonl", sub), elsewhere)
    assert [j.session_id for j in queued(store)] == [sid]
    assert not (elsewhere / "sessions").exists()


@pytest.mark.parametrize(
    ("event", "module"),
    [
        ("SessionEnd", "vaultkit.hooks.session_end"),
        ("SessionStart", "vaultkit.hooks.session_start"),
        ("UserPromptSubmit", "vaultkit.hooks.user_prompt_submit"),
        ("../etc", None),
        ("sessionEnd", None),
        ("Session_End", None),
        ("", None),
    ],
)
def test_event_names_map_to_handler_modules_and_nothing_else(
    event: str, module: str | None
) -> None:
    assert handler_module(event) == module


def test_missing_session_id_is_taken_from_the_transcript_name(
    project: Path, store: Store, held: list[FileLock], tmp_path: Path
) -> None:
    sid = "5a5a5a5a-1111-2222-3333-444444444444"
    held.append(_hold(store, sid))
    stdin = payload_bytes(
        "session_end_no_session_id.json", claude_projects() / f"{sid}.jsonl", project
    )
    done = run_hook("SessionEnd", stdin, project)
    assert done.returncode == 0
    [job] = queued(store)
    assert (job.session_id, job.reason) == (sid, "other")


def test_handler_output_reaches_stdout_as_utf8_whatever_the_locale(
    project: Path, store: Store
) -> None:
    store.summary.mkdir(parents=True)
    (store.summary / "2026-11-30_0900_abcd1234_파서.md").write_text(
        "---\ntitle: 파서 작업\ndate: 2026-11-30T09:00:00+09:00\ntype: handoff-summary\n"
        "session_id: abcd1234\n---\n# 파서 작업\n\n스트리밍 파서를 완성했다.\n",
        encoding="utf-8",
    )
    payload = {"session_id": "new", "cwd": str(project), "source": "startup"}
    env = hook_env(PYTHONIOENCODING="latin-1", LC_ALL="C", LANG="C")
    done = run_hook("SessionStart", json.dumps(payload).encode(), project, env)
    assert (done.returncode, done.stderr) == (0, b"")
    output = json.loads(done.stdout.decode("utf-8"))
    context = output["hookSpecificOutput"]["additionalContext"]
    assert "스트리밍 파서를 완성했다." in context


def test_a_relative_transcript_path_is_read_from_the_payload_cwd(
    project: Path, store: Store, held: list[FileLock]
) -> None:
    sid = "6b6b6b6b-1111-2222-3333-444444444444"
    held.append(_hold(store, sid))
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    relative = os.path.relpath(transcript, project)
    assert relative.startswith("..")
    payload = {"session_id": sid, "transcript_path": relative, "cwd": str(project)}
    run_hook("SessionEnd", json.dumps(payload).encode(), project)
    [job] = queued(store)
    assert os.path.realpath(job.transcript_path) == os.path.realpath(transcript)


def test_without_an_event_argument_the_payload_names_the_event(
    project: Path, store: Store, held: list[FileLock], tmp_path: Path
) -> None:
    fixture = "session_end_logout.json"
    sid = fixture_session_id(fixture)
    held.append(_hold(store, sid))
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.hookentry"],
        input=payload_bytes(fixture, claude_projects() / "t.jsonl", project),
        cwd=project,
        env=hook_env(),
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, b"")
    assert [j.session_id for j in queued(store)] == [sid]


def _refused_targets(tmp_path: Path) -> dict[str, Path]:
    secret = tmp_path / "secret.txt"
    secret.write_text("not yours\n")
    folder = claude_projects()
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / "4c4c4c4c-1111-2222-3333-444444444444.jsonl"
    link.symlink_to(secret)
    (folder / "a-folder.jsonl").mkdir()
    outside = write_transcript(tmp_path / "proj" / "5d5d5d5d.jsonl", "5d5d5d5d")
    return {
        "system file": Path("/etc/passwd"),
        "folder": folder / "a-folder.jsonl",
        "symlink out": link,
        "transcript outside the agent's folder": outside,
    }


@pytest.mark.parametrize(
    "kind", ["system file", "folder", "symlink out", "transcript outside the agent's folder"]
)
def test_anything_but_the_agents_transcript_is_refused_with_one_log_line_and_no_job(
    kind: str, project: Path, store: Store, tmp_path: Path
) -> None:
    target = _refused_targets(tmp_path)[kind]
    payload = {"session_id": "s-refused", "transcript_path": str(target), "cwd": str(project)}
    done = run_hook("SessionEnd", json.dumps(payload).encode(), project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert queued(store) == []
    assert spawned_pids(store) == [], "no worker is started for nothing"
    lines = [line for line in log_text(store).splitlines() if "s-refused" in line]
    assert len(lines) == 1, lines
    assert f"SessionEnd s-refused: {target} refused: " in lines[0]
    assert not store.raw.exists()
