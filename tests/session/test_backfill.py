"""Backfill: exactly the idle, undistilled transcripts of this project are queued, once."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from hook_start_support import add_session, make_project, transcript

from vaultkit.agents.claude import scan as claude_scan
from vaultkit.base.store import Store, find_store
from vaultkit.continuity.startup import compose
from vaultkit.session.queue import backfill, jobs, runlock

OLD = time.time() - 3600  # idle for an hour


class Spawns:
    """Records worker starts instead of launching the distiller (which would call an LLM).

    Like the real start it takes the runner lock for the runner it "started", which then stays
    alive until the test ends (so a second start in the same test sees a live runner)."""

    held: ClassVar[list[int]] = []

    def __init__(self) -> None:
        self.stores: list[Path] = []

    def __call__(self, store: Store) -> object:
        self.stores.append(store.root)
        fd = runlock.try_lock(store)
        if fd is not None:
            Spawns.held.append(fd)
        return 4242


@pytest.fixture(autouse=True)
def _runners_end() -> Iterator[None]:
    yield
    while Spawns.held:
        runlock.release(Spawns.held.pop())


def setup(tmp_path: Path) -> tuple[Path, Store, Path]:
    project = make_project(tmp_path / "proj")
    add_session(project, 29, "0900", "done0000", "Earlier")
    folder = tmp_path / "claude" / "projects" / "-proj"
    return project, Store(project / "sessions"), folder


def payload(project: Path, folder: Path) -> dict[str, object]:
    return {
        "source": "startup",
        "cwd": str(project),
        "session_id": "current",
        "transcript_path": str(folder / "current.jsonl"),
    }


def queued_ids(store: Store) -> list[str]:
    return sorted(job.session_id for _, job in jobs.list_jobs(store))


def test_only_idle_undistilled_transcripts_of_this_project_are_queued(tmp_path: Path) -> None:
    project, store, folder = setup(tmp_path)
    (project / "src").mkdir()
    transcript(folder / "current.jsonl", project, mtime=OLD)  # the session now starting
    transcript(folder / "missed.jsonl", project, mtime=OLD)
    transcript(folder / "from-subdir.jsonl", project / "src", mtime=OLD)
    transcript(folder / "busy.jsonl", project)  # still being written (fresh mtime)
    transcript(folder / "ancient.jsonl", project, mtime=time.time() - 30 * 86400)
    transcript(folder / "elsewhere.jsonl", tmp_path / "other-project", mtime=OLD)
    transcript(folder / "distilled.jsonl", project, mtime=OLD)
    jobs.write_done(
        store, jobs.Done("distilled", 10, "r", "s", "w", "ok", "", "2026-11-29T10:00:00+00:00")
    )
    transcript(folder / "gave-up.jsonl", project, mtime=OLD)
    jobs.write_job(store, jobs.Job("gave-up", str(folder / "gave-up.jsonl"), attempts=5))
    jobs.fail_job(store, jobs.Job("gave-up", str(folder / "gave-up.jsonl"), attempts=5))
    spawns = Spawns()

    text = compose(payload(project, folder), {}, spawn=spawns)

    assert queued_ids(store) == ["from-subdir", "missed"]
    assert spawns.stores == [store.root]
    job = jobs.read_job(jobs.queue_dir(store) / "missed.json")
    assert job is not None and job.source == "backfill"
    assert job.transcript_path == str(folder / "missed.jsonl") and job.cwd == str(project)
    assert "2 earlier session(s) of this project ended without being distilled" in text


def test_a_second_start_does_not_queue_or_spawn_again(tmp_path: Path) -> None:
    project, store, folder = setup(tmp_path)
    transcript(folder / "missed.jsonl", project, mtime=OLD)
    spawns = Spawns()
    compose(payload(project, folder), {}, spawn=spawns)
    text = compose(payload(project, folder), {}, spawn=spawns)
    assert spawns.stores == [store.root]
    assert queued_ids(store) == ["missed"]
    assert "without being distilled" not in text


def test_orphaned_queue_jobs_restart_the_worker_within_their_attempts(tmp_path: Path) -> None:
    _, store, _ = setup(tmp_path)
    left = jobs.write_job(store, jobs.Job("retry-me", "/x/retry-me.jsonl", attempts=1))
    spent = jobs.write_job(store, jobs.Job("spent", "/x/spent.jsonl", attempts=5))
    held = jobs.write_job(store, jobs.Job("held", "/x/held.jsonl"))
    jobs.mark_running(store, "held", "now")  # a live worker (this test's own pid) holds it
    for path in (left, spent, held):
        os.utime(path, (OLD, OLD))
    found = backfill.plan(store, "", "", max_attempts=5, now=time.time())
    assert [j.session_id for j in found.orphaned] == ["retry-me"]
    assert found.missed == ()


def test_a_just_queued_job_is_left_to_the_runner_being_started(tmp_path: Path) -> None:
    project, store, folder = setup(tmp_path)
    jobs.write_job(store, jobs.Job("fresh", "/x/fresh.jsonl"))
    starting = runlock.try_lock(store)  # the hook that queued it is handing the lock over
    assert starting is not None
    try:
        spawns = Spawns()
        compose(payload(project, folder), {}, spawn=spawns)
        assert spawns.stores == []
    finally:
        runlock.release(starting)


def test_a_fresh_job_with_no_runner_is_started_at_once(tmp_path: Path) -> None:
    """Its hook was killed after queueing, before it could start the runner."""
    project, store, folder = setup(tmp_path)
    jobs.write_job(store, jobs.Job("fresh", "/x/fresh.jsonl"))
    spawns = Spawns()
    found = backfill.plan(store, "", "", max_attempts=5, now=time.time())
    assert [j.session_id for j in found.orphaned] == ["fresh"]
    compose(payload(project, folder), {}, spawn=spawns)
    assert spawns.stores == [store.root]


def test_a_job_that_failed_before_waits_before_a_start_retries_it(tmp_path: Path) -> None:
    _, store, _ = setup(tmp_path)
    path = jobs.write_job(store, jobs.Job("failed-once", "/x/failed-once.jsonl", attempts=1))
    assert backfill.plan(store, "", "", max_attempts=5, now=time.time()).orphaned == ()
    os.utime(path, (OLD, OLD))
    found = backfill.plan(store, "", "", max_attempts=5, now=time.time())
    assert [j.session_id for j in found.orphaned] == ["failed-once"]


def test_backfill_is_bounded_per_start(tmp_path: Path) -> None:
    project, store, folder = setup(tmp_path)
    bound = backfill.MAX_PER_START
    for i in range(bound + 5):
        transcript(folder / f"missed-{i:02d}.jsonl", project, mtime=OLD - i)
    spawns = Spawns()
    compose(payload(project, folder), {}, spawn=spawns)
    assert queued_ids(store) == [f"missed-{i:02d}" for i in range(bound)]  # the newest ones
    assert len(spawns.stores) == 1


def test_without_a_transcript_path_nothing_is_scanned(tmp_path: Path) -> None:
    project, store, folder = setup(tmp_path)
    transcript(folder / "missed.jsonl", project, mtime=OLD)
    spawns = Spawns()
    compose({"source": "startup", "cwd": str(project)}, {}, spawn=spawns)
    assert queued_ids(store) == [] and spawns.stores == []


def test_transcript_cwd_reads_only_the_first_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('not json\n{"type":"x"}\n{"cwd":"/somewhere","type":"user"}\n')
    assert claude_scan.transcript_cwd(path) == "/somewhere"
    assert claude_scan.transcript_cwd(tmp_path / "missing.jsonl") == ""


def test_stores_under_vaultkit_home_match_transcripts_by_the_same_rule(tmp_path: Path) -> None:
    home_store = tmp_path / "vk-home"
    workdir = tmp_path / "scratch"  # no git: its store is under $VAULTKIT_HOME/projects/
    workdir.mkdir()
    env = {"VAULTKIT_HOME": str(home_store)}
    store = find_store(workdir, env=env)
    store.summary.mkdir(parents=True)
    folder = tmp_path / "claude" / "projects" / "-scratch"
    transcript(folder / "missed.jsonl", workdir, mtime=OLD)
    current = str(folder / "current.jsonl")
    found = backfill.plan(store, current, "current", max_attempts=5, now=time.time(), env=env)
    assert [j.session_id for j in found.missed] == ["missed"]
    none = backfill.plan(store, current, "current", max_attempts=5, now=time.time(), env={})
    assert none.missed == ()


def test_when_no_worker_can_start_the_jobs_stay_queued_and_nothing_is_claimed(
    tmp_path: Path,
) -> None:
    project, store, folder = setup(tmp_path)
    transcript(folder / "missed.jsonl", project, mtime=OLD)
    text = compose(payload(project, folder), {}, spawn=lambda _store: None)
    assert queued_ids(store) == ["missed"]
    assert "without being distilled" not in text
    assert "queued them, but no worker could start" in store.log.read_text()
