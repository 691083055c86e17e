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

from vaultkit.agents import hookcmd, hookmerge, mcpconfig
from vaultkit.base import dist
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
    missing: list[str]  # executables that do not exist (or, bare names, are not on PATH)
    error: str = ""
    agent: str = "claude"
    mcp: str = ""  # the program of vaultkit's MCP server entry registered for the scope, if any


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
            hint=f"reinstall vaultkit into this environment: pip install {dist.DISTRIBUTION}",
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


def portable(scope: Scope) -> bool:
    """True for a scope whose file a team commits (the project's): its commands are bare names
    looked up on PATH, so they run on any machine with vaultkit installed."""
    return scope is Scope.project


def hook_words(scope: Scope) -> tuple[str, ...]:
    """The words of vaultkit's hook command for ``scope``: ``vaultkit-hook`` in a committed file,
    else this environment's fastest start (:func:`vaultkit.agents.hookcmd.hook_command`)."""
    if portable(scope):
        return (dist.HOOK,)
    return hookcmd.hook_command(sys.executable, str(installed_hook_executable()))


def mcp_command(scope: Scope) -> str:
    """The program of vaultkit's MCP server entry for ``scope``: ``vaultkit`` in a committed
    file, else the absolute path of this environment's script."""
    return dist.CLI if portable(scope) else str(mcp_executable())


def path_notes(scope: Scope, *, mcp: bool) -> tuple[str, ...]:
    """For a committed file: one note per bare command it names that does not resolve on PATH
    here, with the install command (the hooks would not run on this machine yet)."""
    if not portable(scope):
        return ()
    names = (dist.HOOK, dist.CLI) if mcp else (dist.HOOK,)
    absent = [name for name in names if shutil.which(name) is None]
    if not absent:
        return ()
    said = " and ".join(f"`{name}`" for name in absent)
    return (
        f"The project's files run {said} from PATH (portable for a team), but it is not on PATH"
        f" here: install vaultkit with `{dist.INSTALL}`, or put this environment's bin folder"
        f" ({Path(sys.executable).parent}) on PATH",
    )


def runnable(program: str) -> bool:
    """An absolute path that is a file, or a bare name found on PATH (``python -m …`` forms)."""
    if os.path.isabs(program):
        return Path(program).is_file()
    return shutil.which(program) is not None


def file_status(
    path: Path, scope: Scope, parse: Parse, agent: str, mcp: Callable[[Data], str] | None = None
) -> ScopeStatus:
    """Which of vaultkit's hooks the hook file ``path`` holds, and which programs are missing;
    ``mcp`` finds the program of vaultkit's MCP server for the scope (given the file's data).
    An unreadable or malformed file is reported in ``error``, not raised."""
    try:
        text = read_text(path)
        data = parse(text or "", str(path))
    except VaultkitError as exc:
        return ScopeStatus(scope.value, str(path), True, {}, [], error=exc.message, agent=agent)
    found = {
        event: [hookcmd.executable_of(h) for h in hooks]
        for event, hooks in hookmerge.installed(data).items()
    }
    server = mcp(data) if mcp is not None else ""
    programs = {exe for exes in found.values() for exe in exes} | ({server} if server else set())
    missing = sorted(exe for exe in programs if not runnable(exe))
    exists = text is not None
    return ScopeStatus(scope.value, str(path), exists, found, missing, agent=agent, mcp=server)


def mcp_program(data: object, keys: tuple[str, ...] = ()) -> str:
    """The program of vaultkit's MCP server entry under ``keys`` + ``mcpServers``, or ``""``."""
    node: Any = data
    for key in (*keys, "mcpServers", "vaultkit"):
        node = node.get(key) if isinstance(node, dict) else None
    command = node.get("command") if isinstance(node, dict) else None
    return command if isinstance(command, str) and command and mcpconfig.is_ours(node) else ""
