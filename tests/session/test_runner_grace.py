"""A runner a hook starts waits ``RUNNER_GRACE_SECONDS`` before it execs (holding the runner
lock), so the rest of a burst of SessionEnd hooks runs without its start-up beside them."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from worker_support import exited, make_project, wait_for

from vaultkit.base.store import Store
from vaultkit.session.queue import runlock, spawn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _cmdline(pid: int) -> list[str]:
    raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    return [part.decode() for part in raw.split(b"\0") if part]


def test_the_runner_holds_the_lock_through_its_grace_then_execs(tmp_path: Path) -> None:
    store = Store(make_project(tmp_path / "proj") / "sessions")
    started = time.monotonic()
    runner = spawn.start_runner(store, grace=2.0)
    assert runner.started and runner.pid is not None
    assert time.monotonic() - started < 1.0, "the hook does not wait for the grace"
    assert runlock.runner_alive(store), "another hook of the burst only queues its job"
    assert "vaultkit.session.worker" not in _cmdline(runner.pid), "not exec'd yet"
    pid = runner.pid

    def execd() -> bool:
        return exited(pid) or "vaultkit.session.worker" in _cmdline(pid)

    wait_for(execd, 10, "the runner to exec after its grace")
    assert time.monotonic() - started >= 2.0
    wait_for(lambda: exited(pid), 30, "the runner (nothing queued) to exit")
    assert not runlock.runner_alive(store)


def test_hooks_use_a_grace_that_ends_inside_claude_codes_budget() -> None:
    assert 0 < spawn.RUNNER_GRACE_SECONDS <= 1.5
