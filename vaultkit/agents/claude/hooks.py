"""Installing vaultkit into Claude Code: its hook entries in a settings file, and their status.

Which settings file a scope means (``user``: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``; ``project``
and ``local``: the project's ``.claude/``), the hooks merged into it (:mod:`.settings`), the
slash commands beside it (:mod:`vaultkit.agents.slashcmds`) and the MCP server registered for
the scope (:mod:`vaultkit.agents.mcpconfig`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from vaultkit.agents import mcpconfig
from vaultkit.agents.claude import AGENT, settings, slashcmds
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
from vaultkit.errors import VaultkitError

SCOPES = tuple(Scope)


def hook_path(scope: Scope, project: Path, env: Mapping[str, str] | None = None) -> Path:
    """The settings file of a scope; the user scope honours ``CLAUDE_CONFIG_DIR``."""
    environ = os.environ if env is None else env
    if scope is Scope.user:
        config_dir = environ.get("CLAUDE_CONFIG_DIR")
        base = Path(config_dir).expanduser() if config_dir else Path.home() / ".claude"
        return base / "settings.json"
    name = "settings.json" if scope is Scope.project else "settings.local.json"
    return project / ".claude" / name


def install_scope(scope: Scope, project: Path, *, dry_run: bool, options: Options) -> Change:
    """Add vaultkit's hooks to a scope's settings file, and the slash commands beside it (the
    project's committed files name bare commands; the others this environment's paths)."""
    command = hook_words(scope)  # vaultkit-hook, or python -I -S …/vaultkit_hook.py
    path = hook_path(scope, project)
    events = settings.EVENTS + ((settings.PROMPT_EVENT,) if options.prompt_hook else ())
    approve = mcpconfig.approve if scope is Scope.project else _same

    def transform(data: Data) -> Data:
        hooked = settings.install(data, command, shell_form=options.shell_form, events=events)
        return approve(hooked)

    change = apply_change(path, transform, dry_run=dry_run, parse=settings.parse)
    commands = slashcmds.sync(path, project, dry_run=dry_run)
    commands.append(_mcp(scope, project, dry_run=dry_run, remove=False))
    notes = path_notes(scope, mcp=True)
    return Change(change.path, change.changed, change.diff, tuple(commands), notes)


def uninstall_scope(scope: Scope, project: Path, *, dry_run: bool) -> Change:
    """Remove vaultkit's hooks (and only those), its slash commands and its MCP server."""
    path = hook_path(scope, project)
    unapprove = mcpconfig.unapprove if scope is Scope.project else _same
    change = apply_change(
        path, lambda d: unapprove(settings.uninstall(d)), dry_run=dry_run, parse=settings.parse
    )
    commands = slashcmds.sync(path, project, remove=True, dry_run=dry_run)
    commands.append(_mcp(scope, project, dry_run=dry_run, remove=True))
    return Change(change.path, change.changed, change.diff, tuple(c for c in commands if c))


def _same(data: Data) -> Data:
    return data


def mcp_file(
    scope: Scope, project: Path, env: Mapping[str, str] | None = None
) -> tuple[Path, tuple[str, ...]]:
    """Where a scope's MCP servers live, and the keys above ``mcpServers`` in that file."""
    environ = os.environ if env is None else env
    if scope is Scope.project:
        return project / ".mcp.json", ()
    config_dir = environ.get("CLAUDE_CONFIG_DIR")
    state = Path(config_dir).expanduser() if config_dir else Path.home()
    keys = () if scope is Scope.user else ("projects", str(project.resolve()))
    return state / ".claude.json", keys


WRITE_TOOLS_NOTE = (
    "its write tools (write_note, edit_note, move_note) are off: to let the agent write to "
    'the wiki, add "--allow-write" after "mcp" in the server\'s "args" there'
)


def _mcp(scope: Scope, project: Path, *, dry_run: bool, remove: bool) -> str:
    """Register (or remove) the MCP server for a scope; one message saying what happened."""
    path, keys = mcp_file(scope, project)
    where = str(path)
    if remove:
        change = apply_change(
            path,
            lambda d: mcpconfig.unregister(d, keys, where),
            dry_run=dry_run,
            parse=settings.parse,
        )
        if not change.changed:
            return ""
        return f"{'would remove' if dry_run else 'removed'} MCP server vaultkit from {path}"
    exe = mcp_command(scope)
    change = apply_change(
        path,
        lambda d: mcpconfig.register(d, keys, exe, where),
        dry_run=dry_run,
        parse=settings.parse,
    )
    if not change.changed:
        return f"{path}: MCP server vaultkit already registered\n{WRITE_TOOLS_NOTE}"
    verb = "would register" if dry_run else "registered"
    return f"{verb} MCP server vaultkit ({exe} mcp) in {path}\n{WRITE_TOOLS_NOTE}"


def scope_status(scope: Scope, project: Path) -> ScopeStatus:
    """Which of vaultkit's hooks a scope's settings file holds, its MCP server's program, and
    which programs are missing; an unreadable or malformed file is reported in ``error``."""

    def server(data: Data) -> str:
        path, keys = mcp_file(scope, project)
        return mcp_program(_load(path), keys)

    return file_status(hook_path(scope, project), scope, settings.parse, AGENT.name, server)


def _load(path: Path) -> object:
    """A JSON file's data, or None when it is missing or unreadable (status never raises)."""
    try:
        return settings.parse(read_text(path) or "", str(path))
    except VaultkitError:
        return None


def hook_data(scope: Scope, project: Path) -> tuple[Path, Data]:
    """A scope's settings file and its data (``{}`` when missing); raises
    :class:`~vaultkit.errors.VaultkitError` for an unreadable or malformed file."""
    path = hook_path(scope, project)
    return path, settings.parse(read_text(path) or "", str(path))
