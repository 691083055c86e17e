"""The worker's steps on real files: raw copy, distillation, INDEX, retention, queue bookkeeping.

The LLM is replaced by an injected distiller (``fake_distill``) or, end to end, by the ``command``
backend running a tiny Python script.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from filelock import FileLock
from worker_support import (
    claude_projects,
    configure_command_backend,
    fake_distill,
    log_text,
    queued,
    write_transcript,
)

from vaultkit.base.config import Config
from vaultkit.base.store import Store
from vaultkit.session.distill.pipeline import DistillOutcome, InfraError, SessionInfo
from vaultkit.session.queue import jobs
from vaultkit.session.transcripts import rawcopy
from vaultkit.session.worker.job import process_job, remove_if_unchanged
from vaultkit.session.worker.outcome import Status, job_snapshot
from vaultkit.session.worker.runner import run_worker

FAST = rawcopy.Settle(window=0.05, max_wait=5)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    store = Store(tmp_path / "proj" / "sessions")
    store.root.mkdir()
    return store


def enqueue(store: Store, tmp_path: Path, sid: str, turns: int = 3) -> jobs.Job:
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid, turns)
    job = jobs.Job(
        sid, str(transcript), cwd=str(store.project), ended_at="2026-11-30T09:05:00+00:00"
    )
    jobs.write_job(store, job)
    return job


def run_one(store: Store, sid: str) -> Status:
    return process_job(store, sid, distill=fake_distill, settle=FAST).status


def test_a_job_becomes_raw_copy_notes_index_and_done_record(store: Store, tmp_path: Path) -> None:
    job = enqueue(store, tmp_path, "s-one")
    result = process_job(store, "s-one", distill=fake_distill, settle=FAST)
    assert result.status is Status.DONE
    [raw] = store.raw.iterdir()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}_\d{4}_s-one\.jsonl", raw.name)
    assert raw.read_bytes() == Path(job.transcript_path).read_bytes()
    assert raw.stat().st_mode & 0o777 == 0o600
    assert "[[Session s-one]]" in store.index.read_text(encoding="utf-8")
    done = jobs.read_done(store, "s-one")
    assert done is not None
    assert (done.raw_path, done.quality) == (str(raw), "ok")
    assert done.transcript_size == raw.stat().st_size
    assert queued(store) == []
    assert list(jobs.running_dir(store).glob("*.json")) == []


def test_same_session_ending_again_longer_refreshes_the_one_copy(
    store: Store, tmp_path: Path
) -> None:
    enqueue(store, tmp_path, "s-two", turns=2)
    assert run_one(store, "s-two") is Status.DONE
    [first] = store.raw.iterdir()
    longer = enqueue(store, tmp_path, "s-two", turns=6)
    assert run_one(store, "s-two") is Status.DONE
    assert list(store.raw.iterdir()) == [first]
    kept = Path(longer.transcript_path).read_bytes()
    assert first.read_bytes() == kept
    assert first.stat().st_mode & 0o777 == 0o600
    enqueue(store, tmp_path, "s-two", turns=1)  # a shorter transcript never replaces more
    assert run_one(store, "s-two") is Status.DONE
    assert first.read_bytes() == kept


def test_transcript_that_never_existed_drops_the_job(store: Store, tmp_path: Path) -> None:
    jobs.write_job(store, jobs.Job("ghost", str(claude_projects() / "nope.jsonl")))
    assert run_one(store, "ghost") is Status.DROPPED
    assert queued(store) == []
    assert "nope.jsonl does not exist and was never copied; dropped" in log_text(store)
    assert not store.summary.exists()


def test_vanished_transcript_is_distilled_from_its_raw_copy(store: Store, tmp_path: Path) -> None:
    job = enqueue(store, tmp_path, "s-gone")
    assert run_one(store, "s-gone") is Status.DONE
    Path(job.transcript_path).unlink()
    jobs.write_job(store, job)
    assert run_one(store, "s-gone") is Status.DONE
    assert "is gone; using raw copy" in log_text(store)


def _infra(store: Store, info: SessionInfo, config: Config) -> DistillOutcome:
    raise InfraError("claude: usage limit reached")


def test_infra_error_keeps_the_job_then_gives_up(store: Store, tmp_path: Path) -> None:
    store.config_file.write_text("[distill]\nmax_attempts = 2\n")
    enqueue(store, tmp_path, "s-infra")
    result = process_job(store, "s-infra", distill=_infra, settle=FAST)
    assert result.status is Status.REQUEUED
    [job] = queued(store)
    assert (job.attempts, job.last_error) == (1, "claude: usage limit reached")
    assert process_job(store, "s-infra", distill=_infra, settle=FAST).status is Status.FAILED
    assert queued(store) == []
    failed = jobs.read_job(jobs.queue_dir(store) / "failed" / "s-infra.json")
    assert failed is not None
    assert failed.attempts == 2
    assert list(jobs.running_dir(store).glob("*.json")) == []


def _boom(store: Store, info: SessionInfo, config: Config) -> DistillOutcome:
    if info.session_id == "s-bad":
        raise RuntimeError("distiller bug")
    return fake_distill(store, info, config)


def test_unexpected_error_is_logged_and_the_loop_goes_on(store: Store, tmp_path: Path) -> None:
    enqueue(store, tmp_path, "s-bad")
    time.sleep(0.01)
    enqueue(store, tmp_path, "s-good")
    results = run_worker(store, distill=_boom, settle=FAST)
    assert [(r.session_id, r.status) for r in results] == [
        ("s-bad", Status.REQUEUED),
        ("s-good", Status.DONE),
    ]
    [job] = queued(store)
    assert (job.session_id, job.attempts) == ("s-bad", 1)
    assert "RuntimeError: distiller bug" in log_text(store)
    assert "Traceback" in log_text(store)


def test_bad_config_still_archives_keeps_the_job_queued_and_writes_no_note(
    store: Store, tmp_path: Path
) -> None:
    store.config_file.write_text("[distill]\nbackend = 3\n")
    job = enqueue(store, tmp_path, "s-cfg")
    assert run_one(store, "s-cfg") is Status.REQUEUED
    [queued_job] = queued(store)
    assert queued_job.attempts == 0
    assert queued_job.last_error.startswith("config: ")
    assert "distill.backend must be str" in queued_job.last_error
    [raw] = store.raw.iterdir()  # the raw copy is made with the default settings
    assert raw.read_bytes() == Path(job.transcript_path).read_bytes()
    assert not store.summary.exists(), "no note from settings the user did not choose"
    log = log_text(store)
    assert log.count("distill.backend must be str") == 1
    assert "archiving with the default settings, not distilling" in log

    store.config_file.write_text("[distill]\nmax_attempts = 3\n")  # fixed
    assert run_one(store, "s-cfg") is Status.DONE
    assert queued(store) == []
    assert len(list(store.summary.glob("*.md"))) == 1


def test_a_held_session_is_skipped_without_waiting(store: Store, tmp_path: Path) -> None:
    enqueue(store, tmp_path, "s-held")
    store.locks.mkdir(parents=True, exist_ok=True)
    with FileLock(str(store.locks / "s-held.lock")):
        started = time.monotonic()
        assert run_worker(store, distill=fake_distill, settle=FAST)[0].status is Status.LOCKED
        assert time.monotonic() - started < 1
    assert [j.session_id for j in queued(store)] == ["s-held"]


def test_session_that_ends_again_while_distilled_is_done_twice(
    store: Store, tmp_path: Path
) -> None:
    enqueue(store, tmp_path, "s-again", turns=2)
    calls: list[int] = []

    def ends_again_meanwhile(store: Store, info: SessionInfo, config: Config) -> DistillOutcome:
        calls.append(1)
        if len(calls) == 1:  # what a second SessionEnd hook does while we work
            time.sleep(0.01)
            enqueue(store, tmp_path, "s-again", turns=5)
        return fake_distill(store, info, config)

    results = run_worker(store, session_id="s-again", distill=ends_again_meanwhile, settle=FAST)
    assert [r.status for r in results] == [Status.SUPERSEDED, Status.DONE]
    assert queued(store) == []
    [raw] = store.raw.iterdir()
    assert raw.read_text().count("\n") == 10


def test_settle_waits_for_a_transcript_still_being_written(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_text("")

    def writer() -> None:
        with path.open("a") as handle:
            for n in range(8):
                handle.write(json.dumps({"n": n}) + "\n")
                handle.flush()
                time.sleep(0.05)

    thread = threading.Thread(target=writer)
    thread.start()
    size = rawcopy.wait_settled(path, rawcopy.Settle(window=0.3, max_wait=5))
    thread.join()
    assert size == path.stat().st_size
    assert path.read_text().count("\n") == 8


def test_settle_is_bounded_by_max_wait(tmp_path: Path) -> None:
    path = tmp_path / "busy.jsonl"
    path.write_text("")
    stop = threading.Event()

    def writer() -> None:
        with path.open("a") as handle:
            while not stop.is_set():
                handle.write("x\n")
                handle.flush()
                time.sleep(0.02)

    thread = threading.Thread(target=writer)
    thread.start()
    started = time.monotonic()
    rawcopy.wait_settled(path, rawcopy.Settle(window=1.0, max_wait=0.4))
    elapsed = time.monotonic() - started
    stop.set()
    thread.join()
    assert 0.35 < elapsed < 10  # max_wait ended it (the writer never stops on its own)


def test_leftover_temp_files_of_the_session_are_removed(store: Store, tmp_path: Path) -> None:
    store.raw.mkdir(parents=True)
    mine = store.raw / ".s-tmp.abc123.tmp"
    other = store.raw / ".s-other.abc123.tmp"
    mine.write_text("partial")
    other.write_text("partial")
    enqueue(store, tmp_path, "s-tmp")
    assert run_one(store, "s-tmp") is Status.DONE
    assert not mine.exists()
    assert other.exists(), "another session's temp file belongs to its own worker"


def test_command_backend_end_to_end(store: Store, tmp_path: Path) -> None:
    configure_command_backend(store, tmp_path)
    enqueue(store, tmp_path, "0c1d2e3f-aaaa-bbbb-cccc-00000000abcd")
    [result] = run_worker(store, settle=FAST)
    assert result.status is Status.DONE, result.message
    assert result.quality == "ok"
    wiki = Path(result.wiki_path)
    assert wiki.parent == store.wiki
    assert "Parser work 00abcd" in wiki.read_text(encoding="utf-8")
    assert f"[[{wiki.stem}]]" in store.index.read_text(encoding="utf-8")
    assert Path(result.summary_path).parent == store.summary


def test_index_failure_is_logged_and_the_session_still_counts_as_done(
    store: Store, tmp_path: Path
) -> None:
    store.index.mkdir(parents=True)  # INDEX.md cannot be written over a folder
    enqueue(store, tmp_path, "s-index")
    assert run_one(store, "s-index") is Status.DONE
    assert queued(store) == []
    assert "INDEX.md/retention not updated" in log_text(store)
    assert jobs.read_done(store, "s-index") is not None


# VmHWM is this process's own peak RSS; ru_maxrss would include the forking parent's (Linux
# carries it across exec), which inside a big test run says nothing about the copy.
COPY_AND_REPORT_RSS = """\
import re, sys
from datetime import datetime
from pathlib import Path
from vaultkit.session.transcripts.rawcopy import copy_transcript
copy = copy_transcript(Path(sys.argv[1]), Path(sys.argv[2]), "big", datetime.now())
status = Path("/proc/self/status").read_text()
print(copy.size, re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_raw_copy_streams_a_large_transcript_in_bounded_memory(tmp_path: Path) -> None:
    source = tmp_path / "big.jsonl"
    line = json.dumps({"type": "user", "message": {"content": "x" * 1000}}).encode() + b"\n"
    with source.open("wb") as handle:
        for _ in range(64):
            handle.write(line * 1024)  # 64 batches of ~1 MB: about 64 MB in all
    done = subprocess.run(
        [sys.executable, "-c", COPY_AND_REPORT_RSS, str(source), str(tmp_path / "raw")],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    size, peak_kb = (int(part) for part in done.stdout.split())
    assert size == source.stat().st_size > 60 * 2**20
    assert peak_kb < 48 * 1024, f"peak RSS {peak_kb} KB: the copy is not streamed"


def test_removing_a_job_never_deletes_a_newer_ending(store: Store, tmp_path: Path) -> None:
    enqueue(store, tmp_path, "s-race")
    snapshot = job_snapshot(store, "s-race")
    assert snapshot is not None
    time.sleep(0.01)
    newer = enqueue(store, tmp_path, "s-race", turns=7)  # SessionEnd fired again meanwhile
    assert remove_if_unchanged(store, snapshot) is False
    assert queued(store) == [newer]
    assert [p.name for p in jobs.queue_dir(store).iterdir()] == ["s-race.json"]
    current = job_snapshot(store, "s-race")
    assert current is not None
    assert remove_if_unchanged(store, current) is True
    assert list(jobs.queue_dir(store).iterdir()) == []
