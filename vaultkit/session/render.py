"""Readable Markdown rendering of a Claude Code transcript (SPEC §6, seed 004).

User messages verbatim, the assistant's visible text (code blocks included) merged per reply, in
order; no tool calls, tool results, thinking, attachments, harness tags or side chains, and none
of what the user marked ``<private>…</private>``. Streams the JSONL and writes the output as it
goes, so memory stays bounded on huge transcripts. Secrets are redacted like everywhere else in
the store.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from vaultkit.session.naming import short_id
from vaultkit.session.redact import redact, strip_private
from vaultkit.session.transcript import iter_records, strip_harness

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
LABELS = {
    "en": ("Conversation", "User", "Claude"),
    "ko": ("대화 기록", "나", "Claude"),
}


@dataclass(frozen=True, slots=True)
class Turn:
    """One rendered turn: who spoke and the Markdown text."""

    role: str  # "user" | "assistant"
    text: str


def _user_text(record: dict[str, Any]) -> str:
    if record.get("isMeta") or record.get("isCompactSummary") or "toolUseResult" in record:
        return ""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return strip_private(strip_harness(content)).strip()
    parts = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append(strip_harness(str(block.get("text", ""))))
        elif isinstance(block, dict) and block.get("type") == "image":
            parts.append("[image]")
    # Stripped from the whole message: an unclosed <private> hides the rest of it.
    return strip_private("\n\n".join(p for p in parts if p)).strip()


def _assistant_text(record: dict[str, Any]) -> str:
    message = record.get("message")
    if not isinstance(message, dict) or message.get("model") == "<synthetic>":
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content.strip()
    texts = [
        str(b.get("text", "")).strip()
        for b in (content if isinstance(content, list) else [])
        if isinstance(b, dict) and b.get("type") == "text"
    ]
    return "\n\n".join(t for t in texts if t)


def turns(transcript: Path) -> Iterator[Turn]:
    """The conversation's turns in order; consecutive assistant pieces form one turn."""
    pending: list[str] = []
    for record in iter_records(transcript):
        if record is None or record.get("isSidechain") is True:
            continue
        kind = record.get("type")
        if kind == "assistant":
            text = _assistant_text(record)
            if text:
                pending.append(text)
        elif kind == "user":
            text = _user_text(record)
            if not text:
                continue
            if pending:
                yield Turn("assistant", "\n\n".join(pending))
                pending = []
            yield Turn("user", text)
    if pending:
        yield Turn("assistant", "\n\n".join(pending))


def _first_stamp(transcript: Path) -> str:
    for record in iter_records(transcript):
        stamp = record.get("timestamp") if record else None
        if isinstance(stamp, str) and stamp:
            with contextlib.suppress(ValueError):
                return f"{datetime.fromisoformat(stamp).astimezone():%Y-%m-%d %H:%M}"
    return ""


def write_markdown(transcript: Path, out: IO[str], *, session_id: str = "") -> int:
    """Stream the rendering of ``transcript`` into ``out``; returns the number of turns."""
    count = 0
    labels = LABELS["en"]
    stamp = _first_stamp(transcript)
    for turn in turns(transcript):
        if count == 0:
            if turn.role == "user" and _HANGUL.search(turn.text[:2000]):
                labels = LABELS["ko"]
            title = f"# {labels[0]} — {stamp}" if stamp else f"# {labels[0]}"
            out.write(title + "\n")
            if session_id:
                out.write(f"\nsession: `{session_id}`\n")
        who = labels[1] if turn.role == "user" else labels[2]
        out.write(f"\n## {who}\n\n{redact(turn.text).rstrip()}\n")
        count += 1
    return count


def export(transcript: Path, target: Path, *, session_id: str = "") -> int:
    """Write the rendering to ``target`` atomically (mode 0600); returns the number of turns."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            count = write_markdown(transcript, handle, session_id=session_id)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return count


def default_name(session_id: str, when: datetime) -> str:
    """``YYYY-MM-DD_HHMM_<sid8>.md`` (local time), one file per session."""
    local = when.astimezone() if when.tzinfo is not None else when
    return f"{local:%Y-%m-%d_%H%M}_{short_id(session_id)}.md"


def target_for(folder: Path, session_id: str, when: datetime) -> Path:
    """The session's rendering in ``folder``: its existing file when there is one (a session that
    ended again is re-rendered in place), else a new :func:`default_name`."""
    suffix = f"_{short_id(session_id)}.md"
    with contextlib.suppress(OSError):
        existing = sorted(p for p in folder.iterdir() if p.name.endswith(suffix))
        if existing:
            return existing[-1]
    return folder / default_name(session_id, when)


def for_worker(store_transcripts: Path, raw: Path, session_id: str, when: datetime) -> Path:
    """The worker's step: (re)write the session's readable rendering next to the raw copies."""
    target = target_for(store_transcripts, session_id, when)
    export(raw, target, session_id=session_id)
    return target


def session_id_of(transcript: Path) -> str:
    """The ``sessionId`` the transcript's records carry, else the file's stem."""
    for record in iter_records(transcript):
        value = record.get("sessionId") if record else None
        if isinstance(value, str) and value.strip():
            return value.strip()
    return transcript.stem
