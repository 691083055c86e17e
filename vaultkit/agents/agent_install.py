"""Installing vaultkit's hooks into any agent: its hook file per scope, by the agent's name.

Each agent's ``hooks`` part (``vaultkit.agents.<agent>.hooks``) knows its files and what goes
into them; every one goes through :func:`vaultkit.agents.install.apply_change` (foreign entries
kept, idempotent, malformed files refused with the file named, a one-time backup, atomic writes,
``uninstall`` restoring the file exactly). A scope an agent has no file for is refused with the
scopes it has.
"""

from __future__ import annotations

from pathlib import Path

from vaultkit.agents import known
from vaultkit.agents.install import Change, Data, Options, Scope, ScopeStatus
from vaultkit.errors import VaultkitError


def scopes(name: str) -> tuple[Scope, ...]:
    """The scopes agent ``name`` has a hook file for."""
    return known.hooks(name).SCOPES


def owners(scope: Scope) -> str:
    """The agents that have a hook file for ``scope`` (``"Claude Code"`` for ``local``)."""
    return " and ".join(known.get(n).display for n in known.names() if scope in scopes(n))


def check_scope(name: str, scope: Scope) -> None:
    """Refuse a scope agent ``name`` has no hook file for, naming the agents that have it."""
    if scope in scopes(name):
        return
    has = " and ".join(s.value for s in scopes(name))
    example = scopes(name)[-1].value
    raise VaultkitError(
        f"--scope {scope.value} is {owners(scope)}'s only; {known.get(name).display} has {has}",
        hint=f"vaultkit hooks install --agent {name} --scope {example}",
    )


def hook_path(name: str, scope: Scope, project: Path) -> Path:
    """The hook file of agent ``name`` for ``scope`` (refused for a scope it lacks)."""
    check_scope(name, scope)
    return known.hooks(name).hook_path(scope, project)


DEFAULTS = Options()


def install(
    name: str, scope: Scope, project: Path, *, dry_run: bool = False, options: Options = DEFAULTS
) -> Change:
    """Add vaultkit's hooks to agent ``name``'s hook file of ``scope``; the result's ``notes``
    say what the user must do next (trust them)."""
    check_scope(name, scope)
    return known.hooks(name).install_scope(scope, project, dry_run=dry_run, options=options)


def uninstall(name: str, scope: Scope, project: Path, *, dry_run: bool = False) -> Change:
    """Remove vaultkit's hooks (and only those) from agent ``name``'s hook file of ``scope``."""
    check_scope(name, scope)
    return known.hooks(name).uninstall_scope(scope, project, dry_run=dry_run)


def scope_status(name: str, scope: Scope, project: Path) -> ScopeStatus:
    """Which of vaultkit's hooks agent ``name``'s hook file of ``scope`` holds; an unreadable or
    malformed file is reported in ``error``, not raised."""
    return known.hooks(name).scope_status(scope, project)


def status(name: str, project: Path) -> list[ScopeStatus]:
    """:func:`scope_status` of each of the agent's scopes, user first."""
    return [scope_status(name, scope, project) for scope in scopes(name)]


def hook_data(name: str, scope: Scope, project: Path) -> tuple[Path, Data]:
    """Agent ``name``'s hook file of ``scope`` and its data (``{}`` when missing); raises
    :class:`VaultkitError` for an unreadable or malformed file."""
    return known.hooks(name).hook_data(scope, project)
