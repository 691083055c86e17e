"""``vaultkit hooks install|uninstall|status``: vaultkit's entries in Claude Code settings files."""

from __future__ import annotations

import difflib
import json
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.agents import settings, slashcmds
from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.store import git_root
from vaultkit.cli.app import app
from vaultkit.errors import VaultkitError

BACKUP_SUFFIX = ".vaultkit.bak"

hooks_app = typer.Typer(
    help="Install, remove or inspect vaultkit's Claude Code hooks (SessionStart, SessionEnd).",
    no_args_is_help=True,
)
app.add_typer(hooks_app, name="hooks")


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class Scope(StrEnum):
    user = "user"
    project = "project"
    local = "local"


@dataclass(frozen=True, slots=True)
class ScopeStatus:
    """What one settings file holds of vaultkit's hooks."""

    scope: str
    path: str
    exists: bool
    events: dict[str, list[str]]  # event -> executables of vaultkit's entries
    missing: list[str]  # executables that do not exist
    error: str = ""


def project_dir(arg: Path | None) -> Path:
    """``--project`` when given, else the git root of the current folder, else the folder."""
    here = (arg or Path.cwd()).expanduser().resolve()
    return here if arg is not None else (git_root(here) or here)


def settings_path(scope: Scope, project: Path, env: Mapping[str, str] | None = None) -> Path:
    """The settings file of a scope; the user scope honours ``CLAUDE_CONFIG_DIR``."""
    environ = os.environ if env is None else env
    if scope is Scope.user:
        config_dir = environ.get("CLAUDE_CONFIG_DIR")
        base = Path(config_dir).expanduser() if config_dir else Path.home() / ".claude"
        return base / "settings.json"
    name = "settings.json" if scope is Scope.project else "settings.local.json"
    return project / ".claude" / name


def hook_executable() -> Path:
    """The installed ``vaultkit-hook`` script next to the running Python."""
    folder = Path(sys.executable).parent
    name = "vaultkit-hook.exe" if sys.platform == "win32" else "vaultkit-hook"
    return (folder / name).absolute()


def read_text(path: Path) -> str | None:
    """The file's text, or None when it does not exist."""
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise VaultkitError(f"{path}: not UTF-8; left unchanged", hint=f"re-save {path}") from exc
    except OSError as exc:
        raise VaultkitError(f"{path}: cannot read: {exc.strerror}") from exc


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def planned_text(path: Path, old: str | None, new: settings.Settings) -> str | None:
    """The new file text; None means "remove the file" (vaultkit created it, nothing is left).

    When the result equals the backup taken before vaultkit's first change, the backup's exact
    bytes come back (so formatting is restored too)."""
    backup = read_text(backup_path(path))
    if backup is not None:
        try:
            if settings.parse(backup, str(backup_path(path))) == new:
                return backup
        except VaultkitError:
            pass
    if not new and old is not None and backup is None and not settings.parse(old, str(path)):
        return old
    if not new and backup is None:
        return None
    return settings.render(new)


def apply_change(
    path: Path,
    transform: Callable[[settings.Settings], settings.Settings],
    *,
    dry_run: bool,
) -> tuple[bool, str]:
    """Transform a settings file; returns (changed, unified diff). Writes atomically, keeps the
    file's mode, and backs the original up once before vaultkit's first change. A symlinked
    settings file (dotfiles) is edited where it points, so the link survives."""
    if path.is_symlink():
        path = path.resolve()
    old = read_text(path)
    data = settings.parse(old or "", str(path))
    text = planned_text(path, old, transform(data))
    if text == old or (text is None and old is None):
        return False, ""
    diff = "".join(
        difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (text or "").splitlines(keepends=True),
            fromfile=str(path) if old is not None else "/dev/null",
            tofile=str(path) if text is not None else "/dev/null",
        )
    )
    if not dry_run:
        _write(path, old, text)
    return True, diff


