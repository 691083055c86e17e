"""Which of vaultkit's hooks Codex CLI will run: its hook trust and folder trust (read-only).

Codex runs a hook only once the user trusted it; trust is stored in ``$CODEX_HOME/config.toml``
as ``[hooks.state."<hooks.json path>:<event>:<group>:<hook>"] trusted_hash = "sha256:…"``, the
hash of the hook's definition when it was trusted (:func:`trust_hash`), and a project's own
``.codex/hooks.json`` loads only in a folder with ``[projects."<path>"] trust_level =
"trusted"``. vaultkit never writes either record: trusting is the user's review.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vaultkit.agents import hookmerge
from vaultkit.agents.adapter import Trust, config_dir
from vaultkit.agents.codex import AGENT


def config_file(env: Mapping[str, str] | None = None) -> Path:
    """``$CODEX_HOME/config.toml``, where Codex keeps what the user trusted."""
    return Path(config_dir(AGENT, env)) / "config.toml"


def _snake(event: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in event).lstrip("_")


def trust_key(hooks_path: str, event: str, group: int, hook: int) -> str:
    """The ``[hooks.state]`` key Codex stores a hook's trust under."""
    return f"{hooks_path}:{_snake(event)}:{group}:{hook}"


def trusted_hashes(config_text: str) -> dict[str, str]:
    """``[hooks.state]`` of a ``config.toml``: trust key → ``trusted_hash``. Unreadable TOML
    counts as nothing trusted."""
    try:
        config = tomllib.loads(config_text)
    except tomllib.TOMLDecodeError:
        return {}
    hooks = config.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    if not isinstance(state, dict):
        return {}
    return {
        key: str(entry["trusted_hash"])
        for key, entry in state.items()
        if isinstance(entry, dict) and isinstance(entry.get("trusted_hash"), str)
    }


UNTRUSTED = "untrusted"  # no trust record: Codex asks for a review and skips the hook
MODIFIED = "modified"  # a record whose hash is not the hook's: "Modified since last trusted"
# Events whose group matcher Codex keeps in the hook's identity; for the others it drops it.
_MATCHER_EVENTS = frozenset(
    {
        "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
        "SessionStart", "SessionEnd", "SubagentStart", "SubagentStop",
    }
)  # fmt: skip


def trust_hash(event: str, group: dict[str, Any], hook: dict[str, Any]) -> str | None:
    """The ``trusted_hash`` Codex 0.171 records for ``hook`` (in ``group`` under ``event``), or
    ``None`` for a definition it does not hash (not a command hook, or a field of a type Codex
    refuses). Checked against hashes the Codex TUI wrote (docs/agents.md, "Trust").

    Codex hashes the hook's normalised identity, not the file's text: ``event_name`` (snake
    case), the group's ``matcher`` (dropped for events without matchers) and the one handler
    (``type``, ``command``, ``timeout`` — 600 when absent and at least 1, for SessionEnd 1 when
    absent and clamped to 1..3 —, ``async``, ``statusMessage`` when set), as JSON with sorted
    keys and no spaces, SHA-256 in hex.
    """
    handler = _handler_identity(event, hook)
    if handler is None:
        return None
    identity: dict[str, Any] = {"event_name": _snake(event), "hooks": [handler]}
    matcher = group.get("matcher")
    if event in _MATCHER_EVENTS and isinstance(matcher, str):
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _handler_identity(event: str, hook: dict[str, Any]) -> dict[str, Any] | None:
    command, timeout = hook.get("command"), hook.get("timeout")
    is_async, status = hook.get("async", False), hook.get("statusMessage")
    if hook.get("type") != "command" or not isinstance(command, str) or not command.strip():
        return None
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int)):
        return None
    if not isinstance(is_async, bool) or not isinstance(status, str | None):
        return None
    if event == AGENT.end_event:  # SessionEnd: 1 s when absent, clamped to 1..3
        seconds = min(max(1, 1 if timeout is None else timeout), 3)
    else:
        seconds = max(1, 600 if timeout is None else timeout)
    handler = {"type": "command", "command": command, "timeout": seconds, "async": is_async}
    return handler if status is None else {**handler, "statusMessage": status}


def untrusted(data: dict[str, Any], hooks_path: str, config_text: str) -> dict[str, str]:
    """Trust key → :data:`UNTRUSTED` or :data:`MODIFIED` for each of vaultkit's hooks in
    ``data`` that Codex will skip: no trust record, or a record whose hash is not the hook's
    current one (the hook changed after it was trusted). A hook whose hash cannot be computed
    counts as trusted when it has a record."""
    trusted = trusted_hashes(config_text)
    found: dict[str, str] = {}
    for event, spots in hookmerge.positions(data).items():
        for group_index, hook_index in spots:
            key = trust_key(hooks_path, event, group_index, hook_index)
            group = data["hooks"][event][group_index]
            current = trust_hash(event, group, group["hooks"][hook_index])
            if key not in trusted:
                found[key] = UNTRUSTED
            elif current is not None and trusted[key] != current:
                found[key] = MODIFIED
    return found


def untrusted_file(hooks_file: Path, data: dict[str, Any], config_text: str) -> dict[str, str]:
    """Trust key → :data:`UNTRUSTED` or :data:`MODIFIED` for each of vaultkit's hooks in
    ``data`` (read from ``hooks_file``) that Codex will skip: trusted neither under the path as
    written nor with symlinks resolved. A stale record under either path beats none."""
    written = str(hooks_file)
    skipped = untrusted(data, written, config_text)
    real = os.path.realpath(hooks_file)
    if real == written:
        return skipped
    also = {key[len(real) :]: why for key, why in untrusted(data, real, config_text).items()}
    return {
        key: MODIFIED if MODIFIED in (why, also[tail]) else why
        for key, why in skipped.items()
        if (tail := key[len(written) :]) in also
    }


def project_trust(project: Path, config_text: str) -> Trust:
    """``[projects."<project>"] trust_level`` of a Codex ``config.toml``."""
    try:
        projects = tomllib.loads(config_text).get("projects")
    except tomllib.TOMLDecodeError:
        return Trust(None, "config.toml is not valid TOML")
    table = projects if isinstance(projects, dict) else {}
    for key in dict.fromkeys((str(project), os.path.realpath(project))):
        entry = table.get(key)
        level = entry.get("trust_level") if isinstance(entry, dict) else None
        if isinstance(level, str):
            return Trust(level == "trusted", f'[projects."{key}"] trust_level = "{level}"')
    return Trust(None, f'no [projects."{project}"] entry')
