"""The worker a SessionEnd hook starts is fully detached: own session, no stdio, clean environment.

The worker is caught while it waits for the transcript to settle (a long settle window), so its
``/proc`` entry can be read; then the test kills it (the job stays queued).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from worker_support import (
    claude_projects,
    exited,
    fixture_session_id,
    hook_env,
    make_project,
    payload_bytes,
    queued,
    spawned_pids,
    wait_for,
    write_transcript,
)

import vaultkit
from vaultkit.base.store import Store
from vaultkit.session.queue import runlock
from vaultkit.session.queue.spawn import worker_command, worker_env

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    parts = (item.decode(errors="replace").partition("=") for item in raw if b"=" in item)
    return {key: value for key, _, value in parts}


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_spawned_worker_is_detached_with_a_cleaned_environment(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    fixture = "session_end_logout.json"
    sid = fixture_session_id(fixture)  # the hook refuses a transcript of another session
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    agent_env = hook_env(
        CLAUDECODE="1",
        CLAUDE_CODE_ENTRYPOINT="cli",
        CLAUDE_CODE_SSE_PORT="12345",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        VAULTKIT_SETTLE_SECONDS="30",
        VAULTKIT_SETTLE_MAX_SECONDS="30",
    )
    leak = tmp_path / "inherited-by-the-hook.txt"
    with leak.open("w") as handle:  # an open descriptor the agent passed down to the hook
        done = subprocess.run(
            [sys.executable, "-m", "vaultkit.hookentry", "SessionEnd"],
            input=payload_bytes(fixture, transcript, project),
            cwd=project,
            env=agent_env,
            pass_fds=(handle.fileno(),),
            capture_output=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 0
    [pid] = spawned_pids(store)
    try:
        wait_for(lambda: Path(f"/proc/{pid}/cmdline").read_bytes().count(b"worker") > 0, 10)
        assert os.getsid(pid) != os.getsid(0), "the worker runs in a session of its own"
        assert os.getpgid(pid) != os.getpgid(0)
        assert _parent(pid) != os.getpid(), "nobody waits for the worker"
        targets = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        assert str(leak) not in targets, "descriptors beyond stdio are not inherited"
        for fd in (0, 1, 2):
            assert os.readlink(f"/proc/{pid}/fd/{fd}") == "/dev/null"
        env = _environ(pid)
        assert env["VAULTKIT_CHILD"] == "1"
        assert not {"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SSE_PORT"} & set(env)
        assert env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1", "user settings survive"
        assert Path(os.readlink(f"/proc/{pid}/cwd")) == store.root
        cmdline = [p.decode() for p in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if p]
        lock_fd = int(cmdline[-1])
        assert cmdline[1:] == worker_command(store, lock_fd=lock_fd)[1:], "a runner of the queue"
        assert os.readlink(f"/proc/{pid}/fd/{lock_fd}") == runlock.lock_path(store)
        # Code the starting worker is reading at this instant (bytecode, libc for ctypes) may show
        # for a moment; anything else open beyond stdio and the runner lock would be a leak.
        kept = [t for t in targets if not _loading_code(t)]
        assert sorted(kept) == sorted(["/dev/null"] * 3 + [runlock.lock_path(store)])
    finally:
        os.kill(pid, signal.SIGKILL)
    wait_for(lambda: exited(pid), 10, "the worker to die")
    assert len(queued(store)) == 1, "a killed worker leaves its job queued"


def test_worker_env_drops_agent_variables_and_sets_the_guard() -> None:
    env = worker_env(
        {
            "PATH": "/bin",
            "CLAUDECODE": "1",
            "CLAUDE_CODE_ENTRYPOINT": "cli",
            "CLAUDE_CONFIG_DIR": "x",
            "CLAUDE_CODE_USE_BEDROCK": "1",
            "VAULTKIT_CHILD": "",
        }
    )
    assert env == {
        "PATH": "/bin",
        "CLAUDE_CONFIG_DIR": "x",
        "CLAUDE_CODE_USE_BEDROCK": "1",
        "VAULTKIT_CHILD": "1",
        "CLAUDE_WIKI_CHILD": "1",  # the seed's hooks, if still installed, stand down too
    }


def _loading_code(target: str) -> bool:
    """A file or folder the interpreter opens briefly while importing: bytecode, source, a
    shared library, or a folder of the Python installation or of vaultkit being listed."""
    name = target.rsplit("/", 1)[-1]
    homes = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(vaultkit.__file__).parent)}
    inside = any(target == h or target.startswith(h.rstrip("/") + "/") for h in homes)
    return inside or name.endswith((".pyc", ".py")) or ".so" in name
