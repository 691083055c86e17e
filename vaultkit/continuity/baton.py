"""The explicit baton (README, "Continuity"): an in-flight memo the next session inherits, once.

``vaultkit baton`` (run by the agent through an installed slash command) drops a baton: the
session, the time, the memo and the last turn's thinking. The next session of the project that
starts within the lifetime takes it — whatever ``source`` it reports — by renaming the file, so
exactly one session inherits it. A baton dropped by an agent process that is still running is
left for that process (``/clear`` in the same window), so a parallel window never steals it.
Lean (stdlib only): the SessionStart hook takes batons.
"""

from __future__ import annotations

import json
import os

from vaultkit.agents.claude.window import window_pid
from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.record import Record
from vaultkit.base.store import Store
from vaultkit.session.queue.jobs import pid_alive, safe_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from datetime import datetime, timedelta
    from pathlib import Path
    from typing import Any

FOLDER = "batons"
TAKEN = "taken"
EXPIRED = "expired"
MIN_REST = 600  # characters kept for the usual injection after the baton, when it fits

LABELS = {
    "en": {
        "title": "## vaultkit: baton from the previous session (work in flight)",
        "intro": "Session {sid} left this baton at {when}; this session inherits it and is the "
        "only one that does.",
        "memo": "### In-flight memo",
        "thinking": "### Thinking in the last turn of that session",
        "trimmed": "… (trimmed)",
    },
    "ko": {
        "title": "## vaultkit: 이전 세션의 바톤 (진행 중이던 작업)",
        "intro": "세션 {sid}이(가) {when}에 이 바톤을 남겼고, 이 세션만 이어받습니다.",
        "memo": "### 인플라이트 메모",
        "thinking": "### 그 세션 마지막 턴의 사고 과정",
        "trimmed": "… (잘림)",
    },
}


class Baton(Record):
    """One baton as stored in ``sessions/.vaultkit/batons/<stamp>_<session>.json``."""

    session_id: str
    created_at: str  # ISO-8601 with offset
    memo: str
    thinking: str = ""
    agent_pid: int = 0  # the agent process that dropped it (0: unknown)
    transcript_path: str = ""
    taken_by: str = ""
    taken_at: str = ""

    @property
    def created(self) -> datetime:
        from datetime import datetime

        value = datetime.fromisoformat(self.created_at)
        return value if value.tzinfo is not None else value.astimezone()


def folder(store: Store) -> Path:
    return store.state / FOLDER


def _now() -> datetime:
    from datetime import datetime

    return datetime.now().astimezone()


# --- the agent process ------------------------------------------------------------------------


def agent_pid(start: int | None = None) -> int:
    """The nearest ancestor process that is the agent (Claude Code); 0 when unknown.

    Reads ``/proc`` (Linux); elsewhere it returns 0 and batons are not tied to a window.
    """
    return window_pid(start if start is not None else os.getpid())


# --- thinking of the last turn ----------------------------------------------------------------


def _is_prompt(record: dict[str, Any]) -> bool:
    from vaultkit.agents.claude.reader import strip_harness  # batons read Claude Code's

    if record.get("type") != "user" or record.get("isMeta") or "toolUseResult" in record:
        return False
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return bool(strip_harness(content))
    if isinstance(content, list):
        return any(isinstance(b, dict) and b.get("type") == "text" for b in content)
    return False


def _is_command(record: dict[str, Any]) -> bool:
    """A prompt that invoked a slash command (such as /handoff itself)."""
    message = record.get("message")
    return "<command-name>" in json.dumps(message, ensure_ascii=False)[:4096]


def _thinking_blocks(record: dict[str, Any]) -> Iterator[str]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "thinking":
            text = block.get("thinking")
            if isinstance(text, str) and text.strip():
                yield text.strip()


def last_thinking(transcript: Path, limit: int) -> str:
    """The thinking blocks of the last turn that had any (streamed; the tail of ``limit``).

    The turn of a slash command (``/handoff`` writing the memo) counts only when no earlier turn
    had thinking: the work in flight is in the turn before it.
    """
    from vaultkit.session.transcripts.condense import iter_records  # only when a baton is dropped

    current: list[str] = []
    last: list[str] = []
    command_turn = False
    try:
        for record in iter_records(transcript):
            if record is None or record.get("isSidechain") is True:
                continue
            if _is_prompt(record):
                if current and not command_turn:
                    last = current
                current, command_turn = [], _is_command(record)
            elif record.get("type") == "assistant":
                current.extend(_thinking_blocks(record))
    except OSError:
        return ""
    chosen = last if (command_turn and last) or not current else current
    text = "\n\n".join(chosen)
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


# --- dropping and taking ----------------------------------------------------------------------


def _write(path: Path, baton: Baton) -> None:
    atomic_write_text(path, json.dumps(baton.as_dict(), ensure_ascii=False, indent=1) + "\n")


def read(path: Path) -> Baton | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        baton = Baton(**data) if isinstance(data, dict) else None
        if baton is not None:
            baton.created  # noqa: B018  (validates the timestamp)
    except (OSError, ValueError, TypeError):
        return None
    return baton


