"""Shared helpers for the hook, worker and ingest tests: projects, transcripts, hook runs, fakes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from conftest import FIXTURES

from vaultkit.base.config import Config
from vaultkit.base.store import Store
from vaultkit.session.distill.pipeline import DistillOutcome, SessionInfo
from vaultkit.session.queue import jobs

FIXTURES = FIXTURES / "hooks"
FAKE_LLM = """\
import hashlib, re, sys
prompt = sys.stdin.read()
sid = re.search(r"[0-9a-f]{8}-[0-9a-f-]{27}", prompt)
tag = sid.group(0)[-6:] if sid else hashlib.sha1(prompt.encode()).hexdigest()[:6]
print("@@@TITLE@@@")
print(f"Parser work {tag}")
print("@@@HANDOFF@@@")
print("Done: parser.py edited. Next: run the tests.")
print("@@@WIKI@@@")
print("The parser now streams its input.")
"""

FAST_SETTLE = {"VAULTKIT_SETTLE_SECONDS": "0.1", "VAULTKIT_SETTLE_MAX_SECONDS": "5"}


def make_project(root: Path) -> Path:
    """A project folder that is a git root (so its store is ``<root>/sessions``)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)
    return root


def claude_projects(project: str = "-proj") -> Path:
    """Where Claude Code keeps a project's transcripts: ``~/.claude/projects/<project>/`` in this
    test's own HOME (conftest), the only place the hook and the worker archive from."""
    return Path(os.environ["HOME"]) / ".claude" / "projects" / project


def transcript_lines(session_id: str, turns: int) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    for n in range(turns):
        lines.append(
            {
                "type": "user",
                "sessionId": session_id,
                "gitBranch": "main",
                "cwd": "/tmp",
                "message": {"role": "user", "content": f"please change step {n} of the parser"},
            }
        )
        lines.append(
            {
                "type": "assistant",
                "sessionId": session_id,
                "message": {
                    "id": f"msg_{n}",
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"Step {n} is done: parser.py edited."}],
                },
            }
        )
    return lines


def write_transcript(path: Path, session_id: str, turns: int = 3) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(json.dumps(line) + "\n" for line in transcript_lines(session_id, turns))
    path.write_text(body, encoding="utf-8")
    return path


def payload_bytes(fixture: str, transcript: Path, cwd: Path) -> bytes:
    """A recorded payload with its ``{TRANSCRIPT}`` / ``{CWD}`` placeholders filled in."""
    raw = (FIXTURES / fixture).read_bytes()
    fill = {b"{TRANSCRIPT}": str(transcript), b"{CWD}": str(cwd)}
    for key, value in fill.items():
        raw = raw.replace(key, json.dumps(value)[1:-1].encode("utf-8"))
    return raw


def fixture_session_id(fixture: str) -> str:
    data = json.loads((FIXTURES / fixture).read_bytes().decode("utf-8", errors="replace"))
    return str(data["session_id"])


def hook_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VAULTKIT_CHILD", "CLAUDE_WIKI_CHILD")}
    env.update(FAST_SETTLE)
    env.update(extra)
    return env


def run_hook(
    event: str, stdin: bytes, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit.hookentry", event],
        input=stdin,
        cwd=cwd,
        env=env or hook_env(),
        capture_output=True,
        timeout=30,
        check=False,
    )


def queued(store: Store) -> list[jobs.Job]:
    return [job for _, job in jobs.list_jobs(store)]


def wait_for(condition: Any, timeout: float = 30.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def log_text(store: Store) -> str:
    try:
        return store.log.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def fake_distill(store: Store, info: SessionInfo, config: Config) -> DistillOutcome:
    """Stand-in for the LLM distiller: one summary and one wiki note per session, no LLM."""
    sid = str(info.session_id)
    text = Path(info.transcript).read_text(encoding="utf-8")
    stamp = "2026-11-30"
    summary = store.summary / f"{stamp}_{sid}_summary.md"
    wiki = store.wiki / f"Session {sid}.md"
    front = f"---\ntitle: Session {sid}\ndate: {stamp}\nsession_id: {sid}\n"
    summary.parent.mkdir(parents=True, exist_ok=True)
    wiki.parent.mkdir(parents=True, exist_ok=True)
    summary.write_text(front + "type: handoff-summary\n---\n" + f"{len(text)} chars\n", "utf-8")
    wiki.write_text(front + "type: session-wiki\n---\n" + f"Notes of {sid}.\n", "utf-8")
    return DistillOutcome(f"Session {sid}", summary, wiki, "ok", None, 0)


def exited(pid: int) -> bool:
    """True when ``pid`` has exited (a zombie waiting for init to reap it counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return not jobs.pid_alive(pid)
    return state in ("Z", "X")


def spawned_pids(store: Store) -> list[int]:
    """Pids of the workers that SessionEnd hooks logged as started."""
    return [int(m) for m in re.findall(r"worker pid (\d+)", log_text(store))]


def configure_command_backend(store: Store, tmp_path: Path, extra: str = "") -> Path:
    """Make the store distil with the ``command`` backend running ``FAKE_LLM`` (no real LLM)."""
    script = tmp_path / "fake_llm.py"
    script.write_text(FAKE_LLM)
    command = json.dumps([sys.executable, str(script)])
    store.root.mkdir(parents=True, exist_ok=True)
    store.config_file.write_text(f'[distill]\nbackend = "command"\ncommand = {command}\n{extra}')
    return script
