"""``vaultkit version``: print the installed version."""

from __future__ import annotations

import typer

from vaultkit import __version__
from vaultkit.cli.app import app


@app.command()
def version() -> None:
    """Print vaultkit's version."""
    typer.echo(__version__)
