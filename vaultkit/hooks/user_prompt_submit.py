"""UserPromptSubmit: one activity-log line per prompt, and the context-pressure warning.

The warning reads the last reported token usage from the end of the transcript (a bounded read
from the tail, never the whole file) and, once the context passes the configured share of the
model's window, adds one line suggesting a handoff — at most once per threshold per session.
Lean (stdlib only); never fails the prompt.
"""

from __future__ import annotations

import json
import os

from vaultkit.base.config import Config, store_config
from vaultkit.base.fsio import atomic_write_text
from vaultkit.continuity import activity
from vaultkit.errors import VaultkitError
from vaultkit.hooks import common
from vaultkit.session.queue.jobs import safe_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from vaultkit.base.store import Store

TAIL_STEPS = (64 * 1024, 1024 * 1024, 8 * 1024 * 1024)
USAGE_KEYS = (
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
)
PROMPT_CHARS = 200


def _usage_of(line: bytes) -> int | None:
    if b'"usage"' not in line or b'"assistant"' not in line:
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("type") != "assistant":
        return None
    if record.get("isSidechain") is True:
        return None
    message = record.get("message")
    if not isinstance(message, dict) or message.get("model") == "<synthetic>":
        return None
    usage = message.get("usage")
    if not isinstance(usage, dict):
        return None
    values = [usage.get(k) for k in USAGE_KEYS]
    total = sum(v for v in values if isinstance(v, int) and not isinstance(v, bool))
    return total if total > 0 else None


def last_usage(transcript: str | os.PathLike[str]) -> int | None:
    """Tokens in context at the last assistant reply (input + cache + output), from the tail."""
    try:
        size = os.stat(transcript).st_size
        with open(transcript, "rb") as handle:
            for step in TAIL_STEPS:
                start = max(0, size - step)
                handle.seek(start)
                lines = handle.read(size - start).split(b"\n")
                if start > 0:
                    lines = lines[1:]  # the first piece may be a partial line
                for line in reversed(lines):
                    found = _usage_of(line)
                    if found is not None:
                        return found
                if start == 0:
                    return None
    except OSError:
        return None
    return None


def _state_path(store: Store, session_id: str) -> str:
    return os.path.join(store.at("state"), "pressure", f"{safe_id(session_id)}.json")


def _warned(path: str) -> list[int]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return []
    values = data.get("warned") if isinstance(data, dict) else None
    return [v for v in values if isinstance(v, int)] if isinstance(values, list) else []


def warning(tokens: int, config: Config) -> str:
    """The one line the agent (and the user) get."""
    window = max(1, config.pressure.window)
    share = round(100 * tokens / window)
    return (
        f"vaultkit: this session's context holds about {tokens:,} tokens, {share}% of the "
        f"{window:,}-token window (warning threshold {config.pressure.threshold}%). A handoff now "
        f"keeps the work in flight: /{config.baton.command} leaves a baton for the next session "
        f"and /{config.resume.command} writes a handoff note."
    )


def pressure(store: Store, config: Config, fields: common.HookFields) -> str | None:
    """The warning line when the context passed the threshold for the first time this session."""
    settings = config.pressure
    if not settings.enabled or not fields.transcript_path or not fields.session_id:
        return None
    tokens = last_usage(fields.transcript_path)
    if tokens is None or 100 * tokens < settings.threshold * max(1, settings.window):
        return None
    state = _state_path(store, fields.session_id)
    warned = _warned(state)
    if settings.threshold in warned:
        return None
    atomic_write_text(state, json.dumps({"warned": [*warned, settings.threshold]}) + "\n")
    return warning(tokens, config)


def _config(store: Store) -> Config:
    try:
        return store_config(store)
    except VaultkitError as exc:
        common.log(store, f"UserPromptSubmit: {exc.message}; using default settings")
        return Config()


def _activity_line(payload: common.Payload, config: Config, session_id: str) -> str:
    line = f"agent: prompt {session_id[:8]}".rstrip()
    prompt = payload.get("prompt")
    if config.activity.prompt_text and isinstance(prompt, str) and prompt.strip():
        line += f": {activity.one_line(prompt, PROMPT_CHARS)}"
    return line


def run(payload: common.Payload, env: Mapping[str, str], *, agent: str = "claude") -> str | None:
    """Record the prompt in the activity log; return the warning JSON when it is due (Claude Code
    only: the warning reads Claude's usage records; vaultkit installs this hook for no other
    agent)."""
    if common.guarded(env):
        return None
    fields = common.HookFields.of(payload)
    store = common.store_for(payload, env)
    if not os.path.isdir(store.top):
        return None
    config = _config(store)
    if config.activity.enabled:
        activity.append(store, _activity_line(payload, config, fields.session_id))
    line = pressure(store, config, fields) if agent == "claude" else None
    if line is None:
        return None
    common.log(store, f"UserPromptSubmit {fields.session_id}: context-pressure warning")
    output = {"hookEventName": "UserPromptSubmit", "additionalContext": line}
    return json.dumps({"hookSpecificOutput": output, "systemMessage": line}, ensure_ascii=False)
