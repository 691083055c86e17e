"""UserPromptSubmit: one activity-log line per prompt, and the context-pressure warning.

The warning reads how many tokens the context holds from the agent's transcript (its
``context`` part: Claude Code's last reported usage, a bounded read from the tail) and, once the
context passes the configured share of the model's window, adds one line suggesting a handoff —
at most once per threshold per session. An agent without a ``context`` part gets no warning.
Lean (stdlib only); never fails the prompt.
"""

from __future__ import annotations

import json
import os

from vaultkit.agents import known
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

PROMPT_CHARS = 200


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


def context_tokens(agent: str, transcript: str) -> int | None:
    """How many tokens ``agent``'s context holds, by its transcript (``None``: not known)."""
    part = known.context(agent)
    return part.tokens(transcript) if part is not None else None


def pressure(
    store: Store, config: Config, fields: common.HookFields, agent: str = known.DEFAULT
) -> str | None:
    """The warning line when the context passed the threshold for the first time this session."""
    settings = config.pressure
    if not settings.enabled or not fields.transcript_path or not fields.session_id:
        return None
    tokens = context_tokens(agent, fields.transcript_path)
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
        # Only with prompt_text on: redaction compiles its patterns (a few ms).
        from vaultkit.session.transcripts.redact import redact

        text = activity.one_line(redact(prompt), PROMPT_CHARS)
        if text:
            line += f": {text}"
    return line


def run(
    payload: common.Payload, env: Mapping[str, str], *, agent: str = known.DEFAULT
) -> str | None:
    """Record the prompt in the activity log; return the warning JSON when it is due (for an
    agent whose transcript says how full its context is: Claude Code's; vaultkit installs this
    hook for no other agent)."""
    if common.guarded(env):
        return None
    fields = common.HookFields.of(payload)
    store = common.store_for(payload, env)
    if not os.path.isdir(store.top):
        return None
    config = _config(store)
    if config.activity.enabled:
        activity.append(store, _activity_line(payload, config, fields.session_id))
    line = pressure(store, config, fields, agent)
    if line is None:
        return None
    common.log(store, f"UserPromptSubmit {fields.session_id}: context-pressure warning")
    output = {"hookEventName": "UserPromptSubmit", "additionalContext": line}
    return json.dumps({"hookSpecificOutput": output, "systemMessage": line}, ensure_ascii=False)
