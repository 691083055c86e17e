"""A killed worker leaves no partial file, no live LLM process and (in the end) no temp folder.

The copy step reads a named pipe, so the test decides exactly when it is mid-copy: some bytes are
in its temp file, the rest have not been sent. (The worker itself refuses a pipe — it archives
only regular files — so the killed process runs the worker's copy step, ``copy_transcript``,
alone.) After the kill the job is still queued, no ``*.jsonl`` exists in ``raw/``, and the next
worker cleans the temp file and completes the job.
The fake LLM starts a helper process of its own: killing the worker (SIGKILL, SIGTERM, SIGHUP,
SIGINT) kills both, and the worker's ``.vaultkit/tmp/<pid>`` folder is gone at once (stopped) or
swept by the next runner (SIGKILL).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from worker_support import (
    FAST_SETTLE,
    claude_projects,
    configure_command_backend,
    exited,
    hook_env,
    log_text,
    queued,
    transcript_lines,
    wait_for,
)

from vaultkit.base.store import Store
from vaultkit.session.queue import jobs, runlock, scratch

SID = "7d1e0c55-2b3a-4c1d-9e8f-00000000c0de"


def _worker(store: Store) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "vaultkit.session.worker", "--store", str(store.root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=hook_env(**FAST_SETTLE),
    )


COPY_STEP = """\
import sys
from datetime import datetime
from pathlib import Path
from vaultkit.session.transcripts.rawcopy import copy_transcript
copy_transcript(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], datetime.now())
"""


def _copier(store: Store, source: Path) -> subprocess.Popen[bytes]:
    """The worker's copy step on its own, in a process of its own."""
    return subprocess.Popen(
        [sys.executable, "-c", COPY_STEP, str(source), str(store.raw), SID],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=hook_env(**FAST_SETTLE),
    )


