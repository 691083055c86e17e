"""Pure merge and unmerge of vaultkit's hooks in Claude Code ``settings.json`` data.

vaultkit recognises its own hook entries by their command naming the ``vaultkit-hook`` entry
point (or ``vaultkit.hookentry``) and never touches anyone else's. Installing twice changes
nothing; uninstalling removes only vaultkit's entries and the containers that held nothing else.
"""

from __future__ import annotations

import copy
import json
import shlex
from typing import Any

from vaultkit.agents.registration import MARKS
from vaultkit.errors import VaultkitError

EVENTS = ("SessionStart", "SessionEnd")
PROMPT_EVENT = "UserPromptSubmit"  # optional (--prompt-hook): activity line, context pressure
MATCHER = "*"
# SessionStart reads a few files; SessionEnd only queues a job and spawns the worker. Claude Code
# also caps all SessionEnd hooks together at 1.5 s by default, whatever is written here.
TIMEOUTS = {"SessionStart": 10, "SessionEnd": 2, "UserPromptSubmit": 5}

Settings = dict[str, Any]
Hook = dict[str, Any]


def parse(text: str, where: str) -> Settings:
    """Settings data from file text; blank text is ``{}``. Malformed JSON or a non-object is
    refused with a hint (the file is never overwritten in that case)."""
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise VaultkitError(
            f"{where}: not valid JSON ({exc}); vaultkit left it unchanged",
            hint=f"fix the JSON in {where} (Claude Code accepts no comments), then run again",
        ) from exc
    if not isinstance(data, dict):
        raise VaultkitError(
            f"{where}: holds a JSON {type(data).__name__}, not an object; left unchanged",
            hint=f"make {where} a JSON object such as {{}}, then run again",
        )
    _check_shape(data, where)
    return data


def _check_shape(data: Settings, where: str) -> None:
    hooks = data.get("hooks")
    if hooks is None:
        return
    if not isinstance(hooks, dict):
        raise VaultkitError(
            f'{where}: "hooks" is not an object; left unchanged',
            hint=f'edit {where} so that "hooks" maps event names to lists',
        )
    for event in EVENTS:
        if event in hooks and not isinstance(hooks[event], list):
            raise VaultkitError(
                f'{where}: "hooks.{event}" is not a list; left unchanged',
                hint=f'edit {where} so that "hooks.{event}" is a list of matcher groups',
            )


def render(data: Settings) -> str:
    """Settings data as file text: two-space indent, Unicode kept, final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def hook_entry(executable: str, event: str, *, shell_form: bool = False) -> Hook:
    """vaultkit's hook for ``event``: exec form (``command`` + ``args``, no shell) by default;
    shell form (one quoted command line) for Claude Code versions without ``args``."""
    if shell_form:
        command: Hook = {"type": "command", "command": f"{shlex.quote(executable)} {event}"}
    else:
        command = {"type": "command", "command": executable, "args": [event]}
    command["timeout"] = TIMEOUTS[event]
    return command


def is_vaultkit(hook: object) -> bool:
    """True for a hook entry whose command runs vaultkit's hook entry point."""
    if not isinstance(hook, dict):
        return False
    command = hook.get("command")
    return isinstance(command, str) and any(mark in command for mark in MARKS)


def _groups(data: Settings, event: str) -> list[Any]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    groups = hooks.get(event)
    return groups if isinstance(groups, list) else []


def _group_hooks(group: object) -> list[Any]:
    if isinstance(group, dict) and isinstance(group.get("hooks"), list):
        return list(group["hooks"])
    return []


def installed(data: Settings) -> dict[str, list[Hook]]:
    """vaultkit's hook entries per event (events without any are left out)."""
    found: dict[str, list[Hook]] = {}
    hooks = data.get("hooks")
    for event in hooks if isinstance(hooks, dict) else {}:
        mine = [h for g in _groups(data, event) for h in _group_hooks(g) if is_vaultkit(h)]
        if mine:
            found[event] = mine
    return found


def executable_of(hook: Hook) -> str:
    """The program a hook entry runs (exec form: ``command``; shell form: its first word)."""
    command = str(hook.get("command", ""))
    if "args" in hook:
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    return words[0] if words else ""


def install(
    data: Settings,
    executable: str,
    *,
    shell_form: bool = False,
    events: tuple[str, ...] = EVENTS,
) -> Settings:
    """A copy of ``data`` with vaultkit's hooks for ``events`` (default: SessionStart and
    SessionEnd) in place."""
    result = copy.deepcopy(data)
    for event in events:
        wanted = hook_entry(executable, event, shell_form=shell_form)
        if installed(result).get(event) == [wanted]:
            continue
        result = _remove(result, events=(event,))
        hooks = result.setdefault("hooks", {})
        hooks.setdefault(event, []).append({"matcher": MATCHER, "hooks": [wanted]})
    return result


def uninstall(data: Settings) -> Settings:
    """A copy of ``data`` without vaultkit's hooks; containers left empty by that are dropped."""
    hooks = data.get("hooks")
    events = tuple(hooks) if isinstance(hooks, dict) else ()
    return _remove(copy.deepcopy(data), events=events)


def _remove(data: Settings, *, events: tuple[str, ...]) -> Settings:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    changed = False
    for event in events:
        groups = hooks.get(event)
        if not isinstance(groups, list):
            continue
        kept = [g for g in (_strip_group(g) for g in groups) if g is not None]
        if kept != groups:
            changed = True
            hooks[event] = kept
            if not kept:
                del hooks[event]
    if changed and not hooks:
        del data["hooks"]
    return data


def _strip_group(group: object) -> object | None:
    """The group without vaultkit's entries; None when nothing else was in it."""
    entries = _group_hooks(group)
    if not isinstance(group, dict) or not any(is_vaultkit(h) for h in entries):
        return group
    kept = [h for h in entries if not is_vaultkit(h)]
    return {**group, "hooks": kept} if kept else None
