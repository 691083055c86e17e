"""Installing vaultkit's hooks into Codex CLI's ``hooks.json``, and what the user must trust.

vaultkit writes Codex hooks into ``$CODEX_HOME/hooks.json`` (user scope; default ``~/.codex/``)
or the project's ``.codex/hooks.json`` rather than ``[hooks]`` in ``config.toml``: it is a file
of its own in the JSON shape the stdlib round-trips exactly, while rewriting the user's main TOML
config would need a TOML writer and would lose its formatting. Codex runs a hook only once the
user trusted it (:mod:`.trust`), so the install's notes say how; vaultkit does not edit
``config.toml``, so the MCP server is a command to run.
"""

from __future__ import annotations

import shlex
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vaultkit.agents import hookmerge, mcpconfig
from vaultkit.agents.adapter import config_dir
from vaultkit.agents.codex import AGENT
from vaultkit.agents.install import (
    Change,
    Data,
    Options,
    Scope,
    ScopeStatus,
    apply_change,
    file_status,
    hook_words,
    mcp_executable,
    path_notes,
    read_text,
)

SCOPES = (Scope.user, Scope.project)
EVENTS = (AGENT.start_event, AGENT.end_event)
# Codex clamps SessionEnd hooks to 3 s (and warns about anything longer).
TIMEOUTS = {AGENT.start_event: 10, AGENT.end_event: 3}


def hook_entry(executable: str | Sequence[str], event: str) -> dict[str, Any]:
    """vaultkit's hook for ``event`` (Codex runs ``command`` through the shell): ``executable``
    is the console script or the words of :func:`vaultkit.agents.hookcmd.hook_command`;
    ``--agent codex`` tells the hook whose payload it reads."""
    command = command_line(executable, event)
    return {"type": "command", "command": command, "timeout": TIMEOUTS[event]}


def command_line(executable: str | Sequence[str], event: str) -> str:
    """``executable`` (one word or several), the event and ``--agent codex`` as a shell line."""
    words = (executable,) if isinstance(executable, str) else tuple(executable)
    return " ".join(shlex.quote(w) for w in (*words, event, "--agent", AGENT.name))


def parse(text: str, where: str) -> Data:
    return hookmerge.parse(text, where, EVENTS)


def install(data: dict[str, Any], executable: str | Sequence[str]) -> dict[str, Any]:
    """``hooks.json`` data with vaultkit's SessionStart and SessionEnd hooks in place."""
    return hookmerge.install(data, {e: hook_entry(executable, e) for e in EVENTS})


def uninstall(data: dict[str, Any]) -> dict[str, Any]:
    return hookmerge.uninstall(data)


def hook_path(scope: Scope, project: Path, env: Mapping[str, str] | None = None) -> Path:
    """``$CODEX_HOME/hooks.json`` (user) or the project's ``.codex/hooks.json``."""
    if scope is Scope.user:
        return Path(config_dir(AGENT, env)) / AGENT.hook_file
    return project / AGENT.project_hook_file


def install_scope(scope: Scope, project: Path, *, dry_run: bool, options: Options) -> Change:
    """Add vaultkit's SessionStart and SessionEnd hooks to the scope's ``hooks.json``; the notes
    say what to trust and how to add the MCP server."""
    command = hook_words(scope)  # vaultkit-hook in the project's committed file
    path = hook_path(scope, project)
    change = apply_change(path, lambda d: install(d, command), dry_run=dry_run, parse=parse)
    notes = (
        *trust_notes(scope, project),
        *path_notes(scope, mcp=False),
        # `codex mcp add` writes the user's config.toml, so this environment's path is right
        mcp_note(str(mcp_executable())),
    )
    return Change(change.path, change.changed, change.diff, notes=notes)


def uninstall_scope(scope: Scope, project: Path, *, dry_run: bool) -> Change:
    """Remove vaultkit's hooks (and only those) from the scope's ``hooks.json``."""
    change = apply_change(hook_path(scope, project), uninstall, dry_run=dry_run, parse=parse)
    return Change(change.path, change.changed, change.diff, notes=mcp_left())


def mcp_left(env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The command that removes vaultkit's MCP server when ``config.toml`` has one."""
    config = Path(config_dir(AGENT, env)) / "config.toml"
    try:
        servers = tomllib.loads(config.read_text(encoding="utf-8")).get("mcp_servers")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ()
    if isinstance(servers, dict) and mcpconfig.is_ours(servers.get(mcpconfig.NAME)):
        return (f"{config} still has the MCP server vaultkit: codex mcp remove vaultkit",)
    return ()


def mcp_note(executable: str) -> str:
    """The command that adds the MCP server (vaultkit does not rewrite ``config.toml``)."""
    command = shlex.join(["codex", "mcp", "add", "vaultkit", "--", executable, "mcp"])
    return f"To let Codex search the memory too, add the MCP server: {command}"


REVIEW = (
    'at "Hooks need review" choose Review hooks (later: type /hooks), pick each vaultkit event'
    " (SessionStart, SessionEnd), press Enter, then t"
)


def trust_notes(scope: Scope, project: Path) -> tuple[str, ...]:
    """What the user must trust before Codex runs vaultkit's hooks, and how (the dialogs of the
    Codex 0.171 TUI: "Trust this folder?" first, then "Hooks need review")."""
    notes = [
        f"Codex skips these hooks until you trust them: run `codex` in {project}; after its "
        f'"Trust this folder?" question, {REVIEW}. `vaultkit doctor` lists the ones not trusted'
        " yet."
    ]
    if scope is Scope.project:
        notes.append(
            f"Codex loads {hook_path(scope, project)} only in a trusted project: answer"
            f' "Trust and continue" when `codex` asks "Trust this folder?" in {project}.'
        )
    return tuple(notes)


def scope_status(scope: Scope, project: Path) -> ScopeStatus:
    """Which of vaultkit's hooks the scope's ``hooks.json`` holds (errors reported, not raised)."""
    return file_status(hook_path(scope, project), scope, parse, AGENT.name)


def hook_data(scope: Scope, project: Path) -> tuple[Path, Data]:
    """The scope's ``hooks.json`` and its data (``{}`` when missing); raises for a malformed one."""
    path = hook_path(scope, project)
    return path, parse(read_text(path) or "", str(path))
