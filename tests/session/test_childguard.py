"""The child guard and the runner's clean-up of what killed writers leave: real processes, files."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vaultkit.base.store import Store
from vaultkit.session.queue import jobs

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups")


def _guard(*command: str, parent: int | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the guard in a session of its own (it may kill its whole group)."""
    argv = [sys.executable, "-m", "vaultkit.session.distill.childguard"]
    argv += [str(os.getpid() if parent is None else parent), "--", *command]
    return subprocess.run(argv, capture_output=True, timeout=30, start_new_session=True)


def test_the_guard_passes_stdio_through_and_returns_the_exit_code() -> None:
    done = _guard(sys.executable, "-c", "import sys; print('out'); sys.exit(3)")
    assert (done.returncode, done.stdout) == (3, b"out\n")


def test_a_command_killed_by_a_signal_exits_128_plus_the_signal() -> None:
    done = _guard(sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)")
    assert done.returncode == 128 + 15


def test_a_command_that_cannot_start_exits_127_and_says_why() -> None:
    done = _guard("/nonexistent/llm")
    assert done.returncode == 127
    assert b"childguard: cannot start /nonexistent/llm" in done.stderr


def test_without_its_parent_the_guard_kills_its_group_at_once(tmp_path: Path) -> None:
    """PARENT is not the guard's parent: the worker is already gone, so nothing may run."""
    marker = tmp_path / "ran"
    done = _guard(sys.executable, "-c", f"open({str(marker)!r}, 'w')", parent=1)
    assert done.returncode == -9
    assert not marker.exists()


def test_bad_arguments_are_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.session.distill.childguard", "x"],
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 2 and b"usage:" in done.stderr


def test_the_runner_sweeps_old_temp_files_of_killed_job_writers(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    jobs.write_job(store, jobs.Job("s1", "/x/s1.jsonl"))
    old = jobs.queue_dir(store) / ".s2.json.0123abcd.tmp"
    fresh = jobs.queue_dir(store) / ".s3.json.4567cdef.tmp"  # a hook writing right now
    old.write_text("{")
    fresh.write_text("{")
    stamp = time.time() - 2 * jobs.TEMP_MAX_AGE
    os.utime(old, (stamp, stamp))
    assert jobs.sweep_temps(store, time.time()) == 1
    assert not old.exists() and fresh.exists()
    assert [j.session_id for _, j in jobs.list_jobs(store)] == ["s1"]
