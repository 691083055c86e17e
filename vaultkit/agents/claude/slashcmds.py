"""The slash commands vaultkit installs for the agent: ``/handoff`` (baton) and ``/save-handoff``.

Templates live in ``templates/commands/``; ``@VAULTKIT@`` becomes the absolute path of the
``vaultkit`` program so the agent's shell needs no PATH set-up. vaultkit recognises its own files
by a marker line and never overwrites or removes anyone else's command file.
"""

from __future__ import annotations

import contextlib
import re
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.config import Config, load_config
from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.store import find_store
from vaultkit.base.templates import read_template
from vaultkit.errors import VaultkitError

MARKER = "<!-- vaultkit:command"
TEMPLATES = {"baton": "commands/handoff.md", "save": "commands/save-handoff.md"}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


@dataclass(frozen=True, slots=True)
class Planned:
    """One command file: where it goes and its text."""

    path: Path
    text: str


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise VaultkitError(
            f"slash command name {name!r} is not usable as a file name",
            hint="use letters, digits, - and _ (e.g. handoff) in vaultkit.toml",
        )
    return name


def render(kind: str, vaultkit: Path) -> str:
    """The command file text for ``kind`` (``baton`` or ``save``)."""
    return read_template(TEMPLATES[kind]).replace("@VAULTKIT@", shlex.quote(str(vaultkit)))


def plan(folder: Path, names: Mapping[str, str], vaultkit: Path) -> list[Planned]:
    """The files to write in a ``commands/`` folder; ``names`` maps kind → command name."""
    return [
        Planned(folder / f"{check_name(name)}.md", render(kind, vaultkit))
        for kind, name in names.items()
    ]


def is_ours(path: Path) -> bool:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as handle:
            return MARKER in handle.read(4096)
    except OSError:
        return False


def install(planned: list[Planned], *, dry_run: bool = False) -> list[str]:
    """Write the files (vaultkit's own or new ones only); returns one message per file."""
    messages = []
    for item in planned:
        if item.path.exists() and not is_ours(item.path):
            messages.append(f"{item.path}: exists and is not vaultkit's; left unchanged")
            continue
        with contextlib.suppress(OSError):
            if item.path.read_text(encoding="utf-8") == item.text:
                messages.append(f"{item.path}: slash command already up to date")
                continue
        if not dry_run:
            atomic_write_text(item.path, item.text)
        verb = "would install" if dry_run else "installed"
        messages.append(f"{verb} slash command /{item.path.stem} in {item.path}")
    return messages


def uninstall(folder: Path, names: Mapping[str, str], *, dry_run: bool = False) -> list[str]:
    """Remove vaultkit's command files from ``folder``; returns one message per removed file."""
    messages = []
    for name in names.values():
        path = folder / f"{check_name(name)}.md"
        if path.exists() and is_ours(path):
            if not dry_run:
                path.unlink()
            verb = "would remove" if dry_run else "removed"
            messages.append(f"{verb} slash command /{name} ({path})")
    return messages


def vaultkit_program() -> Path:
    """The ``vaultkit`` script installed next to the running Python."""
    name = "vaultkit.exe" if sys.platform == "win32" else "vaultkit"
    return (Path(sys.executable).parent / name).absolute()


def names_for(project: Path) -> dict[str, str]:
    """The command names configured for the project's store (defaults when unset or broken)."""
    try:
        config = load_config(find_store(project).config_file)
    except VaultkitError:
        config = Config()
    return {"baton": config.baton.command, "save": config.resume.command}


def sync(
    settings_file: Path, project: Path, *, remove: bool = False, dry_run: bool = False
) -> list[str]:
    """Install (or remove) the commands beside a settings file: ``<settings dir>/commands/``."""
    folder = settings_file.parent / "commands"
    names = names_for(project)
    if remove:
        messages = uninstall(folder, names, dry_run=dry_run)
        with contextlib.suppress(OSError):
            if not dry_run and folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        return messages
    return install(plan(folder, names, vaultkit_program()), dry_run=dry_run)
