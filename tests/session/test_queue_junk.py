"""Junk in the queue (``\\x00garbage``, ``[]``, JSON cut short) is moved aside with one log line
each and counted by ``vaultkit doctor``; a session whose job was garbled is queued again at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from agent_fixtures import codex_rollout, day_folder
from worker_support import FAST_SETTLE, make_project

from vaultkit.base.store import Store
from vaultkit.session.notes.write import read_frontmatter
from vaultkit.session.queue import jobs

SID = "019ad7c1-5d2e-7a3b-9c4d-5e6f7a8b9c0d"


def _run(store: Store, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=store.project, env={**os.environ, **FAST_SETTLE},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.slow
def test_junk_is_set_aside_counted_and_a_garbled_job_recovered(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    store.root.mkdir(parents=True)
    store.config_file.write_text('[distill]\nbackend = "offline"\n', encoding="utf-8")
    rollout = codex_rollout(project, session_id=SID, day=day_folder())
    job = jobs.Job(session_id=SID, transcript_path=str(rollout), cwd=str(project), agent="codex")
    path = Path(jobs.write_job(store, job))
    path.write_text(path.read_text(encoding="utf-8")[:25], encoding="utf-8")  # garbled later
    queue = jobs.queue_dir(store)
    (queue / "garbage.json").write_bytes(b"\x00garbage")
    (queue / "list.json").write_text("[]", encoding="utf-8")
    before = _run(store, "vaultkit", "doctor")
    assert "3 more in the queue" in before.stdout, before.stdout

    done = _run(store, "vaultkit.session.worker", "--store", str(store.root), "--once")
    assert done.returncode == 0, done.stderr
    junk = sorted(p.name.split(".json")[0] for p in (queue / jobs.JUNK).iterdir())
    assert junk == sorted(["garbage", "list", SID])
    log = store.log.read_text(encoding="utf-8")
    assert log.count("holds no job; moved to queue/junk/") == 3
    assert f"{SID} queued again from {rollout}" in log
    (summary,) = store.summary.glob("*.md")  # the garbled session was distilled all the same
    assert read_frontmatter(summary)["session_id"] == SID
    assert not list(queue.glob("*.json"))

    doctor = _run(store, "vaultkit", "doctor")
    assert "queue junk: 3 file(s) that held no job set aside" in doctor.stdout, doctor.stdout
    assert "Traceback" not in doctor.stderr
