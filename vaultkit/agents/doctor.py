"""``vaultkit doctor``'s agent part: per agent its CLI, vaultkit's hooks and whether they will run.

Each agent's own findings come from its ``doctor`` module (``vaultkit.agents.<agent>.doctor``):
Claude Code's settings files and plugin; for the others, :func:`other` (the CLI on PATH, the
hook files and their events) plus what the agent must trust before it runs them. An agent that
is not on this machine is one ``ok`` line; hooks installed but not trusted are a warning with
the fix.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal

from vaultkit.agents import agent_install, detect, known
from vaultkit.agents.install import ScopeStatus
from vaultkit.base import dist
from vaultkit.base.record import Record

Status = Literal["ok", "warn", "fail"]
EVENTS = ("SessionStart", "SessionEnd")


class Finding(Record):
    """One doctor line: what was checked, how it went, and the fix when it is not ok."""

    name: str
    status: Status
    detail: str
    fix: str = ""


Trusts = Callable[[list[ScopeStatus], Path, Mapping[str, str]], list["Finding"]]


def findings(folder: Path, env: Mapping[str, str] | None = None) -> list[Finding]:
    """Every agent's findings for the project ``folder``, in registry order (Claude Code
    first); the agents that are not on this machine in one line at the end."""
    environ = os.environ if env is None else env
    rows = {name: agent_install.status(name, folder) for name in known.names()}
    hooked = {name for name, scopes in rows.items() if any(r.events for r in scopes)}
    found = detect.found(environ)
    result: list[Finding] = []
    absent: list[str] = []
    for name in known.names():
        part = known.doctor(name)
        always = part is not None and part.ALWAYS
        if not always and name not in found and not _any_file(rows[name]):
            absent.append(name)
            continue
        if part is None:  # an agent without findings of its own: CLI, files and events only
            result += other(name, rows[name], folder, environ, _no_trust)
            continue
        others = bool(hooked - {name})
        result += part.findings(rows[name], folder, environ, others_installed=others)
    if absent:
        why = "not on this machine (no CLI on PATH, no config folder, no vaultkit hooks)"
        result.append(Finding("agents", "ok", f"{', '.join(absent)}: {why}"))
    return result


def _no_trust(hooked: list[ScopeStatus], folder: Path, env: Mapping[str, str]) -> list[Finding]:
    return []


def _any_file(rows: list[ScopeStatus]) -> bool:
    return any(r.events or r.error for r in rows)


def files(rows: list[ScopeStatus], fix: str) -> list[Finding]:
    """Malformed hook files, hooks pointing at a missing program, and bare commands (a
    committed file's) that do not resolve on this machine's PATH."""
    out = [
        Finding(f"hooks ({label(r)})", "fail", r.error, f"fix the JSON in {r.path}")
        for r in rows
        if r.error
    ]
    for r in rows:
        paths = [p for p in r.missing if os.path.isabs(p)]
        bare = [p for p in r.missing if not os.path.isabs(p)]
        if paths:
            detail = f"{r.path} points at a missing program: {', '.join(paths)}"
            out.append(Finding(f"hooks ({label(r)})", "fail", detail, f"{fix} --scope {r.scope}"))
        if bare:
            said = ", ".join(bare)
            detail = f"{r.path}{_and_mcp(r)} run {said} from PATH, but it is not on PATH here"
            install = f"install vaultkit: {dist.INSTALL}"
            out.append(Finding(f"hooks ({label(r)})", "fail", detail, install))
    return out


def resolved(rows: list[ScopeStatus], env: Mapping[str, str]) -> list[Finding]:
    """For each file a team commits: where its bare commands resolve on this machine."""
    out = []
    path = env.get("PATH", os.defpath)
    for r in rows:
        hooks = {p for exes in r.events.values() for p in exes}
        bare = sorted(p for p in {*hooks, r.mcp} if p and not os.path.isabs(p))
        found = {p: shutil.which(p, path=path) for p in bare if p not in r.missing}
        if r.error or not found:
            continue
        where = ", ".join(f"{p} -> {found[p]}" for p in sorted(found) if found[p])
        out.append(Finding(f"commands ({label(r)})", "ok", f"{r.path}{_and_mcp(r)}: {where}"))
    return out


def _and_mcp(row: ScopeStatus) -> str:
    """`` and its MCP server`` when the scope's MCP entry is a bare command too."""
    return " and its MCP server" if row.mcp and not os.path.isabs(row.mcp) else ""


def label(row: ScopeStatus) -> str:
    """``user`` for the default agent's scope, ``codex user`` for another agent's."""
    tag = known.get(row.agent).tag
    return f"{tag} {row.scope}" if tag else row.scope


def other(
    name: str, rows: list[ScopeStatus], folder: Path, env: Mapping[str, str], trusts: Trusts
) -> list[Finding]:
    """An agent's CLI, hook files and events, then what ``trusts`` finds of its trust."""
    cli = detect.program(name)
    located = shutil.which(cli, path=env.get("PATH", os.defpath))
    hooked = [r for r in rows if r.events]
    out = [_cli(name, located, bool(hooked))]
    out += files(rows, f"vaultkit hooks install --agent {name}")
    if not hooked:
        if not any(r.error for r in rows):
            fix = f"vaultkit hooks install --agent {name} adds them"
            out.append(Finding(f"hooks ({name})", "ok", f"none installed ({fix})"))
        return out
    out += [_events(name, r) for r in hooked]
    return out + resolved(rows, env) + trusts(hooked, folder, env)


def _cli(name: str, located: str | None, hooked: bool) -> Finding:
    if located:
        return Finding(f"{name} CLI", "ok", located)
    status: Status = "warn" if hooked else "ok"
    cli = detect.program(name)
    fix = f"install {cli}, or vaultkit hooks uninstall --agent {name}"
    return Finding(f"{name} CLI", status, f"{cli!r} is not on PATH", fix)


def _events(name: str, row: ScopeStatus) -> Finding:
    missing = [e for e in EVENTS if e not in row.events]
    label = f"hooks ({name} {row.scope})"
    if missing:
        return Finding(
            label,
            "warn",
            f"{row.path} lacks {', '.join(missing)}",
            f"vaultkit hooks install --agent {name} --scope {row.scope}",
        )
    return Finding(label, "ok", f"{', '.join(EVENTS)} in {row.path}")
