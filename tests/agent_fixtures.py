"""The real Codex and Gemini fixtures, placed where each CLI keeps them in a test's own HOME."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CODEX_SID = "01a23083-4503-71f2-8ceb-9ded42e56aa1"
GEMINI_SID = "115dd1e7-9b20-4147-9888-2ec4921a4de4"
ROLLOUT = f"rollout-2026-12-01T07-30-38-{CODEX_SID}.jsonl"
CHAT = "session-2026-12-01T07-36-115dd1e7.jsonl"
STUB = "session-2026-12-01T07-37-115dd1e7.jsonl"
OLD = 3600.0  # seconds: silent long enough to count as finished


def home() -> Path:
    return Path(os.environ["HOME"])


def fill(text: str, cwd: Path) -> str:
    """A fixture's ``{HOME}`` and ``{CWD}`` placeholders filled in (JSON-escaped)."""
    for key, value in (("{HOME}", str(home())), ("{CWD}", str(cwd))):
        text = text.replace(key, json.dumps(value)[1:-1])
    return text


def payload(agent: str, name: str, cwd: Path) -> bytes:
    """A recorded hook payload of ``agent`` for a project at ``cwd``."""
    raw = (FIXTURES / "hooks" / agent / name).read_text(encoding="utf-8")
    return fill(raw, cwd).encode("utf-8")


def _place(source: Path, target: Path, cwd: Path, age: float | None) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(fill(source.read_text(encoding="utf-8"), cwd), encoding="utf-8")
    if age is not None:
        stamp = time.time() - age
        os.utime(target, (stamp, stamp))
    return target


def day_folder(when: float | None = None) -> str:
    return time.strftime("%Y/%m/%d", time.localtime(time.time() if when is None else when))


def codex_rollout(
    cwd: Path,
    *,
    age: float | None = OLD,
    day: str = "2026/12/01",
    session_id: str = CODEX_SID,
) -> Path:
    """The real rollout under ``~/.codex/sessions/<day>/``, its ``cwd`` set to ``cwd``."""
    name = ROLLOUT.replace(CODEX_SID, session_id)
    target = home() / ".codex" / "sessions" / day / name
    path = _place(FIXTURES / "codex" / "rollout.jsonl", target, cwd, None)
    if session_id != CODEX_SID:
        path.write_text(path.read_text(encoding="utf-8").replace(CODEX_SID, session_id))
    if age is not None:
        stamp = time.time() - age
        os.utime(path, (stamp, stamp))
    return path


def gemini_chat(
    cwd: Path, *, age: float | None = OLD, name: str = CHAT, source: str = "chat.jsonl"
) -> Path:
    """A real chat file under ``~/.gemini/tmp/project/chats/``."""
    target = home() / ".gemini" / "tmp" / "project" / "chats" / name
    return _place(FIXTURES / "gemini" / source, target, cwd, age)


def register_gemini_project(cwd: Path, name: str = "project") -> Path:
    """``~/.gemini/projects.json`` mapping ``cwd`` to ``name``, as Gemini CLI writes it."""
    path = home() / ".gemini" / "projects.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {"projects": {}}
    data["projects"][str(cwd)] = name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path
