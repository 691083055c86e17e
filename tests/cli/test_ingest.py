"""``vaultkit ingest TRANSCRIPT`` as a real process: the worker's steps in the foreground."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock
from worker_support import (
    claude_projects,
    configure_command_backend,
    hook_env,
    make_project,
    queued,
    write_transcript,
)

from vaultkit.base.store import Store

SID = "9b2f4d6e-1a3c-4e5f-8a7b-0c9d8e7f6a5b"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = make_project(tmp_path / "proj")
    configure_command_backend(Store(project / "sessions"), tmp_path)
    return project


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    return write_transcript(claude_projects() / f"{SID}.jsonl", SID)


def ingest(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "ingest", *args],
        cwd=cwd,
        env=hook_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_ingest_prints_the_written_paths_and_progress(project: Path, transcript: Path) -> None:
    done = ingest(project, str(transcript), "--settle", "0.05")
    assert done.returncode == 0, done.stderr
    rows = dict(line.split(None, 1) for line in done.stdout.splitlines())
    assert set(rows) == {"raw", "summary", "wiki", "quality"}
    store = Store(project / "sessions")
    assert Path(rows["raw"]).parent == store.raw
    assert Path(rows["raw"]).read_bytes() == transcript.read_bytes()
    assert Path(rows["summary"]).parent == store.summary
    assert Path(rows["wiki"]).is_file()
    assert rows["quality"] == "ok"
    assert f"vaultkit: {SID}: copied raw/" in done.stderr
    assert "distilling with backend 'command'" in done.stderr
    assert "INDEX.md updated" in done.stderr
    assert queued(store) == []


def test_ingest_json_with_explicit_session_id_and_store(
    project: Path, transcript: Path, tmp_path: Path
) -> None:
    args = [str(transcript), "--session-id", "old-session-1", "--store", str(project)]
    done = ingest(tmp_path, *args, "--format", "json", "--quiet", "--settle", "0")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    data = json.loads(done.stdout)
    assert (data["session_id"], data["status"], data["quality"]) == ("old-session-1", "done", "ok")
    assert data["raw_path"].endswith("_old-session-1.jsonl")
    assert Path(data["wiki_path"]).parent == project / "sessions" / "wiki"


def test_missing_transcript_is_a_usage_error(project: Path, tmp_path: Path) -> None:
    done = ingest(project, str(tmp_path / "nope.jsonl"))
    assert done.returncode == 2
    assert "nope.jsonl: no such transcript file" in done.stderr
    assert "hint:" in done.stderr


def test_infrastructure_error_keeps_the_job_and_says_where_to_look(
    project: Path, transcript: Path
) -> None:
    store = Store(project / "sessions")
    store.config_file.write_text(
        '[distill]\nbackend = "command"\ncommand = ["/nonexistent/llm-binary"]\n'
    )
    done = ingest(project, str(transcript), "--settle", "0")
    assert done.returncode == 2
    assert f"session {SID} was not distilled (requeued)" in done.stderr
    assert str(store.log) in done.stderr
    [job] = queued(store)
    assert (job.session_id, job.attempts, job.source) == (SID, 1, "ingest")
    assert not store.summary.exists()


def test_a_session_held_by_a_worker_is_reported(project: Path, transcript: Path) -> None:
    store = Store(project / "sessions")
    store.locks.mkdir(parents=True)
    with FileLock(str(store.locks / f"{SID}.lock")):
        done = ingest(project, str(transcript), "--settle", "0")
    assert done.returncode == 2
    assert "is being distilled by a background worker right now" in done.stderr


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda tmp: Path("/etc/passwd"), "line 1 is not JSON"),
        (lambda tmp: tmp, "not a regular file"),
        (lambda tmp: _write(tmp / "events.jsonl", '{"event": "click"}\n'), "no Claude Code record"),
        (lambda tmp: _write(tmp / "empty.jsonl", ""), "the file is empty"),
    ],
)
def test_a_file_that_is_not_a_transcript_is_refused_with_one_error_line(
    project: Path, tmp_path: Path, make: Callable[[Path], Path], why: str
) -> None:
    target = make(tmp_path)
    done = ingest(project, str(target), "--settle", "0")
    assert (done.returncode, done.stdout) == (2, "")
    first, hint = done.stderr.splitlines()
    assert first.startswith(f"error: {target}: not an agent's transcript (")
    assert why in first
    assert hint.startswith("hint: pass a transcript an agent wrote: Claude Code's ")
    assert "a Codex rollout" in hint and "a Gemini CLI chat" in hint
    store = Store(project / "sessions")
    assert queued(store) == [] and not store.raw.exists()


def test_an_old_transcript_outside_the_agents_folder_can_be_ingested(
    project: Path, tmp_path: Path
) -> None:
    old = write_transcript(tmp_path / "backup" / f"{SID}.jsonl", SID)
    done = ingest(project, str(old), "--settle", "0")
    assert done.returncode == 0, done.stderr


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
