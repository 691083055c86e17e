"""``vaultkit version``: print the installed version."""

from __future__ import annotations

import typer

from vaultkit import __version__
from vaultkit.cli.app import command


@command("version")
def version() -> None:
    typer.echo(__version__)
