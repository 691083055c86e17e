"""Builders for SessionStart tests: stores holding notes written as the note writer does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml

from vaultkit.base.store import Store


def make_project(root: Path, branch: str = "main") -> Path:
    """A project folder with a ``.git/HEAD`` on ``branch`` and an empty store."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / ".git" / "HEAD").write_text(f"ref: refs/heads/{branch}\n", encoding="utf-8")
    for sub in ("summary", "wiki", "raw", ".vaultkit"):
        (root / "sessions" / sub).mkdir(parents=True, exist_ok=True)
    return root


def stem(day: int, hhmm: str, sid: str, title: str) -> str:
    return f"2026-11-{day:02d}_{hhmm}_{sid[:8]}_{title}"


def write_note(
    folder: Path,
    name: str,
    body: str,
    *,
    mtime: float | None = None,
    **meta: object,
) -> Path:
    """A note whose frontmatter is dumped by PyYAML, as the real note writer does."""
    folder.mkdir(parents=True, exist_ok=True)
    front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) if meta else ""
    text = f"---\n{front}---\n{body}" if meta else body
    path = folder / f"{name}.md"
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def add_session(
    project: Path,
    day: int,
    hhmm: str,
    sid: str,
    title: str,
    *,
    branch: str = "main",
    summary: str = "## Done\n- work\n",
    wiki: str | None = "# Notes\nSee [[Other]].\n",
    degraded: str = "",
    mtime: float | None = None,
) -> str:
    """A summary and wiki note pair for one session; returns the shared stem."""
    name = stem(day, hhmm, sid, title)
    meta: dict[str, object] = {
        "title": title,
        "date": f"2026-11-{day:02d}T{hhmm[:2]}:{hhmm[2:]}:00+00:00",
        "project": project.name,
        "type": "handoff-summary",
        "source": "claude-code",
        "session_id": sid,
        "git_branch": branch,
        "tags": ["session"],
        "auto_saved": True,
    }
    if degraded:
        meta.update(quality="degraded", degraded_reason=degraded, distill_retries=1)
    store = Store(project / "sessions")
    write_note(store.summary, name, summary, mtime=mtime, **meta)
    if wiki is not None:
        write_note(store.wiki, name, wiki, mtime=mtime, **{**meta, "type": "session-wiki"})
    return name


def write_index(project: Path, names: list[str]) -> None:
    lines = [f"- [[{n}]] — about {n[-12:]}" for n in names]
    text = "# Index\n\nHand-written intro.\n\n<!-- vaultkit:index:start (generated) -->\n"
    text += "\n".join(lines) + "\n<!-- vaultkit:index:end -->\n"
    (project / "sessions" / "wiki" / "INDEX.md").write_text(text, encoding="utf-8")


def transcript(path: Path, cwd: Path, *, mtime: float | None = None) -> Path:
    """A small Claude Code-like transcript whose lines record ``cwd``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        {"type": "summary", "summary": "x"},
        {"type": "user", "cwd": str(cwd), "sessionId": path.stem, "message": {"content": "hi"}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path
