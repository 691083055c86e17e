"""Readable Markdown rendering of an agent's transcript (README, "The session store").

User messages verbatim, the assistant's visible text (code blocks included) merged per reply, in
order; no tool calls, tool results, thinking, attachments, harness tags, injected context or side
chains (the agent's reader, :mod:`vaultkit.agents.readers`, drops those), and none of what the
user marked ``<private>…</private>``. Streams the transcript and writes the output as it goes,
so memory stays bounded on huge transcripts. Secrets are redacted like everywhere else in the
store.
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
from typing import IO

from vaultkit.agents import known, readers
from vaultkit.agents.adapter import ASSISTANT, USER
from vaultkit.session.notes.naming import short_id
from vaultkit.session.queue.jobs import safe_id
from vaultkit.session.transcripts.condense import iter_records
from vaultkit.session.transcripts.redact import redact, strip_private
from vaultkit.session.transcripts.renderings import renderings_of

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
TITLES = {"en": ("Conversation", "User"), "ko": ("대화 기록", "나")}


@dataclass(frozen=True, slots=True)
class Turn:
    """One rendered turn: who spoke and the Markdown text."""

    role: str  # "user" | "assistant"
    text: str


def speaker(agent: str) -> str:
    """The assistant's heading: the first word of the agent's name (``Claude``, ``Codex``)."""
    return known.get(agent).display.split()[0]


def turns(transcript: Path, agent: str = known.DEFAULT) -> Iterator[Turn]:
    """The conversation's turns in order; consecutive assistant pieces form one turn."""
    pending: list[str] = []
    for entry in readers.read(transcript, agent):
        if entry.kind == ASSISTANT:
            # Stripped piece by piece, as the condensed prompt and a redacted raw copy are.
            text = strip_private(entry.text).strip()
            if text:
                pending.append(text)
        elif entry.kind == USER:
            # Stripped from the whole message: an unclosed <private> hides the rest of it.
            text = strip_private(entry.text).strip()
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


def write_markdown(
    transcript: Path, out: IO[str], *, session_id: str = "", agent: str = known.DEFAULT
) -> int:
    """Stream the rendering of ``agent``'s ``transcript`` into ``out``; returns the number of
    turns."""
    count = 0
    labels = (*TITLES["en"], speaker(agent))
    stamp = _first_stamp(transcript)
    for turn in turns(transcript, agent):
        if count == 0:
            if turn.role == "user" and _HANGUL.search(turn.text[:2000]):
                labels = (*TITLES["ko"], labels[2])
            title = f"# {labels[0]} — {stamp}" if stamp else f"# {labels[0]}"
            out.write(title + "\n")
            if session_id:
                out.write(f"\nsession: `{session_id}`\n")
        who = labels[1] if turn.role == "user" else labels[2]
        out.write(f"\n## {who}\n\n{redact(turn.text).rstrip()}\n")
        count += 1
    return count


def export(
    transcript: Path, target: Path, *, session_id: str = "", agent: str = known.DEFAULT
) -> int:
    """Write the rendering to ``target`` atomically (mode 0600); returns the number of turns."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            count = write_markdown(transcript, handle, session_id=session_id, agent=agent)
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
    ended again is re-rendered in place), else a new :func:`default_name` (with the whole id
    added when another session's file already has that name)."""
    existing = renderings_of(folder, session_id)
    if existing:
        return existing[-1]
    target = folder / default_name(session_id, when)
    return (
        target
        if not target.exists()
        else target.with_name(f"{target.stem}_{safe_id(session_id)}.md")
    )


def for_worker(
    store_transcripts: Path,
    raw: Path,
    session_id: str,
    when: datetime,
    agent: str = known.DEFAULT,
) -> Path:
    """The worker's step: (re)write the session's readable rendering next to the raw copies."""
    target = target_for(store_transcripts, session_id, when)
    export(raw, target, session_id=session_id, agent=agent)
    return target


def session_id_of(transcript: Path, agent: str = known.DEFAULT) -> str:
    """The session id ``agent``'s transcript records, else the file's stem."""
    return readers.session_id(transcript, agent) or transcript.stem
