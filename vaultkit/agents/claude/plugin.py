"""The Claude Code plugin's generated files (hooks, MCP server, slash commands), from the same
definitions ``vaultkit hooks install`` uses, so the two registrations never drift apart.

``python -m vaultkit.agents.claude.plugin [PLUGIN_DIR]`` rewrites them; a test fails when the
files in the repository's ``plugin/`` differ from what this module makes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from vaultkit.agents.claude.settings import EVENTS, MATCHER, TIMEOUTS
from vaultkit.agents.claude.slashcmds import MARKER, TEMPLATES
from vaultkit.agents.registration import PLUGIN_FLAG
from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.templates import read_template

HOOK_COMMAND = "vaultkit-hook"  # the installed entry point, found on PATH
COMMAND_NAMES = {"baton": "handoff", "save": "save-handoff"}
PLUGIN_NOTE = "<!-- vaultkit:plugin (part of the vaultkit plugin; generated, do not edit) -->"


def hooks_json() -> str:
    """``hooks/hooks.json``: SessionStart and SessionEnd through ``vaultkit-hook … --plugin``."""
    hooks = {
        event: [
            {
                "matcher": MATCHER,
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{HOOK_COMMAND} {event} {PLUGIN_FLAG}",
                        "timeout": TIMEOUTS[event],
                    }
                ],
            }
        ]
        for event in EVENTS
    }
    return json.dumps({"hooks": hooks}, indent=2) + "\n"


def mcp_json() -> str:
    """``.mcp.json``: the read-only memory server, ``vaultkit mcp``."""
    server = {"command": "vaultkit", "args": ["mcp"]}
    return json.dumps({"mcpServers": {"vaultkit": server}}, indent=2) + "\n"


def command_text(kind: str) -> str:
    """A slash command as the plugin ships it: ``vaultkit`` on PATH, the plugin's marker."""
    lines = read_template(TEMPLATES[kind]).replace("@VAULTKIT@", "vaultkit").splitlines()
    return "\n".join(PLUGIN_NOTE if line.startswith(MARKER) else line for line in lines) + "\n"


def generated() -> dict[str, str]:
    """Every generated file of the plugin folder, by path below it."""
    files = {"hooks/hooks.json": hooks_json(), ".mcp.json": mcp_json()}
    for kind, name in COMMAND_NAMES.items():
        files[f"commands/{name}.md"] = command_text(kind)
    return files


def write(folder: Path) -> list[str]:
    """Rewrite the generated files below ``folder``; returns those that changed."""
    changed = []
    for rel, text in generated().items():
        path = folder / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, text)
            changed.append(rel)
    return changed


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("plugin")
    for rel in write(target):
        print(f"wrote {target / rel}")
