"""The typer application object that every command module registers on, through
:func:`command` and :func:`group`: each command's one-line help comes from the command table
(vaultkit/cli/registry.py), which the quick ``vaultkit --help`` is made from too."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from vaultkit import __version__
from vaultkit.cli import registry

HELP_OPTIONS = list(registry.HELP_OPTION[0])  # click hands them down to every subcommand

app = typer.Typer(
    name="vaultkit",
    help=registry.APP_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": HELP_OPTIONS},
)

F = TypeVar("F", bound=Callable[..., Any])


def help_text(name: str, details: str | None) -> str:
    """The ``--help`` text of the command ``name``: its line in the table, then ``details``
    (the function's docstring, if any) as further paragraphs."""
    line = registry.HELP[name]
    return f"{line}\n\n{inspect.cleandoc(details)}" if details else line


def command(name: str, **settings: Any) -> Callable[[F], F]:
    """Register the decorated function as the command ``name`` (typer ``settings`` aside), its
    help the table's line for it followed by the function's docstring."""

    def register(function: F) -> F:
        decorate = app.command(name, help=help_text(name, function.__doc__), **settings)
        decorate(function)
        return function

    return register


def group(name: str, **settings: Any) -> typer.Typer:
    """A typer app for the subcommands of ``name``, added to the top-level app with the table's
    line as its help."""
    sub = typer.Typer(help=help_text(name, None), **settings)
    app.add_typer(sub, name=name)
    return sub


def _print_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            *registry.VERSION_OPTION[0],
            is_eager=True,
            callback=_print_version,
            help=registry.VERSION_OPTION[1],
        ),
    ] = False,
) -> None:
    """Keep vaultkit a command group even while few commands are registered."""
