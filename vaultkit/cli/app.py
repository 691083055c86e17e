"""The typer application object that every command module registers on."""

from __future__ import annotations

from typing import Annotated

import typer

from vaultkit import __version__

HELP_OPTIONS = ["-h", "--help"]  # click hands them down to every subcommand's context

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
    context_settings={"help_option_names": HELP_OPTIONS},
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            is_eager=True,
            callback=_print_version,
            help="Print vaultkit's version and exit.",
        ),
    ] = False,
) -> None:
    """Keep vaultkit a command group even while few commands are registered."""
