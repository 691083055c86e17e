"""Backfill end to end: a real SessionStart hook process starts the real worker for a session
whose SessionEnd never fired, and the next start injects that session's summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import FIXTURES
from hook_start_support import make_project

from vaultkit.base.store import Store
from vaultkit.session.queue import jobs

CLAUDE_FIXTURES = FIXTURES / "claude"
RECORDED_CWD = "/tmp/vaultkit-e2e-capture/project"
HOOK = str(Path(sys.executable).parent / "vaultkit-hook")


def recorded_transcript(target: Path, project: Path) -> Path:
    """The real ``tool-use`` transcript, moved to ``project`` (its recorded ``cwd``)."""
    text = (CLAUDE_FIXTURES / "transcripts" / "tool-use.jsonl").read_text(encoding="utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text.replace(RECORDED_CWD, str(project)), encoding="utf-8")
    old = time.time() - 3600
    os.utime(target, (old, old))
    return target


def start_payload(project: Path, transcript: Path) -> bytes:
    data = json.loads((CLAUDE_FIXTURES / "hooks" / "session-start-startup.json").read_text())
    data.update(cwd=str(project), transcript_path=str(transcript), session_id=transcript.stem)
    return json.dumps(data).encode("utf-8")


def hook(stdin: bytes, cwd: Path, config_dir: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("VAULTKIT_CHILD", "CLAUDE_WIKI_CHILD")}
    env.update(VAULTKIT_SETTLE_SECONDS="0.1", VAULTKIT_SETTLE_MAX_SECONDS="5")
    env["CLAUDE_CONFIG_DIR"] = str(config_dir)  # the agent's folder: its transcripts are here
    done = subprocess.run(
        [HOOK, "SessionStart"], input=stdin, cwd=cwd, env=env, capture_output=True, timeout=30
    )
    assert done.returncode == 0 and done.stderr == b""
    if not done.stdout:
        return ""
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert isinstance(context, str)
    return context


def test_a_missed_session_is_distilled_by_the_worker_the_start_hook_launched(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    store.config_file.write_text('[distill]\nbackend = "offline"\n', encoding="utf-8")
    folder = tmp_path / "claude-config" / "projects" / "-proj"
    missed = recorded_transcript(folder / "0a1b2c3d-0000-4000-8000-000000000001.jsonl", project)
    current = folder / "0a1b2c3d-0000-4000-8000-000000000002.jsonl"

    first = hook(start_payload(project, current), project, tmp_path / "claude-config")
    assert "1 earlier session(s) of this project ended without being distilled" in first

    deadline = time.monotonic() + 60
    while jobs.read_done(store, missed.stem) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    done = jobs.read_done(store, missed.stem)
    assert done is not None, store.log.read_text(encoding="utf-8")
    assert jobs.list_jobs(store) == []

    second = hook(start_payload(project, current), project, tmp_path / "claude-config")
    assert "without being distilled" not in second
    assert Path(done.summary_path).name in second
    assert "- `echo hi > out.txt`" in second  # the offline distiller's command trail
    raw = Path(done.raw_path).relative_to(project).as_posix()
    assert f"written in degraded mode (offline); the full transcript is at {raw}." in second
