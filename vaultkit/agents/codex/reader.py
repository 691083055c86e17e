"""Codex CLI's rollout reader: its JSONL records as :class:`~vaultkit.agents.adapter.Entry`.

One JSON object per line, ``{"timestamp", "ordinal", "type", "payload"}``: ``session_meta`` and
``turn_context`` give the session's ``cwd`` and git branch, ``response_item`` is the
conversation (messages, function and tool calls and their output), everything else is events
and bookkeeping. Streaming, bounded memory. Stdlib only.
"""

from __future__ import annotations

import json
import shlex

from vaultkit.agents.adapter import ASSISTANT, META, TOOL, USER, Entry, first_branch, one_line
from vaultkit.agents.jsonlines import Tally, iter_objects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

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


def git_branch(path: Path) -> str | None:
    """The git branch the transcript's session facts name first (``None`` when none does)."""
    return first_branch(read(path))
