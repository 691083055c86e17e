"""The slash commands vaultkit installs for the agent: ``/handoff`` (baton) and ``/save-handoff``.

Templates live in ``templates/commands/``; ``@VAULTKIT@`` becomes the absolute path of the
``vaultkit`` program so the agent's shell needs no PATH set-up. vaultkit recognises its own files
by a marker line and never overwrites or removes anyone else's command file.
"""

from __future__ import annotations

import contextlib
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from vaultkit.errors import VaultkitError
from vaultkit.fsio import atomic_write_text
from vaultkit.templates import read_template

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
        messages.append(f"installed slash command /{item.path.stem} in {item.path}")
    return messages


def uninstall(folder: Path, names: Mapping[str, str], *, dry_run: bool = False) -> list[str]:
    """Remove vaultkit's command files from ``folder``; returns one message per removed file."""
    messages = []
    for name in names.values():
        path = folder / f"{check_name(name)}.md"
        if path.exists() and is_ours(path):
            if not dry_run:
                path.unlink()
            messages.append(f"removed slash command /{name} ({path})")
    return messages
