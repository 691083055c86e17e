"""Gemini CLI (0.61): its adapter value, settings.json hook merge, child settings, chat reader.

Hooks live in ``settings.json`` (``~/.gemini/`` or a project's ``.gemini/``) and run only in a
trusted folder. A SessionStart hook must print JSON: plain stdout becomes a message shown to the
user and is not injected; in headless runs the injected ``additionalContext`` is prepended to the
prompt as ``<hook_context>…</hook_context>``. The chat file is an append-only JSONL of a header,
messages (a message may be appended again with the same ``id`` when it gains tool calls or
tokens: the later copy wins), ``$set`` metadata updates and ``$rewindTo`` markers.
Stdlib only.
"""

from __future__ import annotations

import shlex
from collections import OrderedDict

from vaultkit.agents import hookmerge
from vaultkit.agents.adapter import (
    ASSISTANT,
    JSON_ONLY,
    TOOL,
    USER,
    Agent,
    Entry,
    cut_blocks,
    one_line,
)
from vaultkit.agents.jsonlines import Tally, iter_objects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path
    from typing import Any

AGENT = Agent(
    name="gemini",
    display="Gemini CLI 0.61",
    dir_env="",
    home_env="GEMINI_CLI_HOME",
    home_default=".gemini",
    hook_file="settings.json",
    project_hook_file=".gemini/settings.json",
    start_event="SessionStart",
    end_event="SessionEnd",
    turn_event="AfterAgent",
    start_sources=("startup", "resume", "clear"),
    end_reasons=("exit", "clear", "logout", "prompt_input_exit", "other"),
    transcript_glob="tmp/*/chats/session-*.jsonl",
    injection=JSON_ONLY,
    timeout_unit="ms",
    child_argv=("gemini", "--skip-trust"),
    trust="the folder (trustedFolders.json, --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true)",
)
EVENTS = (AGENT.start_event, AGENT.end_event)
TIMEOUTS_MS = {AGENT.start_event: 10_000, AGENT.end_event: 5_000}
HOOK_CONTEXT = ("<hook_context>", "</hook_context>")
SESSION_CONTEXT = ("<session_context>", "</session_context>")
WINDOW = 32  # messages held back to let a re-appended copy replace the earlier one


def hook_entry(executable: str | Sequence[str], event: str) -> dict[str, Any]:
    """vaultkit's hook for ``event`` (Gemini CLI runs ``command`` through the shell):
    ``executable`` is the console script or the words of
    :func:`vaultkit.agents.hookcmd.hook_command`; ``--agent gemini`` tells the hook whose payload
    it reads."""
    words = (executable,) if isinstance(executable, str) else tuple(executable)
    return {
        "name": f"vaultkit-{event}",
        "type": "command",
        "command": " ".join(shlex.quote(w) for w in (*words, event, "--agent", AGENT.name)),
        "timeout": TIMEOUTS_MS[event],
    }


def parse(text: str, where: str) -> dict[str, Any]:
    return hookmerge.parse(text, where, EVENTS)


def install(data: dict[str, Any], executable: str | Sequence[str]) -> dict[str, Any]:
    """``settings.json`` data with vaultkit's SessionStart and SessionEnd hooks in place."""
    return hookmerge.install(data, {e: hook_entry(executable, e) for e in EVENTS})


def uninstall(data: dict[str, Any]) -> dict[str, Any]:
    return hookmerge.uninstall(data)


def child_settings(auth_type: str = "gemini-api-key") -> dict[str, Any]:
    """``settings.json`` for a distillation child's private ``GEMINI_CLI_HOME``: no hooks (the
    user's and the project's alike, as long as the project does not re-enable them), no
    telemetry, no update checks."""
    return {
        "hooksConfig": {"enabled": False},
        "security": {"auth": {"selectedType": auth_type}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    }


# -- the chat file ----------------------------------------------------------------------------

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
