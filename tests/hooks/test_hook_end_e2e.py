"""SessionEnd end to end: the installed ``vaultkit-hook`` script, its detached worker, the notes.

The same session ends twice (``/clear`` then a later exit, with more conversation in between):
the one raw copy is refreshed, the notes are rewritten, nothing is duplicated.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from worker_support import (
    claude_projects,
    configure_command_backend,
    exited,
    hook_env,
    make_project,
    payload_bytes,
    queued,
    spawned_pids,
    transcript_lines,
    wait_for,
    write_transcript,
)

from vaultkit.base.store import Store
from vaultkit.session.queue import jobs

HOOK = Path(sys.executable).parent / "vaultkit-hook"
FIXTURE = "session_end_clear.json"
SID = "4f6a2c1e-0b7d-4e8a-9c3f-000000000005"


def _end(project: Path, transcript: Path, store: Store) -> None:
    before = set(spawned_pids(store))
    done = subprocess.run(
        [str(HOOK), "SessionEnd"],
        input=payload_bytes(FIXTURE, transcript, project),
        cwd=project,
        env=hook_env(),
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    [pid] = set(spawned_pids(store)) - before
    wait_for(lambda: exited(pid), 60, "the worker to finish")


def test_console_script_queues_and_the_worker_distils_then_refreshes(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    configure_command_backend(store, tmp_path)
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID, turns=2)

    _end(project, transcript, store)
    assert queued(store) == []
    [raw] = store.raw.glob("*.jsonl")
    assert raw.read_bytes() == transcript.read_bytes()
    first = jobs.read_done(store, SID)
    assert first is not None
    assert first.quality == "ok"

    with transcript.open("a", encoding="utf-8") as handle:  # the session went on after /clear
        for line in transcript_lines(SID, 4)[4:]:
            handle.write(json.dumps(line) + "\n")
    _end(project, transcript, store)

    assert list(store.raw.glob("*.jsonl")) == [raw]
    assert raw.read_bytes() == transcript.read_bytes()
    second = jobs.read_done(store, SID)
    assert second is not None
    assert second.transcript_size == transcript.stat().st_size > first.transcript_size
    assert len(list(store.summary.glob("*.md"))) == 1
    assert len([p for p in store.wiki.glob("*.md") if p.name != "INDEX.md"]) == 1
    assert list(jobs.running_dir(store).glob("*.json")) == []
