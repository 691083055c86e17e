"""Installing vaultkit into Claude Code: its hook entries in a settings file, and their status.

Plain functions returning values: which settings file a scope means, the planned new text and
its diff, the atomic write with a one-time backup of the hand-written original, and what each
scope holds of vaultkit's hooks. The slash commands beside the settings file come from
:mod:`vaultkit.agents.slashcmds`. Every refusal is a :class:`VaultkitError` naming the file.
"""

from __future__ import annotations

import difflib
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from vaultkit.agents import hookcmd, mcpconfig, settings, slashcmds
from vaultkit.base.fsio import atomic_write_text
from vaultkit.errors import VaultkitError

BACKUP_SUFFIX = ".vaultkit.bak"
Parse = Callable[[str, str], settings.Settings]  # file text, where → data (refuses bad files)


class Scope(StrEnum):
    """Which Claude Code settings file: the user's, the project's, or the project's local one."""

    user = "user"
    project = "project"
    local = "local"


@dataclass(frozen=True, slots=True)
class Change:
    """What installing or removing did (or, in a dry run, would do) to one settings file."""

    path: Path
    changed: bool
    diff: str  # unified diff of the settings file; empty when nothing changes
    commands: tuple[str, ...] = ()  # one message per slash command file


@dataclass(frozen=True, slots=True)
class ScopeStatus:
    """What one settings file holds of vaultkit's hooks."""

    scope: str
    path: str
    exists: bool
    events: dict[str, list[str]]  # event -> executables of vaultkit's entries
    missing: list[str]  # executables that do not exist
    error: str = ""
    agent: str = "claude"


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


def installed_hook_executable() -> Path:
    """:func:`hook_executable`, refused with the fix when it is not there."""
    exe = hook_executable()
    if not exe.is_file():
        raise VaultkitError(
            f"{exe}: the vaultkit-hook entry point is not installed next to {sys.executable}",
            hint="reinstall vaultkit into this environment: pip install vaultkit",
        )
    return exe


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
    """Where the file as it was before vaultkit's first change is kept."""
    return path.with_name(path.name + BACKUP_SUFFIX)


def planned_text(
    path: Path, old: str | None, new: settings.Settings, parse: Parse = settings.parse
) -> str | None:
    """The new file text; None means "remove the file" (vaultkit created it, nothing is left).

    When the result equals the backup taken before vaultkit's first change, the backup's exact
    bytes come back (so formatting is restored too)."""
    backup = read_text(backup_path(path))
    if backup is not None:
        try:
            if parse(backup, str(backup_path(path))) == new:
                return backup
        except VaultkitError:
            pass
    if not new and old is not None and backup is None and not parse(old, str(path)):
        return old
    if not new and backup is None:
        return None
    return settings.render(new)


def apply_change(
    path: Path,
    transform: Callable[[settings.Settings], settings.Settings],
    *,
    dry_run: bool,
    parse: Parse = settings.parse,
) -> Change:
    """Transform a settings file. Writes atomically, keeps the file's mode, and backs the
    original up once before vaultkit's first change. A symlinked settings file (dotfiles) is
    edited where it points, so the link survives. ``path`` of the result is the one asked for.
    ``parse`` reads the file (Claude Code's settings by default; Codex and Gemini bring theirs)."""
    target = path.resolve() if path.is_symlink() else path
    old = read_text(target)
    data = parse(old or "", str(target))
    text = planned_text(target, old, transform(data), parse)
    if text == old or (text is None and old is None):
        return Change(path, False, "")
    diff = "".join(
        difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (text or "").splitlines(keepends=True),
            fromfile=str(target) if old is not None else "/dev/null",
            tofile=str(target) if text is not None else "/dev/null",
        )
    )
    if not dry_run:
        _write(target, old, text, parse)
    return Change(path, True, diff)


def _pristine(path: Path, old: str | None, parse: Parse) -> bool:
    """True when ``old`` is the file as it was before vaultkit ever changed it."""
    return old is not None and not settings.installed(parse(old, str(path)))