def _open_writer(fifo: Path, timeout: float = 20) -> int:
    """Open the pipe for writing once the worker has opened it for reading."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _temp_files(store: Store) -> list[Path]:
    return sorted(store.raw.glob(f".{SID}.*.tmp"))


@pytest.mark.timeout(120)
def test_sigkill_mid_copy_leaves_no_partial_file_and_the_next_worker_finishes(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "proj" / "sessions")
    configure_command_backend(store, tmp_path)
    fifo = claude_projects() / f"{SID}.jsonl"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    jobs.write_job(store, jobs.Job(SID, str(fifo), cwd=str(store.project)))
    body = "".join(json.dumps(line) + "\n" for line in transcript_lines(SID, 40)).encode()

    store.raw.mkdir(parents=True)
    worker = _copier(store, fifo)
    writer = _open_writer(fifo)
    try:
        os.set_blocking(writer, True)
        os.write(writer, body[: len(body) // 2])
        wait_for(lambda: any(p.stat().st_size > 0 for p in _temp_files(store)), 20, "a temp file")
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        with contextlib.suppress(OSError):
            os.close(writer)

    assert worker.returncode == -signal.SIGKILL
    assert list(store.raw.glob("*.jsonl")) == [], "no partial copy under a real name"
    assert len(_temp_files(store)) == 1
    assert [j.session_id for j in queued(store)] == [SID]
    assert not store.summary.exists()

    fifo.unlink()
    fifo.write_bytes(body)  # the transcript as the agent finally left it
    second = _worker(store)
    _, err = second.communicate(timeout=60)
    assert second.returncode == 0, err.decode()

    assert queued(store) == []
    assert _temp_files(store) == []
    [raw] = store.raw.glob("*.jsonl")
    assert raw.read_bytes() == body
    assert list(jobs.running_dir(store).glob("*.json")) == []
    assert len(list(store.summary.glob("*.md"))) == 1
    assert jobs.read_done(store, SID) is not None


SLOW_LLM = """\
import os, subprocess, sys, time
from pathlib import Path
sys.stdin.read()
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
Path(sys.argv[1]).write_text(f"{os.getpid()} {helper.pid}")
time.sleep(120)
"""


def _slow_llm_store(tmp_path: Path) -> tuple[Store, Path, bytes]:
    """A store whose LLM starts a helper process of its own, writes both pids, and hangs."""
    store = Store(tmp_path / "proj" / "sessions")
    slow = tmp_path / "slow_llm.py"
    slow.write_text(SLOW_LLM)
    pid_file = tmp_path / "llm.pid"
    command = json.dumps([sys.executable, str(slow), str(pid_file)])
    store.root.mkdir(parents=True)
    store.config_file.write_text(f'[distill]\nbackend = "command"\ncommand = {command}\n')
    transcript = claude_projects() / f"{SID}.jsonl"
    transcript.parent.mkdir(parents=True)
    body = "".join(json.dumps(line) + "\n" for line in transcript_lines(SID, 5)).encode()
    transcript.write_bytes(body)
    jobs.write_job(store, jobs.Job(SID, str(transcript), cwd=str(store.project)))
    return store, pid_file, body


def _llm_pids(pid_file: Path) -> list[int]:
    wait_for(lambda: pid_file.exists() and len(pid_file.read_text().split()) == 2, 30, "the LLM")
    return [int(pid) for pid in pid_file.read_text().split()]


def _scratch(store: Store) -> list[Path]:
    root = Path(scratch.scratch_root(store))
    return sorted(root.iterdir()) if root.exists() else []


@pytest.mark.timeout(120)
def test_sigkill_while_the_llm_runs_takes_the_llm_group_down_and_keeps_the_job(
    tmp_path: Path,
) -> None:
    store, pid_file, body = _slow_llm_store(tmp_path)

    worker = _worker(store)
    llm, helper = _llm_pids(pid_file)
    assert [p.name for p in _scratch(store)] == [str(worker.pid)]
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=10)
    wait_for(lambda: exited(llm) and exited(helper), 10, "the LLM and its helper to die")

    [raw] = store.raw.glob("*.jsonl")
    assert raw.read_bytes() == body, "the raw copy was complete before distilling began"
    assert [j.session_id for j in queued(store)] == [SID]
    assert not store.summary.exists() or list(store.summary.iterdir()) == []
    assert not store.wiki.exists() or list(store.wiki.iterdir()) == []
    assert [p.name for p in _scratch(store)] == [str(worker.pid)], "SIGKILL runs no clean-up"
    assert any(p.name.startswith("vaultkit-distill-") for p in _scratch(store)[0].iterdir())

    configure_command_backend(store, tmp_path)
    second = _worker(store)
    _, err = second.communicate(timeout=60)
    assert second.returncode == 0, err.decode()
    assert queued(store) == []
    assert len(list(store.summary.glob("*.md"))) == 1
    assert list(store.raw.glob("*.jsonl")) == [raw]
    assert _scratch(store) == [], "the next runner swept the dead worker's temp folder"
    assert f"removed the temp folders of dead workers {worker.pid}" in log_text(store)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stopped_worker_kills_the_llm_group_and_leaves_no_temp_folder(
    signum: int, tmp_path: Path
) -> None:
    store, pid_file, _ = _slow_llm_store(tmp_path)

    worker = _worker(store)
    llm, helper = _llm_pids(pid_file)
    worker.send_signal(signum)
    _, err = worker.communicate(timeout=20)

    assert worker.returncode == 128 + signum, err.decode()
    assert exited(llm) and exited(helper), "the group was killed before the worker exited"
    assert _scratch(store) == []
    assert [j.session_id for j in queued(store)] == [SID]
    assert list(jobs.running_dir(store).glob("*.json")) == []
    assert not runlock.runner_alive(store)
    assert runlock.read_pid(store) is None


@pytest.mark.timeout(60)
def test_the_worker_refuses_a_named_pipe_at_once_and_never_blocks_on_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "proj" / "sessions")
    configure_command_backend(store, tmp_path)
    fifo = claude_projects() / f"{SID}.jsonl"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)  # nobody ever writes to it: a worker that opened it for reading would hang
    jobs.write_job(store, jobs.Job(SID, str(fifo), cwd=str(store.project)))
    started = time.monotonic()
    _, err = _worker(store).communicate(timeout=30)
    assert time.monotonic() - started < 20, err.decode()
    assert queued(store) == []
    assert not store.raw.exists() or list(store.raw.iterdir()) == []
    assert "not a regular file; not archived, job removed" in store.log.read_text()
