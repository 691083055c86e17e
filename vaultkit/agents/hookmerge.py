"""Pure merge and unmerge of vaultkit's command hooks in ``{"hooks": {Event: [group, …]}}`` data.

Codex's ``hooks.json`` and Gemini CLI's ``settings.json`` keep hooks in the shape Claude Code's
settings use: per event a list of groups, each ``{"matcher"?: …, "hooks": [hook, …]}``. vaultkit
recognises its own hooks by their command (``registration.MARKS``, as in Claude's settings),
keeps everyone else's, appends its group at the end of an event's list (Codex keys hook trust by
position, so foreign hooks keep their place), installs idempotently and uninstalls exactly what
it added.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING

from vaultkit.agents.registration import MARKS
from vaultkit.errors import VaultkitError

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    Data = dict[str, Any]
    Hook = dict[str, Any]


def parse(text: str, where: str, events: tuple[str, ...]) -> Data:
    """File text as data; blank is ``{}``. Malformed JSON (comments included: vaultkit would
    lose them on rewrite), a non-object or a wrongly shaped ``hooks`` is refused with a hint."""
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        if _parses_without_comments(text):
            raise VaultkitError(
                f"{where}: has comments; vaultkit left it unchanged (rewriting would drop them)",
                hint=f"remove the comments from {where}, or add vaultkit's hooks by hand",
            ) from exc
        raise VaultkitError(
            f"{where}: not valid JSON ({exc}); vaultkit left it unchanged",
            hint=f"fix the JSON in {where}, then run again",
        ) from exc
    if not isinstance(data, dict):
        raise VaultkitError(
            f"{where}: holds a JSON {type(data).__name__}, not an object; left unchanged",
            hint=f"make {where} a JSON object such as {{}}, then run again",
        )
    _check_shape(data, where, events)
    return data


def _check_shape(data: Data, where: str, events: tuple[str, ...]) -> None:
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise VaultkitError(
            f'{where}: "hooks" is not an object; left unchanged',
            hint=f'edit {where} so that "hooks" maps event names to lists of groups',
        )
    for event in events:
        if isinstance(hooks, dict) and event in hooks and not isinstance(hooks[event], list):
            raise VaultkitError(
                f'{where}: "hooks.{event}" is not a list; left unchanged',
                hint=f'edit {where} so that "hooks.{event}" is a list of groups',
            )


def _parses_without_comments(text: str) -> bool:
    try:
        json.loads(strip_comments(text))
    except ValueError:
        return False
    return True


def strip_comments(text: str) -> str:
    """``text`` without ``//`` and ``/* */`` comments outside JSON strings."""
    out: list[str] = []
    i, n, in_string = 0, len(text), False
    while i < n:
        char = text[i]
        if in_string:
            out.append(char)
            if char == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(char)
        i += 1
    return "".join(out)


def render(data: Data) -> str:
    """Data as file text: two-space indent, Unicode kept, final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def is_vaultkit(hook: object) -> bool:
    """True for a hook whose command runs vaultkit's hook entry point."""
    if not isinstance(hook, dict):
        return False
    command = hook.get("command")
    if not isinstance(command, str):
        return False
    args = hook.get("args")  # exec form: the marks may be in the arguments (python -I -S …)
    if isinstance(args, list):
        command = " ".join([command, *(a for a in args if isinstance(a, str))])
    return any(mark in command for mark in MARKS)


def _groups(data: Data, event: str) -> list[Any]:
    hooks = data.get("hooks")
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    return groups if isinstance(groups, list) else []


def _group_hooks(group: object) -> list[Any]:
    if isinstance(group, dict) and isinstance(group.get("hooks"), list):
        return list(group["hooks"])
    return []


def installed(data: Data) -> dict[str, list[Hook]]:
    """vaultkit's hooks per event (events without any are left out)."""
    hooks = data.get("hooks")
    found: dict[str, list[Hook]] = {}
    for event in hooks if isinstance(hooks, dict) else {}:
        mine = [h for g in _groups(data, event) for h in _group_hooks(g) if is_vaultkit(h)]
        if mine:
            found[event] = mine
    return found


def positions(data: Data) -> dict[str, list[tuple[int, int]]]:
    """(group index, hook index) of each vaultkit hook, per event."""
    found: dict[str, list[tuple[int, int]]] = {}
    for event in installed(data):
        for g, group in enumerate(_groups(data, event)):
            for h, hook in enumerate(_group_hooks(group)):
                if is_vaultkit(hook):
                    found.setdefault(event, []).append((g, h))
    return found


def install(data: Data, wanted: Mapping[str, Hook], *, matcher: str | None = None) -> Data:
    """A copy of ``data`` whose only vaultkit hook for each event in ``wanted`` is that hook,
    in a group of its own (with ``matcher`` when given) at the end of the event's list."""
    result = copy.deepcopy(data)
    for event, hook in wanted.items():
        if installed(result).get(event) == [hook]:
            continue
        result = _remove(result, (event,))
        group: Data = {"matcher": matcher} if matcher is not None else {}
        group["hooks"] = [dict(hook)]
        result.setdefault("hooks", {}).setdefault(event, []).append(group)
    return result


def uninstall(data: Data) -> Data:
    """A copy of ``data`` without vaultkit's hooks; lists and the ``hooks`` object are dropped
    only when removing vaultkit's hooks left them empty."""
    hooks = data.get("hooks")
    events = tuple(hooks) if isinstance(hooks, dict) else ()
    return _remove(copy.deepcopy(data), events)


def _remove(data: Data, events: tuple[str, ...]) -> Data:
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
    entries = _group_hooks(group)
    if not isinstance(group, dict) or not any(is_vaultkit(h) for h in entries):
        return group
    kept = [h for h in entries if not is_vaultkit(h)]
    return {**group, "hooks": kept} if kept else None
