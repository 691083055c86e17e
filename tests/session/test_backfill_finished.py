"""Backfill takes a transcript as soon as it is provably finished, and never one a live process
is still writing: real files, a real writer process holding the transcript open."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hook_start_support import add_session, make_project

from vaultkit.base.store import Store
from vaultkit.session.queue import backfill, finished

EXIT = {"type": "cost-state", "sessionId": "x", "totalCostUSD": 0}
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _line(project: Path, n: int) -> dict[str, object]:
    return {
        "type": "user",
        "cwd": str(project),
        "message": {"role": "user", "content": f"step {n}"},
    }


def _write(path: Path, project: Path, *, exit_record: bool, age: float, tail: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [_line(project, n) for n in range(3)] + ([EXIT] if exit_record else [])
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + tail, encoding="utf-8")
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    return path


def _setup(tmp_path: Path) -> tuple[Path, Store, Path]:
    project = make_project(tmp_path / "proj")
    add_session(project, 29, "0900", "done0000", "Earlier")
    return project, Store(project / "sessions"), tmp_path / "claude" / "projects" / "-proj"


def _missed(store: Store, folder: Path) -> list[str]:
    found = backfill.plan(
        store, str(folder / "current.jsonl"), "current", max_attempts=5, now=time.time()
    )
    return sorted(job.session_id for job in found.missed)


@linux_only
def test_a_transcript_ending_in_its_exit_record_is_taken_once_settled(tmp_path: Path) -> None:
    project, store, folder = _setup(tmp_path)
    _write(folder / "ended.jsonl", project, exit_record=True, age=finished.SETTLE_SECONDS + 1)
    _write(folder / "just-ended.jsonl", project, exit_record=True, age=0)
    _write(folder / "no-exit.jsonl", project, exit_record=False, age=60)
    _write(folder / "torn.jsonl", project, exit_record=True, age=60, tail='{"type": "us')
    assert _missed(store, folder) == ["ended"]


def test_without_an_exit_record_five_silent_minutes_are_the_last_resort(tmp_path: Path) -> None:
    project, store, folder = _setup(tmp_path)
    _write(folder / "crashed.jsonl", project, exit_record=False, age=finished.IDLE_SECONDS + 5)
    _write(folder / "torn.jsonl", project, exit_record=False, age=900, tail='{"type": "us')
    _write(folder / "quiet.jsonl", project, exit_record=False, age=finished.IDLE_SECONDS - 30)
    assert _missed(store, folder) == ["crashed", "torn"]


def test_last_record_reads_only_a_complete_last_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"type": "user"}\n{"type": "cost-state"}\n')
    assert finished.last_record(str(path)) == {"type": "cost-state"}
    path.write_text('{"type": "user"}\n{"type": "cost-')
    assert finished.last_record(str(path)) is None
    path.write_text("")
    assert finished.last_record(str(path)) is None


WRITER = """\
import json, sys, time
path, cwd = sys.argv[1], sys.argv[2]
with open(path, "a", encoding="utf-8") as out:
    for n in range(15):  # a live window: one line every 100 ms
        out.write(json.dumps({"type": "user", "cwd": cwd, "message": {"content": str(n)}}) + "\\n")
        out.flush()
        time.sleep(0.1)
    out.write(json.dumps({"type": "cost-state"}) + "\\n")  # looks finished ...
    out.flush()
    print("paused", flush=True)
    sys.stdin.read()  # ... but the file stays open for writing until stdin closes
"""


@linux_only
@pytest.mark.timeout(60)
def test_a_transcript_a_live_process_holds_open_for_writing_is_never_taken(
    tmp_path: Path,
) -> None:
    project, store, folder = _setup(tmp_path)
    live = folder / "live.jsonl"
    live.parent.mkdir(parents=True)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    writer = subprocess.Popen(
        [sys.executable, str(script), str(live), str(project)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        polls = 0
        while not (live.exists() and "cost-state" in live.read_text()):
            assert _missed(store, folder) == [], "taken while lines were still being appended"
            polls += 1
            time.sleep(0.05)
        assert writer.stdout is not None and writer.stdout.readline() == b"paused\n"
        assert polls >= 10, "the check ran while the writer was appending"
        assert _missed(store, folder) == [], "an exit record, but the file is still open"
        old = time.time() - finished.IDLE_SECONDS - 60  # silent for longer than the last resort
        os.utime(live, (old, old))
        [facts] = finished.observe([str(live)], time.time())
        assert facts.closed and facts.written is True and not facts.finished
        assert _missed(store, folder) == []
    finally:
        writer.communicate(b"", timeout=10)
    assert _missed(store, folder) == ["live"], "taken once its writer has closed it"


@linux_only
def test_a_reader_does_not_count_as_a_writer(tmp_path: Path) -> None:
    project, _, folder = _setup(tmp_path)
    path = _write(folder / "read.jsonl", project, exit_record=True, age=10)
    with path.open("rb"):
        [facts] = finished.observe([str(path)], time.time())
    assert facts.written is False and facts.finished
