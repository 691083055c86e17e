"""Hook payloads: stdin decoded defensively, the common fields, the guard, the payload's folder."""

from __future__ import annotations

import os

from vaultkit.agents import known
from vaultkit.base import leanjson, spool
from vaultkit.base.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SESSION_END_REASONS = frozenset(
    {"clear", "resume", "logout", "prompt_input_exit", "bypass_permissions_disabled", "other"}
)
SESSION_START_SOURCES = frozenset({"startup", "resume", "clear", "compact", "fork"})

Payload = dict[str, object]


def guarded(env: Mapping[str, str]) -> bool:
    """True when this process was started by vaultkit itself (or the seed), so hooks must no-op."""
    return spool.guarded(env)


def decode_payload(raw: bytes) -> tuple[Payload, str | None]:
    """Parse hook stdin: UTF-8 bytes (never the locale's code page) holding one JSON object.

    Returns the object (empty when unusable) and a problem description, or ``None`` when fine.
    """
    text = raw.decode("utf-8", errors="replace").lstrip("\ufeff").strip()
    if not text:
        return {}, "empty stdin"
    try:
        data = leanjson.loads(text)
    except ValueError as exc:
        return {}, f"stdin is not JSON ({exc})"
    if not isinstance(data, dict):
        return {}, f"stdin JSON is a {type(data).__name__}, not an object"
    return data, None


def _text(payload: Mapping[str, object], key: str) -> str:
    value = payload.get(key)
    return value.strip() if isinstance(value, str) else ""


class HookFields(Record):
    """The common payload fields, each ``""`` when missing or not a string."""

    session_id: str
    transcript_path: str
    cwd: str
    hook_event_name: str
    reason: str
    source: str

    @classmethod
    def of(cls, payload: Payload) -> HookFields:
        return cls(
            session_id=_text(payload, "session_id"),
            transcript_path=_text(payload, "transcript_path"),
            cwd=_text(payload, "cwd"),
            hook_event_name=_text(payload, "hook_event_name"),
            reason=_text(payload, "reason"),
            source=_text(payload, "source"),
        )

    @property
    def end_reason(self) -> str:
        """``reason`` with unknown or missing values read as ``"other"``."""
        return self.reason if self.reason in SESSION_END_REASONS else "other"

    @property
    def start_source(self) -> str:
        """``source`` with unknown or missing values read as ``"startup"``."""
        return self.source if self.source in SESSION_START_SOURCES else "startup"


def payload_cwd(payload: Mapping[str, object]) -> str:
    """The payload's ``cwd`` when it is an existing folder, else the process's working folder."""
    cwd = _text(payload, "cwd")
    return cwd if cwd and os.path.isdir(cwd) else os.getcwd()


def agent_for(flag: str | None, payload: Payload, env: Mapping[str, str]) -> str | None:
    """The agent a hook runs for: ``flag`` (its ``--agent``) when it names one (``None`` when it
    names none), else the owner of the payload's transcript, else Claude Code."""
    if flag is not None:
        return flag if flag in known.AGENTS else None
    fields = HookFields.of(payload)
    if not fields.transcript_path:
        return known.DEFAULT
    path = os.path.join(fields.cwd or os.getcwd(), fields.transcript_path)
    return known.owner(path, env) or known.DEFAULT
