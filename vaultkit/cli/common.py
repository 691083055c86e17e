"""Helpers shared by the command modules: finding the vault a command works on."""

from __future__ import annotations

from pathlib import Path

from vaultkit.base.store import find_store
from vaultkit.errors import VaultkitError


def resolve_vault(arg: Path | None) -> Path:
    """The folder a command works on: ``arg`` when given, else the current project's
    ``sessions/wiki``. Raises a :class:`VaultkitError` naming the folder when it is missing."""
    if arg is not None:
        vault = arg.expanduser()
        if not vault.is_dir():
            raise VaultkitError(
                f"{vault}: not a folder", hint="pass the vault folder, e.g. examples/sessions/wiki"
            )
        return vault.resolve()
    wiki = find_store().wiki
    if not wiki.is_dir():
        raise VaultkitError(
            f"{wiki}: this project has no session wiki yet",
            hint="pass a vault folder, e.g. `vaultkit stats examples/sessions/wiki`",
        )
    return wiki
