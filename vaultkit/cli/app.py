"""The typer application object that every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="vaultkit",
    help=(
        "Long-term memory for AI coding agents that is also an Obsidian knowledge base.\n\n"
        "Most commands take a VAULT folder; without one they use the current project's "
        "sessions/wiki (the store sits at the git root)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def _root() -> None:
    """Keep vaultkit a command group even while few commands are registered."""
