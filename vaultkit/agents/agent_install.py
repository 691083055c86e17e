"""Installing vaultkit's hooks into Codex CLI's ``hooks.json`` and Gemini CLI's ``settings.json``.

The same safety as Claude Code's settings merge (:func:`vaultkit.agents.install.apply_change`):
foreign entries kept, idempotent, malformed files (a Gemini ``settings.json`` with comments
included) refused with the file named, a one-time backup, atomic writes, and ``uninstall``
restoring the file exactly. User scope: ``$CODEX_HOME/hooks.json`` (default ``~/.codex/``) and
``~/.gemini/settings.json`` (``$GEMINI_CLI_HOME`` stands in for home); project scope: the
project's ``.codex/hooks.json`` and ``.gemini/settings.json``. Trust is part of the install: the
notes say what the user must trust before either CLI runs the hooks.
"""

from __future__ import annotations

import shlex
import sys
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from vaultkit.agents import codex, gemini, hookcmd, known, mcpconfig, settings, trust
from vaultkit.agents.adapter import config_dir
from vaultkit.agents.install import (
    Change,
    Parse,
    Scope,
    ScopeStatus,
    apply_change,
    installed_hook_executable,
    mcp_executable,
    read_text,
    runnable,
)
from vaultkit.errors import VaultkitError

NAMES = ("codex", "gemini")  # the agents this module installs for (Claude's is install.py)
SCOPES = (Scope.user, Scope.project)
Data = dict[str, Any]


def hook_path(name: str, scope: Scope, project: Path, env: Mapping[str, str] | None = None) -> Path:
    """The hook file of ``name`` (codex | gemini) for a scope; ``local`` is Claude Code's only."""
    agent = known.get(name)
    if scope is Scope.user:
        return Path(config_dir(agent, env)) / agent.hook_file
    if scope is Scope.project:
        return project / agent.project_hook_file
    raise VaultkitError(
        f"--scope {scope.value} is Claude Code's only; {agent.display} has user and project",
        hint=f"vaultkit hooks install --agent {name} --scope project",
    )


def _merge(
    name: str,
) -> tuple[Parse, Callable[[Data, tuple[str, ...]], Data], Callable[[Data], Data]]:
    if name == "codex":
        return codex.parse, codex.install, codex.uninstall
    if name == "gemini":
        return gemini.parse, gemini.install, gemini.uninstall
    raise KeyError(name)


def install(name: str, scope: Scope, project: Path, *, dry_run: bool = False) -> Change:
    """Add vaultkit's SessionStart and SessionEnd hooks to the agent's hook file of ``scope``
    (for Gemini CLI also the MCP server, ``mcpServers.vaultkit``); the result's ``commands``
    are the notes to show: what to trust, and for Codex how to add the MCP server."""
    command = hookcmd.hook_command(sys.executable, str(installed_hook_executable()))
    path = hook_path(name, scope, project)
    parse, add, _ = _merge(name)
    server = str(mcp_executable())

    def transform(data: Data) -> Data:
        hooked = add(data, command)
        if name != "gemini":
            return hooked
        return mcpconfig.register(hooked, (), server, str(path), gemini_mcp_entry(server))

    change = apply_change(path, transform, dry_run=dry_run, parse=parse)
    notes = (*trust_notes(name, scope, project), mcp_note(name, path, server))
    return Change(change.path, change.changed, change.diff, notes)


def uninstall(name: str, scope: Scope, project: Path, *, dry_run: bool = False) -> Change:
    """Remove vaultkit's hooks (and only those) from the agent's hook file of ``scope``, and
    from Gemini CLI's settings vaultkit's MCP server."""
    path = hook_path(name, scope, project)
    parse, _, remove = _merge(name)

    def transform(data: Data) -> Data:
        return (
            mcpconfig.unregister(remove(data), (), str(path)) if name == "gemini" else remove(data)
        )

    change = apply_change(path, transform, dry_run=dry_run, parse=parse)
    return Change(change.path, change.changed, change.diff, codex_mcp_left(name))


def codex_mcp_left(name: str) -> tuple[str, ...]:
    """For Codex: the command that removes vaultkit's MCP server when ``config.toml`` has one."""
    if name != "codex":
        return ()
    config = Path(config_dir(codex.AGENT)) / "config.toml"
    try:
        servers = tomllib.loads(config.read_text(encoding="utf-8")).get("mcp_servers")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ()
    if isinstance(servers, dict) and mcpconfig.is_ours(servers.get(mcpconfig.NAME)):
        return (f"{config} still has the MCP server vaultkit: codex mcp remove vaultkit",)
    return ()


def gemini_mcp_entry(executable: str) -> Data:
    """Gemini CLI's stdio MCP server entry: ``vaultkit mcp``."""
    return {"command": executable, "args": ["mcp"]}


def mcp_note(name: str, path: Path, executable: str) -> str:
    """Where the MCP server is registered (Gemini), or the command that adds it (Codex: vaultkit
    does not rewrite the user's ``config.toml``)."""
    if name == "gemini":
        return f"{path} also registers the MCP server vaultkit ({executable} mcp)"
    command = shlex.join(["codex", "mcp", "add", "vaultkit", "--", executable, "mcp"])
    return f"To let Codex search the memory too, add the MCP server: {command}"


def trust_notes(name: str, scope: Scope, project: Path) -> tuple[str, ...]:
    """What the user must trust before the agent runs vaultkit's hooks, and how."""
    if name == "codex":
        notes = [
            "Codex skips these hooks until you trust them: run `codex` in "
            f"{project}, type /hooks, and press t on each vaultkit hook (SessionStart, "
            "SessionEnd). `vaultkit doctor` lists the ones not trusted yet."
        ]
        if scope is Scope.project:
            notes.append(
                f"Codex loads {hook_path(name, scope, project)} only in a trusted project: "
                f"answer yes when `codex` asks whether to trust {project}."
            )
        return tuple(notes)
    folders = trust.gemini_folders()
    notes = [
        f"Gemini CLI runs hooks only in trusted folders ({folders}): trust {project} when "
        "`gemini` asks. `vaultkit doctor` says whether it is trusted."
    ]
    if scope is Scope.project:
        notes.append(
            "The first run of these project hooks shows a one-time warning that "
            "project-level hooks were detected; after that they run without it."
        )
    return tuple(notes)


def scope_status(name: str, scope: Scope, project: Path) -> ScopeStatus:
    """Which of vaultkit's hooks the agent's hook file of ``scope`` holds; an unreadable or
    malformed file is reported in ``error``, not raised."""
    path = hook_path(name, scope, project)
    parse = _merge(name)[0]
    try:
        text = read_text(path)
        data = parse(text or "", str(path))
    except VaultkitError as exc:
        return ScopeStatus(scope.value, str(path), True, {}, [], error=exc.message, agent=name)
    found = {
        event: [settings.executable_of(h) for h in hooks]
        for event, hooks in settings.installed(data).items()
    }
    missing = sorted({exe for exes in found.values() for exe in exes if not runnable(exe)})
    return ScopeStatus(scope.value, str(path), text is not None, found, missing, agent=name)


def hook_data(name: str, scope: Scope, project: Path) -> tuple[Path, Data]:
    """The agent's hook file of ``scope`` and its data (``{}`` when missing); raises
    :class:`VaultkitError` for an unreadable or malformed file."""
    path = hook_path(name, scope, project)
    return path, _merge(name)[0](read_text(path) or "", str(path))
