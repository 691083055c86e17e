"""Gemini CLI's chat-file reader: its JSONL records as :class:`~vaultkit.agents.adapter.Entry`.

The chat file is an append-only JSONL of a header, messages (a message may be appended again with
the same ``id`` when it gains tool calls or tokens: the later copy wins), ``$set`` metadata
updates and ``$rewindTo`` markers. In headless runs the injected ``additionalContext`` is
prepended to the user's prompt as ``<hook_context>…</hook_context>``. Streaming, bounded memory.
Stdlib only.
"""

from __future__ import annotations

from collections import OrderedDict

from vaultkit.agents.adapter import ASSISTANT, TOOL, USER, Entry, cut_blocks, first_branch, one_line
from vaultkit.agents.jsonlines import Tally, iter_objects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

HOOK_CONTEXT = ("<hook_context>", "</hook_context>")
SESSION_CONTEXT = ("<session_context>", "</session_context>")
WINDOW = 32  # messages held back to let a re-appended copy replace the earlier one

_EDIT_TOOLS = frozenset({"write_file", "replace", "edit"})
_SHELL_TOOLS = frozenset({"run_shell_command"})


def read(path: Path, tally: Tally | None = None) -> Iterator[Entry]:
    """Stream a chat JSONL: the user's and the model's text, and tool calls.

    Dropped: the header, ``$set`` records (their ``messages`` is the CLI's own context set-up,
    re-sent whole on resume), tool results, thoughts, info/warning/error messages, the
    ``<session_context>`` and ``<hook_context>`` blocks (the latter is every SessionStart
    injection, vaultkit's own included), broken or overlong lines and unknown record kinds. A
    ``$rewindTo`` drops the held-back messages after its target; memory stays bounded by
    ``WINDOW`` messages.
    """
    pending: OrderedDict[str, dict[str, Any]] = OrderedDict()
    for record in iter_objects(path, tally=tally):
        if record is None:
            continue
        if isinstance(record.get("$rewindTo"), str):
            _rewind(pending, record["$rewindTo"])
            continue
        key = record.get("id")
        if not isinstance(key, str) or record.get("type") not in (USER, "gemini"):
            continue
        pending[key] = record  # a later copy replaces the earlier one in place
        while len(pending) > WINDOW:
            yield from _message(pending.popitem(last=False)[1])
    for message in pending.values():
        yield from _message(message)


def _rewind(pending: OrderedDict[str, dict[str, Any]], target: str) -> None:
    if target not in pending:
        return
    keys = list(pending)
    for key in keys[keys.index(target) :]:
        del pending[key]


def _message(message: dict[str, Any]) -> Iterator[Entry]:
    text = _text(message.get("content"))
    if message.get("type") == USER:
        text = _strip_block(_strip_block(text, HOOK_CONTEXT), SESSION_CONTEXT)
        if text:
            yield Entry(USER, text=text)
        return
    if text:
        yield Entry(ASSISTANT, text=text)
    calls = message.get("toolCalls")
    for call in calls if isinstance(calls, list) else []:
        if isinstance(call, dict):
            yield _tool(call)


def _text(content: object) -> str:
    if isinstance(content, str):
        return content.strip()
    parts = content if isinstance(content, list) else []
    texts = [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return "\n".join(texts).strip()


def _strip_block(text: str, tags: tuple[str, str]) -> str:
    """``text`` without every ``<tag>…</tag>`` block (an unclosed one drops the rest)."""
    return cut_blocks(text, *tags).strip()


def _tool(call: dict[str, Any]) -> Entry:
    name = str(call.get("name") or "tool")
    raw = call.get("args")
    args: dict[str, Any] = raw if isinstance(raw, dict) else {}
    value = args.get("command")
    command = one_line(value, 300) if name in _SHELL_TOOLS and isinstance(value, str) else ""
    target = args.get("file_path")
    paths = (target,) if name in _EDIT_TOOLS and isinstance(target, str) and target else ()
    first = next((v for v in args.values() if isinstance(v, str) and v), "")
    summary = one_line(command or ", ".join(paths) or first)
    return Entry(TOOL, text=summary, tool=name, command=command, paths=paths)


def git_branch(path: Path) -> str | None:
    """The git branch the transcript's session facts name first (``None`` when none does)."""
    return first_branch(read(path))
