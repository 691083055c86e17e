"""Pure merge and unmerge of vaultkit's hooks in Claude Code ``settings.json`` data.

vaultkit recognises its own hook entries by their command naming the ``vaultkit-hook`` entry
point (or ``vaultkit.hookentry``) and never touches anyone else's. Installing twice changes
nothing; uninstalling removes only vaultkit's entries and the containers that held nothing else.
"""

from __future__ import annotations

import json
from typing import Any

from vaultkit.agents import hookcmd, hookmerge
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


def hook_entry(executable: str | tuple[str, ...], event: str, *, shell_form: bool = False) -> Hook:
    """vaultkit's hook for ``event``: exec form (``command`` + ``args``, no shell) by default;
    shell form (one quoted command line) for Claude Code versions without ``args``.
    ``executable`` is a program or the words of one (:func:`.hookcmd.hook_command`)."""
    words = (executable,) if isinstance(executable, str) else executable
    if shell_form:
        command: Hook = {"type": "command", "command": hookcmd.shell_line(words, event)}
    else:
        command = {"type": "command", "command": words[0], "args": [*words[1:], event]}
    command["timeout"] = TIMEOUTS[event]
    return command


is_vaultkit = hookmerge.is_vaultkit  # one definition of "vaultkit's own hook" for every agent
installed = hookmerge.installed
executable_of = hookcmd.executable_of


def install(
    data: Settings,
    executable: str | tuple[str, ...],
    *,
    shell_form: bool = False,
    events: tuple[str, ...] = EVENTS,
) -> Settings:
    """A copy of ``data`` with vaultkit's hooks for ``events`` (default: SessionStart and
    SessionEnd) in place, each in a group of its own matching every tool."""
    wanted = {event: hook_entry(executable, event, shell_form=shell_form) for event in events}
    return hookmerge.install(data, wanted, matcher=MATCHER)


def uninstall(data: Settings) -> Settings:
    """A copy of ``data`` without vaultkit's hooks; containers left empty by that are dropped."""
    return hookmerge.uninstall(data)
