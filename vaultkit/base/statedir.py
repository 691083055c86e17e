"""A ``.vaultkit/`` state folder carries its own ``.gitignore`` (``*``), as ruff's and pytest's
caches do: derived state written into a user's vault never shows up in their ``git status``.

Lean (``os`` only): the hooks' log lines go through this.
"""

from __future__ import annotations

import os

STATE_NAME = ".vaultkit"
GITIGNORE = "# Created by vaultkit: derived state, rebuilt on use.\n*\n"


def ensure_folder(folder: str | os.PathLike[str]) -> None:
    """Create ``folder`` (and its parents); a folder named ``.vaultkit`` gets its
    ``.gitignore`` when it has none. Raises ``OSError`` when the folder cannot be made; a
    ``.gitignore`` that cannot be written is left out (the state itself still works)."""
    where = os.fspath(folder) or "."
    os.makedirs(where, exist_ok=True)
    if os.path.basename(os.path.normpath(where)) != STATE_NAME:
        return
    path = os.path.join(where, ".gitignore")
    if os.path.exists(path):
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:  # made by a concurrent run, or a read-only folder
        return
    try:
        os.write(fd, GITIGNORE.encode())
    finally:
        os.close(fd)
