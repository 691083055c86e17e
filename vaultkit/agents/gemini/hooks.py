"""Installing vaultkit's hooks (and its MCP server) into Gemini CLI's ``settings.json``.

Hooks live in ``settings.json`` (``~/.gemini/``, where ``$GEMINI_CLI_HOME`` stands in for home,
or a project's ``.gemini/``) and run only in a trusted folder (:mod:`.trust`), so the install's
notes say so. The same file gets ``mcpServers.vaultkit``, removed by uninstall. A
``settings.json`` with comments is refused (vaultkit would lose them on rewrite).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vaultkit.agents import hookmerge, mcpconfig
from vaultkit.agents.adapter import config_dir
from vaultkit.agents.gemini import AGENT
from vaultkit.agents.gemini.trust import folders_file
from vaultkit.agents.install import (
    Change,
    Data,
    Options,
    Scope,
    ScopeStatus,
    apply_change,
    file_status,
    hook_words,
    mcp_command,
    mcp_program,
    path_notes,
    read_text,
)

SCOPES = (Scope.user, Scope.project)
EVENTS = (AGENT.start_event, AGENT.end_event)
TIMEOUTS_MS = {AGENT.start_event: 10_000, AGENT.end_event: 5_000}


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


def parse(text: str, where: str) -> Data:
    return hookmerge.parse(text, where, EVENTS)


def install(data: dict[str, Any], executable: str | Sequence[str]) -> dict[str, Any]:
    """``settings.json`` data with vaultkit's SessionStart and SessionEnd hooks in place."""
    return hookmerge.install(data, {e: hook_entry(executable, e) for e in EVENTS})


def uninstall(data: dict[str, Any]) -> dict[str, Any]:
    return hookmerge.uninstall(data)


def hook_path(scope: Scope, project: Path, env: Mapping[str, str] | None = None) -> Path:
    """``~/.gemini/settings.json`` (user) or the project's ``.gemini/settings.json``."""
    if scope is Scope.user:
        return Path(config_dir(AGENT, env)) / AGENT.hook_file
    return project / AGENT.project_hook_file


def mcp_entry(executable: str) -> Data:
    """Gemini CLI's stdio MCP server entry: ``vaultkit mcp``."""
    return {"command": executable, "args": ["mcp"]}


def install_scope(scope: Scope, project: Path, *, dry_run: bool, options: Options) -> Change:
    """Add vaultkit's SessionStart and SessionEnd hooks and its MCP server to the scope's
    ``settings.json``; the notes say what to trust."""
    command = hook_words(scope)  # vaultkit-hook in the project's committed file
    path = hook_path(scope, project)
    server = mcp_command(scope)

    def transform(data: Data) -> Data:
        return mcpconfig.register(install(data, command), (), server, str(path), mcp_entry(server))

    change = apply_change(path, transform, dry_run=dry_run, parse=parse)
    notes = (
        *trust_notes(scope, project),
        f"{path} also registers the MCP server vaultkit ({server} mcp)",
        *path_notes(scope, mcp=True),
    )
    return Change(change.path, change.changed, change.diff, notes=notes)


def uninstall_scope(scope: Scope, project: Path, *, dry_run: bool) -> Change:
    """Remove vaultkit's hooks and its MCP server (and only those) from ``settings.json``."""
    path = hook_path(scope, project)

    def transform(data: Data) -> Data:
        return mcpconfig.unregister(uninstall(data), (), str(path))

    change = apply_change(path, transform, dry_run=dry_run, parse=parse)
    return Change(change.path, change.changed, change.diff)


def trust_notes(scope: Scope, project: Path) -> tuple[str, ...]:
    """What the user must trust before Gemini CLI runs vaultkit's hooks."""
    notes = [
        f"Gemini CLI runs hooks only in trusted folders ({folders_file()}): trust {project} when "
        "`gemini` asks. `vaultkit doctor` says whether it is trusted."
    ]
    if scope is Scope.project:
        notes.append(
            "The first run of these project hooks shows a one-time warning that "
            "project-level hooks were detected; after that they run without it."
        )
    return tuple(notes)


def scope_status(scope: Scope, project: Path) -> ScopeStatus:
    """Which of vaultkit's hooks the scope's ``settings.json`` holds (errors reported, not
    raised)."""
    return file_status(hook_path(scope, project), scope, parse, AGENT.name, mcp_program)


def hook_data(scope: Scope, project: Path) -> tuple[Path, Data]:
    """The scope's ``settings.json`` and its data (``{}`` when missing); raises for a malformed
    one."""
    path = hook_path(scope, project)
    return path, parse(read_text(path) or "", str(path))