def _write(path: Path, old: str | None, text: str | None, parse: Parse) -> None:
    backup = backup_path(path)
    if _pristine(path, old, parse) and old is not None and not backup.exists():
        atomic_write_text(backup, old, mode=0o600)
    if text is None:
        path.unlink()
        return
    atomic_write_text(path, text)


def install(
    scope: Scope,
    project: Path,
    *,
    dry_run: bool = False,
    shell_form: bool = False,
    prompt_hook: bool = False,
) -> Change:
    """Add vaultkit's hooks to a scope's settings file, and the slash commands beside it."""
    exe = installed_hook_executable()
    path = settings_path(scope, project)
    events = settings.EVENTS + ((settings.PROMPT_EVENT,) if prompt_hook else ())
    approve = mcpconfig.approve if scope is Scope.project else _same

    command = hookcmd.hook_command(sys.executable, str(exe))  # python -I -S …/vaultkit_hook.py

    def transform(data: settings.Settings) -> settings.Settings:
        return approve(settings.install(data, command, shell_form=shell_form, events=events))

    change = apply_change(path, transform, dry_run=dry_run)
    commands = slashcmds.sync(path, project, dry_run=dry_run)
    commands.append(_mcp(scope, project, dry_run=dry_run, remove=False))
    return Change(change.path, change.changed, change.diff, tuple(commands))


def uninstall(scope: Scope, project: Path, *, dry_run: bool = False) -> Change:
    """Remove vaultkit's hooks (and only those), its slash commands and its MCP server."""
    path = settings_path(scope, project)
    unapprove = mcpconfig.unapprove if scope is Scope.project else _same
    change = apply_change(path, lambda d: unapprove(settings.uninstall(d)), dry_run=dry_run)
    commands = slashcmds.sync(path, project, remove=True, dry_run=dry_run)
    commands.append(_mcp(scope, project, dry_run=dry_run, remove=True))
    return Change(change.path, change.changed, change.diff, tuple(c for c in commands if c))


def _same(data: settings.Settings) -> settings.Settings:
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


def mcp_executable() -> Path:
    """The installed ``vaultkit`` script next to the running Python (what ``vaultkit mcp`` runs)."""
    name = "vaultkit.exe" if sys.platform == "win32" else "vaultkit"
    return (Path(sys.executable).parent / name).absolute()


def _mcp(scope: Scope, project: Path, *, dry_run: bool, remove: bool) -> str:
    """Register (or remove) the MCP server for a scope; one message saying what happened."""
    path, keys = mcp_file(scope, project)
    where = str(path)
    if remove:
        change = apply_change(path, lambda d: mcpconfig.unregister(d, keys, where), dry_run=dry_run)
        if not change.changed:
            return ""
        return f"{'would remove' if dry_run else 'removed'} MCP server vaultkit from {path}"
    exe = str(mcp_executable())
    change = apply_change(path, lambda d: mcpconfig.register(d, keys, exe, where), dry_run=dry_run)
    if not change.changed:
        return f"{path}: MCP server vaultkit already registered"
    verb = "would register" if dry_run else "registered"
    return f"{verb} MCP server vaultkit ({exe} mcp) in {path}"


def runnable(program: str) -> bool:
    """An absolute path that is a file, or a bare name found on PATH (``python -m …`` forms)."""
    if os.path.isabs(program):
        return Path(program).is_file()
    return shutil.which(program) is not None


def scope_status(scope: Scope, project: Path) -> ScopeStatus:
    """Which of vaultkit's hooks a scope's settings file holds, and which programs are missing;
    an unreadable or malformed file is reported in ``error``, not raised."""
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
    missing = sorted({exe for exes in found.values() for exe in exes if not runnable(exe)})
    return ScopeStatus(scope.value, str(path), text is not None, found, missing)


def status(project: Path) -> list[ScopeStatus]:
    """:func:`scope_status` of every scope, user first."""
    return [scope_status(scope, project) for scope in Scope]