def _pristine(path: Path, old: str | None) -> bool:
    """True when ``old`` is the file as it was before vaultkit ever changed it."""
    return old is not None and not settings.installed(settings.parse(old, str(path)))


def _write(path: Path, old: str | None, text: str | None) -> None:
    backup = backup_path(path)
    if _pristine(path, old) and old is not None and not backup.exists():
        atomic_write_text(backup, old, mode=0o600)
    if text is None:
        path.unlink()
        return
    atomic_write_text(path, text)


def _runnable(program: str) -> bool:
    """An absolute path that is a file, or a bare name found on PATH (``python -m …`` forms)."""
    if os.path.isabs(program):
        return Path(program).is_file()
    return shutil.which(program) is not None


def scope_status(scope: Scope, project: Path) -> ScopeStatus:
    path = settings_path(scope, project)
    try:
        text = read_text(path)
        data = settings.parse(text or "", str(path))
    except VaultkitError as exc:
        return ScopeStatus(scope.value, str(path), True, {}, [], error=exc.message)
    found = {
        event: [settings.executable_of(h) for h in hooks]
        for event, hooks in settings.installed(data).items()
    }
    missing = sorted({exe for exes in found.values() for exe in exes if not _runnable(exe)})
    return ScopeStatus(scope.value, str(path), text is not None, found, missing)


ScopeOpt = Annotated[Scope, typer.Option("--scope", help="Which settings file.")]
ProjectOpt = Annotated[
    Path | None, typer.Option("--project", help="Project folder (default: git root).")
]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Print the diff; change nothing.")]
ShellFormOpt = Annotated[
    bool,
    typer.Option("--shell-form", help="One command line instead of command+args (older Claude)."),
]
FormatOpt = Annotated[OutputFormat, typer.Option("--format", help="text or json.")]
PromptHookOpt = Annotated[
    bool,
    typer.Option(
        "--prompt-hook", help="Also UserPromptSubmit: activity log line, context pressure."
    ),
]


def _report(path: Path, changed: bool, diff: str, dry_run: bool, verb: str) -> None:
    if dry_run:
        typer.echo(diff.rstrip("\n") if changed else f"{path}: no change")
    elif changed:
        typer.echo(f"{verb} vaultkit hooks in {path}")
    else:
        typer.echo(f"{path}: already up to date, nothing changed")


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
    exe = hook_executable()
    if not exe.is_file():
        raise VaultkitError(
            f"{exe}: the vaultkit-hook entry point is not installed next to {sys.executable}",
            hint="reinstall vaultkit into this environment: pip install vaultkit",
        )
    path = settings_path(scope, project_dir(project))
    events = settings.EVENTS + ((settings.PROMPT_EVENT,) if prompt_hook else ())
    changed, diff = apply_change(
        path,
        lambda d: settings.install(d, str(exe), shell_form=shell_form, events=events),
        dry_run=dry_run,
    )
    _report(path, changed, diff, dry_run, "installed")
    for line in slashcmds.sync(path, project_dir(project), dry_run=dry_run):
        typer.echo(line, err=True)


@hooks_app.command("uninstall")
def uninstall_cmd(
    scope: ScopeOpt = Scope.user, project: ProjectOpt = None, dry_run: DryRunOpt = False
) -> None:
    """Remove vaultkit's hooks (and only those) from a Claude Code settings file."""
    path = settings_path(scope, project_dir(project))
    changed, diff = apply_change(path, settings.uninstall, dry_run=dry_run)
    _report(path, changed, diff, dry_run, "removed")
    for line in slashcmds.sync(path, project_dir(project), remove=True, dry_run=dry_run):
        typer.echo(line, err=True)


@hooks_app.command("status")
def status_cmd(
    project: ProjectOpt = None,
    fmt: FormatOpt = OutputFormat.text,
) -> None:
    """Show, per scope, which vaultkit hooks are installed and whether their program exists."""
    rows = [scope_status(scope, project_dir(project)) for scope in Scope]
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
