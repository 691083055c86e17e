"""Twenty sessions ending at once: twenty hook processes, the runners they start, nothing lost.

Everything is real except the LLM, which is the ``command`` backend running a tiny script.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from worker_support import (
    claude_projects,
    configure_command_backend,
    exited,
    hook_env,
    make_project,
    queued,
    spawned_pids,
    wait_for,
    write_transcript,
)

from vaultkit.base.store import Store
from vaultkit.session.queue import jobs

SESSIONS = 20


def _payload(sid: str, transcript: Path, cwd: Path) -> bytes:
    data = {
        "session_id": sid,
        "transcript_path": str(transcript),
        "cwd": str(cwd),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    return json.dumps(data).encode()


def _end_sessions_at_once(project: Path, transcripts: dict[str, Path]) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "vaultkit.hookentry", "SessionEnd"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=project,
            env=hook_env(),
        )
        for _ in transcripts
    ]
    for proc, (sid, transcript) in zip(procs, transcripts.items(), strict=True):
        out, err = proc.communicate(_payload(sid, transcript, project), timeout=60)
        assert (proc.returncode, out, err) == (0, b"", b"")


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_twenty_sessions_ending_at_once(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    configure_command_backend(store, tmp_path)
    sids = [str(uuid.UUID(int=n + 1)) for n in range(SESSIONS)]
    transcripts = {sid: write_transcript(claude_projects() / f"{sid}.jsonl", sid) for sid in sids}

    _end_sessions_at_once(project, transcripts)

    pids = spawned_pids(store)
    assert 1 <= len(pids) <= SESSIONS, "a hook that finds a runner alive starts none"
    wait_for(lambda: all(exited(pid) for pid in pids), 200, "the runners to finish")
    assert queued(store) == []
    assert list(jobs.running_dir(store).glob("*.json")) == []
    assert not (jobs.queue_dir(store) / "failed").exists()

    raws = sorted(store.raw.glob("*.jsonl"))
    assert len(raws) == SESSIONS
    assert {p.name.split("_", 2)[2].removesuffix(".jsonl") for p in raws} == set(sids)
    assert [p.name for p in store.raw.iterdir() if p.name.startswith(".")] == []

    summaries = list(store.summary.glob("*.md")) + list(store.summary_archive.glob("*.md"))
    assert len(summaries) == SESSIONS
    assert len(list(store.summary.glob("*.md"))) == 10, "default retention keeps ten"

    notes = [p for p in store.wiki.glob("*.md") if p.name != "INDEX.md"]
    assert len(notes) == SESSIONS
    index = store.index.read_text(encoding="utf-8")
    assert all(f"[[{note.stem}]]" in index for note in notes)
    assert [sid for sid in sids if jobs.read_done(store, sid) is None] == []
