"""``vaultkit hooks install|uninstall|status``: vaultkit's hooks in each agent's configuration."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.agents import agent_install, detect, known
from vaultkit.agents.detect import Choice
from vaultkit.agents.install import Change, Options, Scope, ScopeStatus
from vaultkit.cli.app import group
from vaultkit.cli.common import project_dir
from vaultkit.cli.options import FormatOpt, OutputFormat, ProjectOpt

hooks_app = group("hooks", no_args_is_help=True)

ScopeOpt = Annotated[
    Scope, typer.Option("--scope", help="Which file: user, project, or local (Claude Code only).")
]
AgentOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--agent",
        help="claude, codex, gemini or all; repeat or comma-separate. Default: every agent found"
        " on this machine (its CLI on PATH or its config folder), else claude.",
        show_default=False,
    ),
]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Print the diff; change nothing.")]
ShellFormOpt = Annotated[
    bool,
    typer.Option(
        "--shell-form", help="One command line instead of command+args (older Claude Code)."
    ),
]
PromptHookOpt = Annotated[
    bool,
    typer.Option(
        "--prompt-hook",
        help="Also UserPromptSubmit (Claude Code): activity log line, context pressure.",
    ),
]


def _choose(agents: list[str] | None, scope: Scope | None, project: Path) -> Choice:
    """The agents asked for (or found); a scope an agent lacks is an error when it was named,
    and drops the agent when it was only found."""
    try:
        choice = detect.choose(agents or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--agent") from exc
    if scope is None:
        return choice
    if agents:
        for name in choice.names:
            agent_install.check_scope(name, scope)  # raises for a scope the agent lacks
        return choice
    kept = tuple(n for n in choice.names if scope in agent_install.scopes(n))
    if kept == choice.names:
        return choice
    dropped = ", ".join(n for n in choice.names if n not in kept)
    owners = agent_install.owners(scope)
    why = f"{choice.why}; {dropped} left out: --scope {scope.value} is {owners}'s only"
    return Choice(kept or (known.DEFAULT,), why)


def _report(change: Change, dry_run: bool, verb: str, where: str) -> None:
    """The diff (dry run) or one line on stdout; then what else changed (slash commands, MCP
    server: stderr) and what the user must do next (trust the hooks: stdout, not in a dry
    run)."""
    if dry_run:
        typer.echo(change.diff.rstrip("\n") if change.changed else f"{change.path}: no change")
        if change.changed:
            typer.echo(f"would {verb} vaultkit hooks {where} {change.path}", err=True)
    elif change.changed:
        done = "installed" if verb == "install" else "removed"
        typer.echo(f"{done} vaultkit hooks in {change.path}")
    else:
        typer.echo(f"{change.path}: already up to date, nothing changed")
    for line in change.commands:
        typer.echo(line, err=True)
    for line in () if dry_run else change.notes:
        typer.echo(line)


@hooks_app.command("install")
def install_cmd(
    agent: AgentOpt = None,
    scope: ScopeOpt = Scope.user,
    project: ProjectOpt = None,
    dry_run: DryRunOpt = False,
    shell_form: ShellFormOpt = False,
    prompt_hook: PromptHookOpt = False,
) -> None:
    """Add vaultkit's SessionStart and SessionEnd hooks to each agent's configuration: Claude
    Code's settings.json (with the /handoff and /save-handoff slash commands and the MCP server),
    Codex's hooks.json, Gemini CLI's settings.json; then say what each agent must trust."""
    folder = project_dir(project)
    choice = _choose(agent, scope, folder)

    options = Options(shell_form=shell_form, prompt_hook=prompt_hook)

    def one(name: str, dry: bool) -> Change:
        return agent_install.install(name, scope, folder, dry_run=dry, options=options)

    _run(choice, one, dry_run, "install", "in")


@hooks_app.command("uninstall")
def uninstall_cmd(
    agent: AgentOpt = None,
    scope: ScopeOpt = Scope.user,
    project: ProjectOpt = None,
    dry_run: DryRunOpt = False,
) -> None:
    """Remove vaultkit's hooks (and only those) from each agent's configuration."""
    folder = project_dir(project)
    choice = _choose(agent, scope, folder)

    def one(name: str, dry: bool) -> Change:
        return agent_install.uninstall(name, scope, folder, dry_run=dry)

    _run(choice, one, dry_run, "remove", "from")


def _run(
    choice: Choice,
    one: Callable[[str, bool], Change],
    dry_run: bool,
    verb: str,
    where: str,
) -> None:
    """Plan every agent first (a malformed file stops everything before anything is written),
    then change each and report it."""
    planned = [one(name, True) for name in choice.names]
    typer.echo(choice.why, err=True)
    changes = planned if dry_run else [one(name, False) for name in choice.names]
    for change in changes:
        _report(change, dry_run, verb, where)


@hooks_app.command("status")
def status_cmd(
    agent: AgentOpt = None,
    project: ProjectOpt = None,
    fmt: FormatOpt = OutputFormat.text,
) -> None:
    """Show, per agent and scope, which vaultkit hooks are installed and whether their program
    exists (default: the agents found on this machine, else claude)."""
    folder = project_dir(project)
    rows: list[ScopeStatus] = []
    for name in _choose(agent, None, folder).names:
        rows += agent_install.status(name, folder)
    if fmt is OutputFormat.json:
        typer.echo(json.dumps([_as_json(r) for r in rows], indent=2, ensure_ascii=False))
        return
    for row in rows:
        typer.echo(_as_text(row))


def _as_json(row: ScopeStatus) -> dict[str, object]:
    return {
        "agent": row.agent,
        "scope": row.scope,
        "path": row.path,
        "exists": row.exists,
        "events": row.events,
        "missing_executables": row.missing,
        "error": row.error,
    }


def _as_text(row: ScopeStatus) -> str:
    tag = known.get(row.agent).tag
    label = f"{tag} {row.scope}" if tag else row.scope
    head = f"{label:<8}{row.path}" if len(label) < 8 else f"{label} {row.path}"
    if row.error:
        return f"{head}\n        error: {row.error}"
    if not row.events:
        return f"{head}\n        {'no vaultkit hooks' if row.exists else 'file does not exist'}"
    lines = [head]
    for event, exes in sorted(row.events.items()):
        for exe in exes:
            state = "ok" if exe not in row.missing else "MISSING executable"
            lines.append(f"        {event}: {exe} ({state})")
    return "\n".join(lines)
