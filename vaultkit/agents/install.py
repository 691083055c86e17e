"""Installing vaultkit's hooks into an agent's hook file safely, whichever agent it is.

Plain functions returning values: the planned new text of a hook file and its diff, the atomic
write with a one-time backup of the hand-written original (restored byte for byte when vaultkit's
last entry goes), the programs a hook command needs, and what a scope's file holds. Which file a
scope means and what goes into it is each agent's own (``vaultkit.agents.<agent>.hooks``). Every
refusal is a :class:`VaultkitError` naming the file.
"""

from __future__ import annotations

import difflib
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from vaultkit.agents import hookcmd, hookmerge
from vaultkit.base.fsio import atomic_write_text
from vaultkit.errors import VaultkitError

BACKUP_SUFFIX = ".vaultkit.bak"
Data = dict[str, Any]
Parse = Callable[[str, str], Data]  # file text, where → data (refuses bad files)


class Scope(StrEnum):
    """Which hook file: the user's, the project's, or the project's local one (Claude Code)."""

    user = "user"
    project = "project"
    local = "local"


@dataclass(frozen=True, slots=True)
class Options:
    """What ``vaultkit hooks install`` was asked beyond the scope (an agent ignores what it
    has no use for)."""

    shell_form: bool = False  # one command line instead of command + args (older Claude Code)
    prompt_hook: bool = False  # also UserPromptSubmit (Claude Code)


@dataclass(frozen=True, slots=True)
class Change:
    """What installing or removing did (or, in a dry run, would do) to one hook file."""

    path: Path
    changed: bool
    diff: str  # unified diff of the hook file; empty when nothing changes
    commands: tuple[str, ...] = ()  # what else changed beside it (slash commands, MCP server)
    notes: tuple[str, ...] = ()  # what the user must do next (trust the hooks), after a real run


@dataclass(frozen=True, slots=True)
class ScopeStatus:
    """What one hook file holds of vaultkit's hooks."""

    scope: str
    path: str
    exists: bool
    events: dict[str, list[str]]  # event -> executables of vaultkit's entries
    missing: list[str]  # executables that do not exist
    error: str = ""
    agent: str = "claude"


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


def read_or_empty(path: Path) -> str:
    """The file's text, or ``""`` when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ""


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


def planned_text(path: Path, old: str | None, new: Data, parse: Parse) -> str | None:
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
    return hookmerge.render(new)


def apply_change(
    path: Path,
    transform: Callable[[Data], Data],
    *,
    dry_run: bool,
    parse: Parse,
) -> Change:
    """Transform a settings file. Writes atomically, keeps the file's mode, and backs the
    original up once before vaultkit's first change. A symlinked settings file (dotfiles) is
    edited where it points, so the link survives. ``path`` of the result is the one asked for.
    ``parse`` reads the file (each agent brings its own)."""
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
    return old is not None and not hookmerge.installed(parse(old, str(path)))


def _write(path: Path, old: str | None, text: str | None, parse: Parse) -> None:
    backup = backup_path(path)
    if _pristine(path, old, parse) and old is not None and not backup.exists():
        atomic_write_text(backup, old, mode=0o600)
    if text is None:
        path.unlink()
        return
    atomic_write_text(path, text)


def mcp_executable() -> Path:
    """The installed ``vaultkit`` script next to the running Python (what ``vaultkit mcp`` runs)."""
    name = "vaultkit.exe" if sys.platform == "win32" else "vaultkit"
    return (Path(sys.executable).parent / name).absolute()


def runnable(program: str) -> bool:
    """An absolute path that is a file, or a bare name found on PATH (``python -m …`` forms)."""
    if os.path.isabs(program):
        return Path(program).is_file()
    return shutil.which(program) is not None


def file_status(path: Path, scope: Scope, parse: Parse, agent: str) -> ScopeStatus:
    """Which of vaultkit's hooks the hook file ``path`` holds, and which programs are missing;
    an unreadable or malformed file is reported in ``error``, not raised."""
    try:
        text = read_text(path)
        data = parse(text or "", str(path))
    except VaultkitError as exc:
        return ScopeStatus(scope.value, str(path), True, {}, [], error=exc.message, agent=agent)
    found = {
        event: [hookcmd.executable_of(h) for h in hooks]
        for event, hooks in hookmerge.installed(data).items()
    }
    missing = sorted({exe for exes in found.values() for exe in exes if not runnable(exe)})
    return ScopeStatus(scope.value, str(path), text is not None, found, missing, agent=agent)
