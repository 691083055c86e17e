"""One queue runner per store: the hook hands its runner lock over, or leaves its job to the live
runner; the runner rescans after releasing the lock; it runs at low CPU and I/O priority.

Real hook processes, real workers, real ``flock`` locks; the LLM is the offline backend.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from worker_support import (
    claude_projects,
    exited,
    fake_distill,
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
from vaultkit.session.queue import jobs, runlock
from vaultkit.session.queue.spawn import start_runner
from vaultkit.session.transcripts.rawcopy import Settle
from vaultkit.session.worker import outcome, runner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock runner lock")

FIXTURE = "session_end_other.json"
SLOW_SETTLE = {"VAULTKIT_SETTLE_SECONDS": "30", "VAULTKIT_SETTLE_MAX_SECONDS": "30"}


def _end(project: Path, tmp_path: Path, sid: str, **env: str) -> None:
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    stdin = payload_bytes(FIXTURE, transcript, project)
    stdin = stdin.replace(fixture_session_id(FIXTURE).encode(), sid.encode())
    done = run_hook("SessionEnd", stdin, project, hook_env(**env))
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def _proc_stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = make_project(tmp_path / "proj")
    (root / "sessions").mkdir()
    (root / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    return root


def test_a_hook_that_finds_a_runner_alive_only_writes_its_job(
    project: Path, tmp_path: Path
) -> None:
    store = Store(project / "sessions")
    held = runlock.try_lock(store)  # a runner (this test) is draining the queue
    assert held is not None
    try:
        _end(project, tmp_path, "aaaaaaaa-1111")
        assert [j.session_id for j in queued(store)] == ["aaaaaaaa-1111"]
        assert spawned_pids(store) == [], "no worker was started"
        assert "runner alive" in log_text(store)
    finally:
        runlock.release(held)


@pytest.mark.timeout(60)
def test_the_runner_holds_the_lock_the_hook_handed_over_until_it_dies(
    project: Path, tmp_path: Path
) -> None:
    store = Store(project / "sessions")
    _end(project, tmp_path, "aaaaaaaa-2222", **SLOW_SETTLE)  # the runner waits 30 s to settle
    [pid] = spawned_pids(store)
    try:
        wait_for(lambda: runlock.read_pid(store) == pid, 10, "the runner to name itself")
        assert runlock.runner_alive(store)
        _end(project, tmp_path, "bbbbbbbb-3333")
        assert spawned_pids(store) == [pid], "the second hook started no second worker"
        assert f"runner alive (pid {pid}), job left to it" in log_text(store)
        assert len(queued(store)) == 2
    finally:
        os.kill(pid, signal.SIGKILL)
    wait_for(lambda: exited(pid), 10, "the runner to die")
    assert not runlock.runner_alive(store), "the kernel dropped the dead runner's lock"


@pytest.mark.timeout(60)
def test_a_worker_started_by_hand_while_a_runner_is_alive_exits_at_once(project: Path) -> None:
    store = Store(project / "sessions")
    jobs.write_job(store, jobs.Job("s-manual", "/nowhere/s-manual.jsonl"))
    held = runlock.try_lock(store)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "vaultkit.session.worker", "--store", str(store.root)],
            env=hook_env(),
            capture_output=True,
            timeout=30,
            check=False,
        )
    finally:
        runlock.release(held if held is not None else -1)
    assert done.returncode == 0, done.stderr.decode()
    assert "a runner is draining the queue; exiting" in log_text(store)
    assert [j.session_id for j in queued(store)] == ["s-manual"], "the job is left to the runner"


def _job(store: Store, tmp_path: Path, sid: str) -> None:
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    jobs.write_job(store, jobs.Job(sid, str(transcript), cwd=str(store.project)))


FAST = Settle(window=0.05, max_wait=2)


def test_a_job_queued_just_before_the_release_is_drained_by_the_rescan(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook wrote its job while the lock was still held (so it started no runner)."""
    store = Store(project / "sessions")
    _job(store, tmp_path, "s-first")
    release = runlock.release
    late = ["s-late"]

    def release_after_a_late_job(fd: int) -> None:
        if late:
            _job(store, tmp_path, late.pop())  # written, then the hook finds the lock held
        release(fd)

    monkeypatch.setattr(runlock, "release", release_after_a_late_job)
    fd = runlock.try_lock(store)
    assert fd is not None
    results = runner.run_runner(store, fd, distill=fake_distill, settle=FAST)
    assert [(r.session_id, r.status) for r in results] == [
        ("s-first", outcome.Status.DONE),
        ("s-late", outcome.Status.DONE),
    ]
    assert queued(store) == []
    assert log_text(store).count("runner start") == 2
    assert not runlock.runner_alive(store)


def test_a_job_queued_after_the_release_is_left_to_the_runner_its_hook_started(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(project / "sessions")
    _job(store, tmp_path, "s-first")
    release = runlock.release
    taken: list[int] = []

    def a_hook_comes_after_the_release(fd: int) -> None:
        release(fd)
        if not taken:
            _job(store, tmp_path, "s-late")
            new = runlock.try_lock(store)  # the late hook takes the free lock
            assert new is not None
            taken.append(new)

    monkeypatch.setattr(runlock, "release", a_hook_comes_after_the_release)
    fd = runlock.try_lock(store)
    assert fd is not None
    try:
        results = runner.run_runner(store, fd, distill=fake_distill, settle=FAST)
    finally:
        release(taken[0])
    assert [r.session_id for r in results] == ["s-first"]
    assert [j.session_id for j in queued(store)] == ["s-late"], "left to the new runner"
    assert "a new runner took over the queue" in log_text(store)


def test_start_runner_starts_one_runner_and_then_reports_the_live_one(
    project: Path, tmp_path: Path
) -> None:
    store = Store(project / "sessions")
    _job(store, tmp_path, "s-one")
    first = start_runner(store)
    second = start_runner(store)  # at once: the first runner holds the lock it was handed
    assert first.started and first.pid is not None
    assert not second.started and second.ok
    wait_for(lambda: exited(first.pid or 0), 30, "the runner to finish")
    assert queued(store) == []
    assert jobs.read_done(store, "s-one") is not None


@pytest.mark.timeout(60)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_runner_works_at_low_cpu_and_io_priority(project: Path, tmp_path: Path) -> None:
    store = Store(project / "sessions")
    _end(project, tmp_path, "aaaaaaaa-4444", **SLOW_SETTLE)
    [pid] = spawned_pids(store)
    try:
        wait_for(lambda: "priority: nice" in log_text(store), 10, "the runner to lower itself")
        # 10 above the hook that spawned it, 19 at most: the suite itself may run niced
        expected = min(19, os.nice(0) + 10)
        assert int(_proc_stat(pid)[16]) == expected, "niceness (field 19 of /proc/PID/stat)"
        assert f"worker[{pid}] priority: nice {expected}, I/O best-effort 7" in log_text(store)
        if shutil.which("ionice"):
            shown = subprocess.run(["ionice", "-p", str(pid)], capture_output=True, text=True)
            assert shown.stdout.strip() == "best-effort: prio 7"
    finally:
        os.kill(pid, signal.SIGKILL)
    wait_for(lambda: exited(pid), 10, "the runner to die")


def test_the_runner_pid_file_names_only_its_own_process(project: Path) -> None:
    store = Store(project / "sessions")
    runlock.write_pid(store)
    assert runlock.read_pid(store) == os.getpid()
    Path(runlock.pid_path(store)).write_text("1\n")
    runlock.clear_pid(store)  # another process's pid file is left alone
    assert runlock.read_pid(store) == 1
