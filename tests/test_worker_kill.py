"""A worker killed with SIGKILL in the middle of writing leaves no partial file behind.

The copy step reads a named pipe, so the test decides exactly when it is mid-copy: some bytes are
in its temp file, the rest have not been sent. (The worker itself refuses a pipe — it archives
only regular files — so the killed process runs the worker's copy step, ``copy_transcript``,
alone.) After the kill the job is still queued, no ``*.jsonl`` exists in ``raw/``, and the next
worker cleans the temp file and completes the job.
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
from test_worker_support import (
    FAST_SETTLE,
    claude_projects,
    configure_command_backend,
    hook_env,
    queued,
    transcript_lines,
    wait_for,
)

from vaultkit.base.store import Store
from vaultkit.session import jobs

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
from vaultkit.session.rawcopy import copy_transcript
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
import os, sys, time
from pathlib import Path
sys.stdin.read()
Path(sys.argv[1]).write_text(str(os.getpid()))
time.sleep(60)
"""


@pytest.mark.timeout(120)
def test_sigkill_while_the_llm_runs_keeps_the_job_and_writes_no_note(tmp_path: Path) -> None:
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

    worker = _worker(store)
    wait_for(pid_file.exists, 30, "the LLM to start")
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=10)
    os.kill(int(pid_file.read_text()), signal.SIGKILL)  # the orphaned fake LLM

    [raw] = store.raw.glob("*.jsonl")
    assert raw.read_bytes() == body, "the raw copy was complete before distilling began"
    assert [j.session_id for j in queued(store)] == [SID]
    assert not store.summary.exists() or list(store.summary.iterdir()) == []
    assert not store.wiki.exists() or list(store.wiki.iterdir()) == []

    configure_command_backend(store, tmp_path)
    second = _worker(store)
    _, err = second.communicate(timeout=60)
    assert second.returncode == 0, err.decode()
    assert queued(store) == []
    assert len(list(store.summary.glob("*.md"))) == 1
    assert list(store.raw.glob("*.jsonl")) == [raw]


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
