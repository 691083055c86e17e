"""Claude Code's window and transcript folders as a baton finds them (lean: stdlib only): the
agent process a command runs under (``/proc``), and ``projects/<encoded cwd>/<id>.jsonl``."""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

PROGRAM = "claude"  # the CLI's executable name, as ``/proc/<pid>/cmdline`` shows it


def _proc_argv(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read()
    except OSError:
        return []
    return [part.decode("utf-8", "replace") for part in raw.split(b"\0") if part]


def _proc_parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            stat = handle.read()
    except OSError:
        return 0
    fields = stat[stat.rfind(")") + 2 :].split()
    return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0


def _is_claude(argv: list[str]) -> bool:
    if any("vaultkit" in part for part in argv[:3]):
        return False
    heads = argv[:1] + [a for a in argv[1:2] if not a.startswith("-")]
    return any(PROGRAM in os.path.basename(part).lower() for part in heads)


def window_pid(start: int) -> int:
    """The nearest ancestor of process ``start`` that is Claude Code; 0 when unknown (``/proc``
    is read: Linux only)."""
    pid = _proc_parent(start)
    for _ in range(32):
        if pid <= 1:
            return 0
        if _is_claude(_proc_argv(pid)):
            return pid
        pid = _proc_parent(pid)
    return 0


def claude_projects(env: Mapping[str, str]) -> Path:
    """Where Claude Code keeps transcripts: ``$CLAUDE_CONFIG_DIR/projects`` or
    ``~/.claude/projects``."""
    from pathlib import Path

    config_dir = env.get("CLAUDE_CONFIG_DIR")
    base = Path(config_dir).expanduser() if config_dir else Path.home() / ".claude"
    return base / "projects"


def encode_cwd(cwd: Path) -> str:
    """Claude Code's folder name for a working directory (non-alphanumerics become ``-``)."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(cwd))


def session_transcript(project: Path, session_id: str, env: Mapping[str, str]) -> Path | None:
    """The transcript of ``session_id`` (any project folder), else the newest transcript of the
    current folder or its parents up to ``project``; None when there is none."""
    from pathlib import Path

    base = claude_projects(env)
    here = Path.cwd().resolve()
    folders = [here, *(p for p in here.parents if p == project or project in p.parents)]
    if project not in folders:
        folders.append(project)
    dirs = [base / encode_cwd(f) for f in folders]
    if session_id and re.fullmatch(r"[A-Za-z0-9-]{1,80}", session_id):
        for folder in dirs:
            if (folder / f"{session_id}.jsonl").is_file():
                return folder / f"{session_id}.jsonl"
        return next(iter(sorted(base.glob(f"*/{session_id}.jsonl"))), None)
    found = [p for folder in dirs for p in folder.glob("*.jsonl") if p.is_file()]
    return max(found, key=lambda p: p.stat().st_mtime, default=None)
