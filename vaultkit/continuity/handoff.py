"""Save a handoff the agent wrote (the resume contract) as a summary note, ``auto_saved: false``."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from vaultkit.base.author import current_author
from vaultkit.base.config import Config
from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.store import Store, current_branch
from vaultkit.continuity import activity
from vaultkit.session.notes.naming import safe_title, stamp
from vaultkit.session.notes.write import NoteMeta, frontmatter, render_note
from vaultkit.session.transcripts.redact import redact

CONTRACT = ("Current state", "Key decisions", "Modified files", "Open issues", "Next tasks")
CONTRACT_KO = ("현재 상태", "주요 결정사항", "수정된 파일", "미해결 이슈", "다음 작업")


@dataclass(frozen=True, slots=True)
class SavedHandoff:
    """Where the handoff was written and which resume-contract sections it lacks."""

    path: Path
    missing: tuple[str, ...]


def split_heading(text: str) -> tuple[str, str]:
    """A leading ``# Title`` line and the rest (``""`` when there is no such line)."""
    lines = text.strip().splitlines()
    if lines and lines[0].startswith("# "):
        return lines[0][2:].strip(), "\n".join(lines[1:]).strip()
    return "", text.strip()


def missing_sections(body: str) -> list[str]:
    """The resume-contract sections (English or Korean headings) the body has no heading for."""
    heads = {line.lstrip("#").strip().lower() for line in body.splitlines() if line.startswith("#")}
    found = [
        en
        for en, ko in zip(CONTRACT, CONTRACT_KO, strict=True)
        if any(h.startswith((en.lower(), ko)) for h in heads)
    ]
    return [name for name in CONTRACT if name not in found]


def save_handoff(
    store: Store, text: str, *, session_id: str, title: str, config: Config
) -> SavedHandoff:
    """Write ``text`` (secrets redacted) to ``summary/`` as the agent's own handoff."""
    heading, body = split_heading(redact(text))
    name_title = title.strip() or heading or f"Handoff: {store.project.name}"
    now = datetime.now().astimezone()
    meta = NoteMeta(
        session_id=session_id,
        project=store.project.name,
        ended_at=now,
        source="agent",
        git_branch=current_branch(store.project) or None,
        auto_saved=False,
        author=current_author(str(store.project)),
    )
    data = frontmatter(meta, name_title, "handoff-summary", ["session", "handoff", "manual"])
    token = re.sub(r"[^A-Za-z0-9]", "", session_id)[:6] or f"{int(time.time()) % 10**6:06d}"
    stem = f"{stamp(now)}_m-{token}_{safe_title(name_title, max_bytes=100)}"
    path = store.summary / f"{stem}.md"
    if config.activity.enabled:  # logged first: the save itself is not "activity since"
        activity.append(store, f"agent: handoff saved {path.name}", now=now)
    atomic_write_text(path, render_note(data, name_title, body))
    return SavedHandoff(path, tuple(missing_sections(body)))
