"""The SessionEnd hook itself refuses what is not the agent's transcript of this session.

Real hook processes on real files in the agents' own folders: a ``<uuid>.jsonl`` under Claude
Code's ``projects/`` that is not a transcript, a transcript of another session, a Gemini chat
file or Codex rollout that names another id. Each is refused with one log line, exit 0 and
nothing on stdout or stderr, and leaves no job, no runner lock, no worker and no spool entry.
``vaultkit-hook --help`` teaches the command line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from agent_fixtures import CODEX_SID, GEMINI_SID, codex_rollout, gemini_chat, payload
from worker_support import (
    claude_projects,
    exited,
    hook_env,
    log_text,
    make_project,
    spawned_pids,
    wait_for,
    write_transcript,
)

from vaultkit.agents import hookcmd
from vaultkit.base import spool
from vaultkit.base.store import Store
from vaultkit.session.queue import jobs

SID = "7e57c0de-1111-4222-8333-444455556666"
OTHER = "0the5e55-aaaa-4bbb-8ccc-dddddddddddd"
INSTALLED = [*hookcmd.hook_command(sys.executable, "vaultkit-hook")]
MODULE = [sys.executable, "-m", "vaultkit.hookentry"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


def run(command: list[str], stdin: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        command, input=stdin, cwd=cwd, env=hook_env(), capture_output=True, timeout=30, check=False
    )


def end_payload(session_id: str, transcript: Path, cwd: Path) -> bytes:
    data = {"session_id": session_id, "transcript_path": str(transcript), "cwd": str(cwd)}
    return json.dumps({**data, "hook_event_name": "SessionEnd", "reason": "other"}).encode()


def spool_entries() -> list[str]:
    folder = Path(spool.spool_dir(hook_env()))
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def assert_refused(done: subprocess.CompletedProcess[bytes], store: Store, why: str) -> None:
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert jobs.queued(store) == [], "no job"
    assert spawned_pids(store) == [], "no worker"
    locks = sorted(p.name for p in store.locks.iterdir()) if store.locks.exists() else []
    assert locks == [], "no lock left behind"
    assert spool_entries() == [], "no spool entry left behind"
    lines = [line for line in log_text(store).splitlines() if " refused: " in line]
    assert len(lines) == 1, lines
    assert why in lines[0], lines[0]


NOT_TRANSCRIPTS = {
    "plain text": (b"hello, this is not a transcript\n", "line 1 is not JSON"),
    "a JSON list": (b"[1, 2, 3]\n", "line 1 is not a JSON object"),
    "JSON objects without a record": (
        b'{"name": "x"}\n{"value": 2}\n',
        "no Claude Code record type and session id",
    ),
    "a copy of a system file": (b"root:x:0:0:root:/root:/bin/bash\n", "line 1 is not JSON"),
    "an empty file": (b"", "the file is empty"),
}


@pytest.mark.parametrize("kind", list(NOT_TRANSCRIPTS))
@pytest.mark.parametrize("command", [INSTALLED, MODULE], ids=["installed", "module"])
def test_a_uuid_jsonl_that_is_not_a_transcript_is_refused_by_the_hook(
    kind: str, command: list[str], project: Path
) -> None:
    content, why = NOT_TRANSCRIPTS[kind]
    fake = claude_projects() / f"{SID}.jsonl"
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_bytes(content)
    done = run([*command, "SessionEnd"], end_payload(SID, fake, project), project)
    assert_refused(done, Store(project / "sessions"), why)


def test_a_payload_naming_another_sessions_transcript_is_refused(project: Path) -> None:
    transcript = write_transcript(claude_projects() / f"{OTHER}.jsonl", OTHER)
    done = run([*INSTALLED, "SessionEnd"], end_payload(SID, transcript, project), project)
    why = f"it is session {OTHER}'s transcript, not {SID}'s"
    assert_refused(done, Store(project / "sessions"), why)


def test_the_same_transcript_with_its_own_id_is_queued(project: Path) -> None:
    """The control: what the refusals above change is the file or the id, nothing else."""
    transcript = write_transcript(claude_projects() / f"{SID}.jsonl", SID)
    store = Store(project / "sessions")
    done = run([*INSTALLED, "SessionEnd"], end_payload(SID, transcript, project), project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert f"SessionEnd {SID} (other): queued, worker pid" in log_text(store)
    assert spool_entries() == [], "the hook removes its spool entry once the job is queued"
    pids = spawned_pids(store)
    wait_for(lambda: all(exited(pid) for pid in pids), 30, "the worker to exit")


def test_a_gemini_chat_file_of_another_session_is_refused(project: Path) -> None:
    chat = gemini_chat(project, age=None)
    data = json.loads(payload("gemini", "session-end-exit.json", project))
    data["session_id"] = OTHER
    stdin = json.dumps(data).encode()
    done = run([*MODULE, "SessionEnd", "--agent", "gemini"], stdin, project)
    why = f"{chat} refused: it is session {GEMINI_SID}'s transcript, not {OTHER}'s"
    assert_refused(done, Store(project / "sessions"), why)


def test_a_gemini_payload_without_an_id_takes_the_chat_files_own(project: Path) -> None:
    gemini_chat(project, age=None)
    data = json.loads(payload("gemini", "session-end-exit.json", project))
    del data["session_id"]
    store = Store(project / "sessions")
    done = run([*MODULE, "SessionEnd", "--agent", "gemini"], json.dumps(data).encode(), project)
    assert done.returncode == 0
    assert f"SessionEnd {GEMINI_SID} (exit, gemini): queued" in log_text(store)


def test_a_codex_rollout_of_another_session_is_refused(project: Path) -> None:
    rollout = codex_rollout(project, age=None)
    data = json.loads(payload("codex", "session-end-other.json", project))
    data["session_id"] = OTHER
    done = run([*MODULE, "SessionEnd", "--agent", "codex"], json.dumps(data).encode(), project)
    why = f"{rollout} refused: it is session {CODEX_SID}'s transcript, not {OTHER}'s"
    assert_refused(done, Store(project / "sessions"), why)


@pytest.mark.parametrize("command", [INSTALLED, MODULE], ids=["installed", "module"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_the_usage_and_touches_nothing(
    command: list[str], flag: str, project: Path
) -> None:
    done = run([*command, flag], b"", project)
    assert (done.returncode, done.stderr) == (0, b"")
    text = done.stdout.decode()
    assert text.startswith("usage: vaultkit-hook EVENT [--agent NAME] [--plugin]")
    for word in ("SessionEnd", "SessionStart", "UserPromptSubmit", "claude, codex, gemini"):
        assert word in text
    assert "stdin " in text and "exit code  always 0" in text
    assert spool_entries() == []
    assert not (project / "sessions" / ".vaultkit").exists()
