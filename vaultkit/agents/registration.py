"""Which registration of vaultkit's hooks is active, so the hooks run once when both the
Claude Code plugin and ``vaultkit hooks install`` are present.

The rule: an explicit ``vaultkit hooks install`` (vaultkit's entries in a Claude Code settings
file) wins, and a hook started by the plugin (its command carries ``PLUGIN_FLAG``) stands down
for an event that a settings file also registers. Lean (``os`` and ``base.leanjson`` only):
every plugin hook pays for this check, a few small file reads.
"""

from __future__ import annotations

import os

from vaultkit.base import leanjson
from vaultkit.base.store import find_git_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

PLUGIN_FLAG = "--plugin"
# How vaultkit knows its own hook commands; "vaultkit_hook" is hookcmd.MARK (a test keeps it so).
MARKS = ("vaultkit-hook", "vaultkit.hookentry", "vaultkit_hook")
MAX_SETTINGS_BYTES = 4 * 1024 * 1024


def settings_files(project: str, env: Mapping[str, str]) -> list[str]:
    """The Claude Code settings files that can register hooks for a session in ``project``."""
    config_dir = env.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return [
        os.path.join(config_dir, "settings.json"),
        os.path.join(project, ".claude", "settings.json"),
        os.path.join(project, ".claude", "settings.local.json"),
    ]


def _read(path: str) -> object:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES)
        return leanjson.loads(data.decode("utf-8-sig"))
    except (OSError, ValueError):
        return None


def _commands(group: object) -> list[str]:
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return []
    found = []
    for hook in group["hooks"]:
        if isinstance(hook, dict) and isinstance(hook.get("command"), str):
            args = hook.get("args")
            extra = (
                " ".join(a for a in args if isinstance(a, str)) if isinstance(args, list) else ""
            )
            found.append(f"{hook['command']} {extra}")
    return found


def registers(data: object, event: str) -> bool:
    """True when settings ``data`` hold a vaultkit entry (not a plugin one) for ``event``."""
    if not isinstance(data, dict) or not isinstance(data.get("hooks"), dict):
        return False
    groups = data["hooks"].get(event)
    if not isinstance(groups, list):
        return False
    return any(
        any(mark in command for mark in MARKS) and PLUGIN_FLAG not in command
        for group in groups
        for command in _commands(group)
    )


def settings_register(event: str, project: str, env: Mapping[str, str]) -> str | None:
    """The settings file that registers vaultkit for ``event``, or None."""
    for path in settings_files(project, env):
        if registers(_read(path), event):
            return path
    return None


def project_dir(cwd: str, env: Mapping[str, str]) -> str:
    """The project Claude Code runs in: ``CLAUDE_PROJECT_DIR`` (set for hooks), else the git
    root of ``cwd``, else ``cwd``."""
    return env.get("CLAUDE_PROJECT_DIR") or find_git_root(cwd) or cwd


def plugin_enabled(project: str, env: Mapping[str, str]) -> str | None:
    """The settings file that enables the vaultkit plugin (``enabledPlugins`` holds
    ``vaultkit@<marketplace>: true``), or None."""
    for path in settings_files(project, env):
        data = _read(path)
        enabled = data.get("enabledPlugins") if isinstance(data, dict) else None
        if isinstance(enabled, dict) and any(
            isinstance(key, str) and key.split("@", 1)[0] == "vaultkit" and value is True
            for key, value in enabled.items()
        ):
            return path
    return None
