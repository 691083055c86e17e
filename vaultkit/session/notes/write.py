"""Write a session's summary and wiki notes: YAML frontmatter, safe names, atomic replacement.

Notes are written and read back with python-frontmatter (its YAML handler, PyYAML's pure-Python
SafeDumper with the options below, so the bytes are those of ``yaml.safe_dump``).

Re-distilling a session replaces its earlier notes (found by the session id in the file name,
confirmed by frontmatter), so one session never has two summaries or two wiki notes.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import frontmatter as python_frontmatter
import yaml
from frontmatter.default_handlers import YAMLHandler

from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.store import Store, read_problem
from vaultkit.session.notes.naming import (
    UNTITLED,
    heading_text,
    inert_title,
    names_session,
    note_stem,
    parse_name,
)
from vaultkit.session.notes.shape import one_h1
from vaultkit.session.transcripts.redact import redact

FRONTMATTER_READ_BYTES = 64 * 1024
_YAML = YAMLHandler()
# yaml.safe_dump's serializer, in the key order given, never folding a long title.
_DUMP_OPTIONS: dict[str, object] = {"Dumper": yaml.SafeDumper, "sort_keys": False, "width": 1000}


@dataclass(frozen=True, slots=True)
class NoteMeta:
    """Facts shared by a session's two notes."""

    session_id: str
    project: str
    ended_at: datetime
    source: str  # the raw copy, store-relative POSIX path
    git_branch: str | None
    auto_saved: bool = True
    quality: str = "ok"  # "ok" | "degraded"
    degraded_reason: str | None = None
    retries: int = 0
    agent: str = ""  # whose session (vaultkit.agents.known.AGENTS); "" when not known
    author: str = ""  # who wrote it (vaultkit.base.author.current_author); "" when not known
    unresolved_links: tuple[str, ...] = ()  # the answer's links to no note (notes.links)


def frontmatter(meta: NoteMeta, title: str, kind: str, tags: list[str]) -> dict[str, Any]:
    """The frontmatter mapping (README, "The session store") in a stable key order."""
    data: dict[str, Any] = {
        "title": title,
        "date": meta.ended_at.isoformat(timespec="seconds"),
        "project": meta.project,
        "type": kind,
        "source": meta.source,
        "session_id": meta.session_id,
        "agent": meta.agent,
        "author": meta.author,
        "git_branch": meta.git_branch,
        "tags": tags,
        "auto_saved": meta.auto_saved,
    }
    if not meta.agent:  # a handoff saved by hand: which agent asked is not known
        del data["agent"]
    if not meta.author:  # notes written before authorship was recorded, or by a test
        del data["author"]
    if meta.quality == "degraded":
        data["quality"] = "degraded"
        data["degraded_reason"] = meta.degraded_reason or "unknown"
        data["distill_retries"] = meta.retries
    if meta.unresolved_links:
        data["unresolved_links"] = list(meta.unresolved_links)
    return data


def render_note(data: dict[str, Any], title: str, body: str) -> str:
    """Frontmatter + ``# title`` (escaped: :func:`heading_text`) + body (without NUL, which
    would make the note binary), as python-frontmatter serialises a post."""
    text = one_h1(body.replace("\0", "").strip(), title).strip()
    post = python_frontmatter.Post(f"# {heading_text(title) or UNTITLED}\n\n{text}")
    post.metadata.update(data)  # not as keywords: a key may not clash with Post's parameters
    return python_frontmatter.dumps(post, _YAML, **_DUMP_OPTIONS) + "\n"


def read_frontmatter(path: Path) -> dict[str, Any]:
    """The frontmatter mapping of a note, or ``{}`` when absent, unreadable or invalid."""
    try:
        with path.open("rb") as handle:
            head = handle.read(FRONTMATTER_READ_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return {}
    head = head.replace("\r\n", "\n")
    if not head.startswith("---\n"):  # a fence on the first line, as Obsidian requires
        return {}
    try:
        data, _ = python_frontmatter.parse(head, handler=_YAML)
    except yaml.YAMLError:
        return {}
    return data


def _belongs_to(path: Path, session_id: str) -> bool:
    name = parse_name(path.name)
    if name is None:
        return False
    if name.seed:
        return name.session == session_id
    if not names_session(name.session, session_id):
        return False
    recorded = read_frontmatter(path).get("session_id")
    return recorded is None or str(recorded) == session_id


def find_session_notes(folder: Path, session_id: str, store: Store | None = None) -> list[Path]:
    """Notes directly in ``folder`` that belong to ``session_id``; with ``store``, links the
    store may not follow are neither read nor returned (``read_problem``)."""
    if store is not None and read_problem(store, folder):
        return []
    try:
        candidates = sorted(p for p in folder.iterdir() if p.suffix == ".md" and p.is_file())
    except OSError:
        return []
    if store is not None:
        candidates = [p for p in candidates if not (p.is_symlink() and read_problem(store, p))]
    return [p for p in candidates if _belongs_to(p, session_id)]


def _held_by_another(store: Store, stem: str, session_id: str) -> bool:
    """A note named ``stem`` exists and records another session (the same minute, title and
    short id: time-ordered ids share their first 8 characters)."""
    for folder in (store.summary, store.summary_archive, store.wiki):
        path = folder / f"{stem}.md"
        if path.is_symlink():  # a teammate's link is never read, and never written through
            return True
        if path.is_file():
            recorded = read_frontmatter(path).get("session_id")
            if recorded is not None and str(recorded) != session_id:
                return True
    return False


def _inert_meta(meta: NoteMeta) -> NoteMeta:
    """The project and branch (from folder names and the transcript) made inert like titles."""
    branch = None if meta.git_branch is None else inert_title(meta.git_branch) or None
    return replace(meta, project=inert_title(meta.project) or meta.project, git_branch=branch)


def write_session_notes(
    store: Store, meta: NoteMeta, title: str, handoff: str, wiki: str
) -> tuple[Path, Path]:
    """Write (or replace) the session's summary and wiki note; return their paths."""
    title = inert_title(redact(title)) or UNTITLED
    meta = _inert_meta(meta)
    stem = note_stem(meta.ended_at, meta.session_id, title)
    if _held_by_another(store, stem, meta.session_id):
        stem = note_stem(meta.ended_at, meta.session_id, title, long=True)
    summary_path = store.summary / f"{stem}.md"
    wiki_path = store.wiki / f"{stem}.md"
    old = [
        *find_session_notes(store.summary, meta.session_id),
        *find_session_notes(store.summary_archive, meta.session_id),
        *find_session_notes(store.wiki, meta.session_id),
    ]
    summary_fm = frontmatter(meta, title, "handoff-summary", ["session", "handoff"])
    wiki_fm = frontmatter(meta, title, "session-wiki", ["session", "wiki"])
    atomic_write_text(summary_path, render_note(summary_fm, title, redact(handoff)))
    atomic_write_text(wiki_path, render_note(wiki_fm, title, redact(wiki)))
    for path in old:
        if path not in (summary_path, wiki_path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
    return summary_path, wiki_path