def drop(
    store: Store,
    memo: str,
    *,
    session_id: str,
    transcript: Path | None = None,
    thinking_chars: int = 3_000,
    pid: int = 0,
    now: datetime | None = None,
) -> tuple[Path, Baton]:
    """Write a baton; returns its path and value."""
    when = (now or _now()).astimezone()
    thinking = last_thinking(transcript, thinking_chars) if transcript is not None else ""
    if thinking:
        from vaultkit.session.transcripts.redact import redact  # the baton is injected later

        thinking = redact(thinking)
    baton = Baton(
        session_id=session_id,
        created_at=when.isoformat(timespec="seconds"),
        memo=memo.strip(),
        thinking=thinking,
        agent_pid=pid,
        transcript_path=str(transcript or ""),
    )
    path = folder(store) / f"{when:%Y%m%d-%H%M%S}_{safe_id(session_id or 'unknown')}.json"
    _write(path, baton)
    return path, baton


def _names(store: Store) -> list[str]:
    try:
        with os.scandir(os.path.join(store.at("state"), FOLDER)) as found:
            return [e.name for e in found if e.name.endswith(".json") and e.is_file()]
    except OSError:
        return []


def has_pending(store: Store) -> bool:
    """Whether any baton file is waiting (cheap: one folder listing, nothing parsed)."""
    return bool(_names(store))


def pending(store: Store) -> list[tuple[Path, Baton]]:
    """Batons not yet taken, newest first (expired ones included)."""
    try:
        paths = [p for p in folder(store).iterdir() if p.suffix == ".json" and p.is_file()]
    except OSError:
        return []
    found = [(p, b) for p in paths if (b := read(p)) is not None]
    return sorted(found, key=lambda pb: (pb[1].created, pb[0].name), reverse=True)


def eligible(baton: Baton, session_id: str, starter_pid: int) -> bool:
    """Whether a starting session may take ``baton``: never its own, never a live other window's."""
    if session_id and baton.session_id == session_id:
        return False
    if not baton.agent_pid or not starter_pid or baton.agent_pid == starter_pid:
        return True
    return not pid_alive(baton.agent_pid)


def _retire(path: Path, into: str) -> Path | None:
    """Move a baton into a subfolder atomically; None when another process moved it first."""
    target = path.parent / into / path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.rename(path, target)
    except FileNotFoundError:
        return None
    return target


def take(
    store: Store,
    session_id: str,
    *,
    lifetime: timedelta,
    starter_pid: int = 0,
    now: datetime | None = None,
) -> Baton | None:
    """Consume the newest live baton this session may take; None when there is none."""
    when = (now or _now()).astimezone()
    for path, baton in pending(store):
        if when - baton.created > lifetime:
            _retire(path, EXPIRED)
            continue
        if not eligible(baton, session_id, starter_pid):
            continue
        moved = _retire(path, TAKEN)
        if moved is None:
            continue  # another session took it a moment ago
        taken = baton.replace(taken_by=session_id, taken_at=when.isoformat(timespec="seconds"))
        try:  # noqa: SIM105  (contextlib would cost the SessionStart hook an import)
            _write(moved, taken)
        except OSError:
            pass
        return taken
    return None


# --- the injection ----------------------------------------------------------------------------


def _labels(baton: Baton) -> dict[str, str]:
    sample = baton.memo[:2000]
    korean = any("\uac00" <= ch <= "\ud7a3" for ch in sample)
    return LABELS["ko" if korean else "en"]


def _cut(text: str, room: int, marker: str) -> str:
    text = text.strip()
    if len(text) <= room:
        return text
    keep = max(0, room - len(marker) - 1)
    cut = text[:keep]
    newline = cut.rfind("\n")
    if newline > keep // 2:
        cut = cut[:newline]
    return f"{cut.rstrip()}\n{marker}"


def render(baton: Baton, rest: str, budget: int) -> str:
    """The injection: baton header, memo, thinking, then ``rest`` (the usual text), in ``budget``.

    The memo comes first and is trimmed last; the usual text gives way first.
    """
    labels = _labels(baton)
    when = baton.created.strftime("%Y-%m-%d %H:%M")
    head = f"{labels['title']}\n{labels['intro'].format(sid=baton.session_id[:8], when=when)}"
    memo_room = max(200, budget - len(head) - len(labels["memo"]) - 4)
    parts = [head, f"{labels['memo']}\n{_cut(baton.memo, memo_room, labels['trimmed'])}"]
    used = len("\n\n".join(parts))
    thinking_room = budget - used - len(labels["thinking"]) - 3
    if rest.strip():
        thinking_room -= min(MIN_REST, len(rest))
    if baton.thinking and thinking_room > 200:
        parts.append(f"{labels['thinking']}\n{_cut(baton.thinking, thinking_room, '…')}")
    text = "\n\n".join(parts)
    rest_room = budget - len(text) - 2
    if rest.strip() and rest_room > 200:
        text += "\n\n" + _cut(rest, rest_room, labels["trimmed"])
    return text[:budget]
