"""Codex CLI (0.171): its adapter value, hooks.json merge, hook trust and rollout reader.

vaultkit writes Codex hooks into ``$CODEX_HOME/hooks.json`` rather than ``[hooks]`` in
``config.toml``: it is a file of its own in the JSON shape the stdlib round-trips exactly, while
rewriting the user's main TOML config would need a TOML writer and would lose its formatting.
Codex runs a hook only once the user trusted it; trust is stored in ``config.toml`` as
``[hooks.state."<hooks.json path>:<event>:<group>:<hook>"] trusted_hash = "sha256:…"``, the
hash of the hook's definition (:func:`trust_hash`). Stdlib only (``tomllib`` and ``hashlib`` are
imported only when trust is read).
"""

from __future__ import annotations

import json
import shlex

from vaultkit.agents import hookmerge
from vaultkit.agents.adapter import (
    ASSISTANT,
    META,
    STDOUT_OR_JSON,
    TOOL,
    USER,
    Agent,
    Entry,
    one_line,
)
from vaultkit.agents.jsonlines import Tally, iter_objects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path
    from typing import Any

AGENT = Agent(
    name="codex",
    display="Codex CLI 0.171",
    dir_env="CODEX_HOME",
    home_env="",
    home_default=".codex",
    hook_file="hooks.json",
    project_hook_file=".codex/hooks.json",
    start_event="SessionStart",
    end_event="SessionEnd",
    turn_event="Stop",
    start_sources=("startup", "resume", "clear", "compact", "fork"),
    end_reasons=("other",),
    transcript_glob="sessions/*/*/*/rollout-*.jsonl",
    injection=STDOUT_OR_JSON,
    timeout_unit="s",
    child_argv=(
        "codex",
        "exec",
        "--disable",
        "hooks",
        "--ephemeral",
        "--skip-git-repo-check",
        "--sandbox",
        "read-only",
        "-",
    ),
    trust="each hook definition, reviewed in the Codex TUI (/hooks); projects need folder trust",
)
EVENTS = (AGENT.start_event, AGENT.end_event)
# Codex clamps SessionEnd hooks to 3 s (and warns about anything longer).
TIMEOUTS = {AGENT.start_event: 10, AGENT.end_event: 3}


def hook_entry(executable: str | Sequence[str], event: str) -> dict[str, Any]:
    """vaultkit's hook for ``event`` (Codex runs ``command`` through the shell): ``executable``
    is the console script or the words of :func:`vaultkit.agents.hookcmd.hook_command`;
    ``--agent codex`` tells the hook whose payload it reads."""
    command = command_line(executable, event)
    return {"type": "command", "command": command, "timeout": TIMEOUTS[event]}


def command_line(executable: str | Sequence[str], event: str) -> str:
    """``executable`` (one word or several), the event and ``--agent codex`` as a shell line."""
    words = (executable,) if isinstance(executable, str) else tuple(executable)
    return " ".join(shlex.quote(w) for w in (*words, event, "--agent", AGENT.name))


def parse(text: str, where: str) -> dict[str, Any]:
    return hookmerge.parse(text, where, EVENTS)


def install(data: dict[str, Any], executable: str | Sequence[str]) -> dict[str, Any]:
    """``hooks.json`` data with vaultkit's SessionStart and SessionEnd hooks in place."""
    return hookmerge.install(data, {e: hook_entry(executable, e) for e in EVENTS})


def uninstall(data: dict[str, Any]) -> dict[str, Any]:
    return hookmerge.uninstall(data)


def _snake(event: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in event).lstrip("_")


def trust_key(hooks_path: str, event: str, group: int, hook: int) -> str:
    """The ``[hooks.state]`` key Codex stores a hook's trust under."""
    return f"{hooks_path}:{_snake(event)}:{group}:{hook}"


def trusted_hashes(config_text: str) -> dict[str, str]:
    """``[hooks.state]`` of a ``config.toml``: trust key → ``trusted_hash``. Unreadable TOML
    counts as nothing trusted."""
    import tomllib  # only doctor-style callers pay for it

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
    import hashlib  # only trust readers pay for it

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


