"""A session with no user turn (Codex's hook-trust session, a start the user quit at once)
leaves no note: its raw copy stays, the job is done, the log says why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from agent_fixtures import codex_rollout
from worker_support import FAST_SETTLE, claude_projects, make_project

from vaultkit.base.store import Store
from vaultkit.session.queue import jobs

SID = "019ad7c1-5d2e-7a3b-9c4d-5e6f7a8b9c0d"


def _is_user(record: dict[str, Any]) -> bool:
    payload = record.get("payload") or {}
    return payload.get("role") == "user" or payload.get("type") == "user_message"


def codex_without_user(project: Path) -> Path:
    """The real rollout with its user messages taken out: what quitting the trust prompt
    leaves (the session meta, the developer instructions, no prompt)."""
    path = codex_rollout(project, session_id=SID, age=None)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    kept = [r for r in records if not _is_user(r)]
    assert len(kept) < len(records)
    path.write_text("".join(json.dumps(r) + "\n" for r in kept), encoding="utf-8")
    return path


def claude_without_user(project: Path) -> Path:
    path = claude_projects() / f"{SID}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        {"type": "summary", "summary": "resumed", "sessionId": SID},
        {"type": "assistant", "sessionId": SID, "cwd": str(project),
         "message": {"id": "m1", "content": [{"type": "text", "text": "Ready when you are."}]}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("agent", "make"), [("codex", codex_without_user), ("claude", claude_without_user)]
)
def test_no_user_turn_no_note(tmp_path: Path, agent: str, make: Any) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    store.root.mkdir(parents=True)
    store.config_file.write_text('[distill]\nbackend = "offline"\n', encoding="utf-8")
    transcript = make(project)
    job = jobs.Job(
        session_id=SID, transcript_path=str(transcript), cwd=str(project),
        ended_at="2026-12-01T16:31:00+09:00", agent=agent,
    )  # fmt: skip
    jobs.write_job(store, job)
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.session.worker", "--store", str(store.root), "--once"],
        env={**os.environ, **FAST_SETTLE}, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not [p for p in store.root.rglob("*.md") if p.parent in (store.summary, store.wiki)]
    assert len(list(store.raw.glob(f"*{SID}.jsonl"))) == 1
    assert not [p for _, p in jobs.list_jobs(store)]  # done, not requeued
    assert "no user turn; no note written" in store.log.read_text(encoding="utf-8")
