"""``vaultkit hooks install|uninstall|status``: vaultkit's entries in Claude Code settings files."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from vaultkit.agents import install
from vaultkit.agents.install import Change, Scope, ScopeStatus
from vaultkit.cli.app import app
from vaultkit.cli.common import project_dir
from vaultkit.cli.options import FormatOpt, OutputFormat, ProjectOpt

hooks_app = typer.Typer(
    help="Install, remove or inspect vaultkit's Claude Code hooks (SessionStart, SessionEnd).",
    no_args_is_help=True,
)
app.add_typer(hooks_app, name="hooks")

ScopeOpt = Annotated[Scope, typer.Option("--scope", help="Which settings file.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Print the diff; change nothing.")]
ShellFormOpt = Annotated[
    bool,
    typer.Option("--shell-form", help="One command line instead of command+args (older Claude)."),
]
PromptHookOpt = Annotated[
    bool,
    typer.Option(
        "--prompt-hook", help="Also UserPromptSubmit: activity log line, context pressure."
    ),
]


def _report(change: Change, dry_run: bool, verb: str, where: str) -> None:
    """The diff (dry run) or one line on stdout; the slash command messages on stderr."""
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


@hooks_app.command("install")
def install_cmd(
    scope: ScopeOpt = Scope.user,
    project: ProjectOpt = None,
    dry_run: DryRunOpt = False,
    shell_form: ShellFormOpt = False,
    prompt_hook: PromptHookOpt = False,
) -> None:
    """Add vaultkit's SessionStart and SessionEnd hooks to a Claude Code settings file,
    and the /handoff and /save-handoff slash commands beside it."""
    change = install.install(
        scope,
        project_dir(project),
        dry_run=dry_run,
        shell_form=shell_form,
        prompt_hook=prompt_hook,
    )
    _report(change, dry_run, "install", "in")


@hooks_app.command("uninstall")
def uninstall_cmd(
    scope: ScopeOpt = Scope.user, project: ProjectOpt = None, dry_run: DryRunOpt = False
) -> None:
    """Remove vaultkit's hooks (and only those) from a Claude Code settings file."""
    change = install.uninstall(scope, project_dir(project), dry_run=dry_run)
    _report(change, dry_run, "remove", "from")


@hooks_app.command("status")
def status_cmd(
    project: ProjectOpt = None,
    fmt: FormatOpt = OutputFormat.text,
) -> None:
    """Show, per scope, which vaultkit hooks are installed and whether their program exists."""
    rows = install.status(project_dir(project))
    if fmt is OutputFormat.json:
        typer.echo(json.dumps([_as_json(r) for r in rows], indent=2, ensure_ascii=False))
        return
    for row in rows:
        typer.echo(_as_text(row))


def _as_json(row: ScopeStatus) -> dict[str, object]:
    return {
        "scope": row.scope,
        "path": row.path,
        "exists": row.exists,
        "events": row.events,
        "missing_executables": row.missing,
        "error": row.error,
    }


def _as_text(row: ScopeStatus) -> str:
    head = f"{row.scope:<8}{row.path}"
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
