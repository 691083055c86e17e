"""The restart loop in a real terminal (tmux) with a stand-in agent and a stand-in worker."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from baton_support import project
from conftest import REPO, require_program

from vaultkit.base.store import Store
from vaultkit.continuity import loop
from vaultkit.session.queue import jobs

VAULTKIT_BIN = Path(sys.executable).parent / "vaultkit"
SIZE = ("-x", "150", "-y", "40")
HOOKS = REPO / "hooks"

# The stand-in agent: records its start, then does what SessionEnd does (queue the session and
# start a detached worker). The stand-in worker holds the in-progress marker for 2 s.
AGENT = """\
import os, subprocess, sys, time
from pathlib import Path
from vaultkit.session.queue import jobs
from vaultkit.base.store import find_store
store = find_store(Path.cwd())
runs = Path(sys.argv[1])
n = len(runs.read_text().splitlines()) // 2 + 1 if runs.exists() else 1
with runs.open("a") as f:
    f.write(f"start {n} {time.time()}\\n")
print(f"AGENT RUN {n} in {Path.cwd().name}", flush=True)
sid = f"sess-{n}"
jobs.write_job(store, jobs.Job(session_id=sid, transcript_path="/nonexistent"))
subprocess.Popen([sys.executable, sys.argv[2], str(store.root), sid, str(runs)],
                 start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
"""
WORKER = """\
import sys, time
from pathlib import Path
from vaultkit.session.queue import jobs
from vaultkit.base.store import Store
store, sid, runs = Store(Path(sys.argv[1])), sys.argv[2], Path(sys.argv[3])
jobs.mark_running(store, sid, "now")
time.sleep(2)
jobs.remove_job(store, sid)
with runs.open("a") as f:
    f.write(f"done {sid} {time.time()}\\n")
jobs.clear_running(store, sid)
"""


class Terminal:
    """One tmux session on a private server."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", str(self.socket), *args],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
        return done.stdout

    def start(self, command: str, cwd: Path) -> None:
        env = {**os.environ, "TERM": "xterm-256color"}
        subprocess.run(
            ["tmux", "-S", str(self.socket), "new-session", "-d", "-s", "t", *SIZE, command],
            cwd=cwd,
            env=env,
            check=True,
            timeout=20,
        )
        self.tmux("set-option", "-t", "t", "remain-on-exit", "on")

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, check: Callable[[str], bool], timeout: float, what: str) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; screen:\n{self.screen()}")


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    require_program("tmux")
    folder = Path(tempfile.mkdtemp(prefix="vkloop"))
    term = Terminal(folder / "s")
    yield term
    term.tmux("kill-server")
    shutil.rmtree(folder, ignore_errors=True)


def stand_ins(tmp_path: Path) -> tuple[Path, Path, Path]:
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    worker = tmp_path / "worker.py"
    worker.write_text(WORKER)
    return agent, worker, tmp_path / "runs.txt"


def events(runs: Path) -> list[tuple[str, str, float]]:
    rows = [line.split() for line in runs.read_text().splitlines()]
    return [(kind, ident, float(at)) for kind, ident, at in rows]


@pytest.mark.slow
def test_vaultkit_loop_waits_for_distillation_counts_down_and_quits_on_q(
    tmp_path: Path, terminal: Terminal
) -> None:
    root, _ = project(tmp_path / "proj")
    sub = root / "src"
    sub.mkdir()
    agent, worker, runs = stand_ins(tmp_path)
    command = (
        f"{sys.executable} -m vaultkit loop --delay 2 -- {sys.executable} {agent} {runs} {worker}"
    )
    terminal.start(command, sub)
    terminal.wait_for(lambda s: "waiting for the distillation of sess-1" in s, 20, "the wait")
    terminal.wait_for(lambda s: "AGENT RUN 2 in src" in s, 30, "the restart")
    terminal.wait_for(lambda s: "restarting in" in s, 20, "the second countdown")
    terminal.keys("q")
    terminal.wait_for(lambda s: "vaultkit loop: stopped" in s, 10, "the loop to stop")
    time.sleep(2.5)
    rows = events(runs)
    starts = [at for kind, _, at in rows if kind == "start"]
    done_1 = next(at for kind, ident, at in rows if kind == "done" and ident == "sess-1")
    assert len(starts) == 2, rows  # q stopped it: no third run
    # The restart came after the session's distillation finished plus the 2 s countdown.
    assert starts[1] >= done_1 + 1.5
    assert "exited with code 0" in terminal.screen()


def test_the_wait_is_bounded_and_ignores_failed_or_older_jobs(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    jobs.write_job(store, jobs.Job(session_id="old", transcript_path="x"))
    os.utime(jobs.queue_dir(store) / "old.json", (time.time() - 600, time.time() - 600))
    jobs.write_job(store, jobs.Job(session_id="failed", transcript_path="x", last_error="limit"))
    watch = loop.Watch(store, time.time() - 5)
    assert watch.pending() == []
    jobs.write_job(store, jobs.Job(session_id="fresh", transcript_path="x"))
    started = time.monotonic()
    assert loop.wait_distilled(watch, 1.2) == ["fresh"]
    assert 1.0 <= time.monotonic() - started < 3


def test_a_running_marker_of_a_seen_session_keeps_the_wait_going(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    watch = loop.Watch(Store(store.root), time.time() - 1)
    jobs.write_job(store, jobs.Job(session_id="s", transcript_path="x"))
    assert watch.pending() == ["s"]
    jobs.mark_running(store, "s", "now")  # this process holds the session
    jobs.remove_job(store, "s")
    assert watch.pending() == ["s"]
    jobs.clear_running(store, "s")
    assert watch.pending() == []


@pytest.mark.slow
@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_cloop_snippet_restarts_after_distillation_and_quits_on_q(
    shell: str, tmp_path: Path, terminal: Terminal
) -> None:
    require_program(shell)
    root, _ = project(tmp_path / "proj")
    agent, worker, runs = stand_ins(tmp_path)
    wrapper = tmp_path / "agent"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} {agent} {runs} {worker} "$@"\n')
    wrapper.chmod(0o755)
    script = tmp_path / "run.sh"
    script.write_text(
        f"export CLOOP_AGENT={wrapper} CLOOP_DELAY=2 VAULTKIT={VAULTKIT_BIN}\n"
        f". {HOOKS / 'cloop.sh'}\ncloop\necho CLOOP-RETURNED\nsleep 30\n"
    )
    shell_cmd = "bash --norc --noprofile" if shell == "bash" else "zsh -f"
    terminal.start(f"{shell_cmd} {script}", root)
    terminal.wait_for(lambda s: "AGENT RUN 2" in s, 40, "the restart")
    terminal.wait_for(lambda s: "restarting in" in s, 20, "the second countdown")
    terminal.keys("q")
    terminal.wait_for(lambda s: "CLOOP-RETURNED" in s, 10, "cloop to return")
    rows = events(runs)
    starts = [at for kind, _, at in rows if kind == "start"]
    done_1 = next(at for kind, ident, at in rows if kind == "done" and ident == "sess-1")
    assert len(starts) == 2 and starts[1] >= done_1 + 1.5