# -- the rollout ------------------------------------------------------------------------------

_EDIT_TOOLS = frozenset({"apply_patch"})
_PATCH_HEADERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")


def read(path: Path, tally: Tally | None = None) -> Iterator[Entry]:
    """Stream a rollout JSONL: session facts, the user's and the assistant's text, tool calls.

    Dropped: developer and system messages (Codex's instructions and every SessionStart
    injection, vaultkit's own included), harness blocks in user messages
    (``<environment_context>`` …), tool output, reasoning, events and bookkeeping records,
    broken or overlong lines and record kinds this version does not know.
    """
    for record in iter_objects(path, tally=tally):
        if record is not None:
            yield from _entries(record)


def _entries(record: dict[str, Any]) -> Iterator[Entry]:
    kind, payload = record.get("type"), record.get("payload")
    if not isinstance(payload, dict):
        return
    if kind in ("session_meta", "turn_context"):
        yield from _meta(payload)
    elif kind == "response_item":
        yield from _item(payload)


def _meta(payload: dict[str, Any]) -> Iterator[Entry]:
    git = payload.get("git")
    branch = git.get("branch") if isinstance(git, dict) else None
    cwd = payload.get("cwd")
    if isinstance(cwd, str) or isinstance(branch, str):
        yield Entry(
            META,
            cwd=cwd if isinstance(cwd, str) else "",
            git_branch=branch if isinstance(branch, str) else "",
        )


def _item(item: dict[str, Any]) -> Iterator[Entry]:
    kind = item.get("type")
    if kind == "message":
        role = item.get("role")
        text = _message_text(item.get("content"), drop_harness=role == "user")
        if text and role in (USER, ASSISTANT):
            yield Entry(str(role), text=text)
    elif kind in ("function_call", "custom_tool_call", "local_shell_call"):
        yield _tool(item)


def _message_text(content: object, *, drop_harness: bool) -> str:
    parts = content if isinstance(content, list) else []
    texts = [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
    if drop_harness:
        texts = [t for t in texts if not is_harness_block(t)]
    return "\n".join(t for t in texts if t.strip()).strip()


def is_harness_block(text: str) -> bool:
    """True for a part that is one whole ``<tag>…</tag>`` block Codex adds to user messages."""
    stripped = text.strip()
    if not stripped.startswith("<"):
        return False
    end = stripped.find(">")
    tag = stripped[1:end] if end > 1 else ""
    return bool(tag) and "\n" not in tag and stripped.endswith(f"</{tag}>")


def _tool(item: dict[str, Any]) -> Entry:
    name = str(item.get("name") or item.get("type") or "tool")
    args = _arguments(item)
    command = _command(args)
    raw_input = item.get("input") if isinstance(item.get("input"), str) else args.get("input")
    patch = raw_input if isinstance(raw_input, str) else ""
    paths = _patch_paths(patch) if name in _EDIT_TOOLS else ()
    summary = command or ", ".join(paths) or _first_string(args)
    return Entry(TOOL, text=one_line(summary), tool=name, command=command, paths=paths)


def _arguments(item: dict[str, Any]) -> dict[str, Any]:
    raw = item.get("arguments")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return {}
    action = item.get("action")
    if not isinstance(raw, dict) and isinstance(action, dict):
        raw = action  # local_shell_call: {"type": "exec", "command": [...]}
    return raw if isinstance(raw, dict) else {}


def _command(args: dict[str, Any]) -> str:
    value = args.get("cmd", args.get("command"))
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        if len(value) == 3 and value[1] in ("-c", "-lc") and value[0].endswith("sh"):
            return one_line(value[2], 300)
        return one_line(shlex.join(value), 300)
    return one_line(value, 300) if isinstance(value, str) else ""


def _patch_paths(patch: str) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for line in patch.splitlines():
        for header in _PATCH_HEADERS:
            if line.startswith(header) and line[len(header) :].strip():
                found[line[len(header) :].strip()] = None
    return tuple(found)


def _first_string(args: dict[str, Any]) -> str:
    return next((v for v in args.values() if isinstance(v, str) and v), "")
