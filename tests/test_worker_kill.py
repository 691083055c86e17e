"""A worker killed with SIGKILL in the middle of writing leaves no partial file behind.

The transcript is a named pipe, so the test decides exactly when the worker is mid-copy: some
bytes are in its temp file, the rest have not been sent. After the kill the job is still queued,
no ``*.jsonl`` exists in ``raw/``, and the next worker cleans the temp file and completes the job.
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
    fifo = tmp_path / "claude" / f"{SID}.jsonl"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    jobs.write_job(store, jobs.Job(SID, str(fifo), cwd=str(store.project)))
    body = "".join(json.dumps(line) + "\n" for line in transcript_lines(SID, 40)).encode()

    worker = _worker(store)
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
    assert jobs.live_running(store) == [], "the dead worker's marker is stale, not live"
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
    transcript = tmp_path / "claude" / f"{SID}.jsonl"
    transcript.parent.mkdir()
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
