"""Answers that need no typer: ``--help``/``-h`` and no arguments, ``--version``/``-V`` and
``version``, and plain ``vaultkit lint``, ``search`` and ``graph`` runs. Everything else goes to
the typer app."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TypeVar

from vaultkit.cli.registry import HELP_WIDTH, top_help

T = TypeVar("T")
MAX_PROG = 30  # a longer program name could make typer wrap the usage line differently


def columns() -> int:
    """The terminal width typer's help wrapping would see (``COLUMNS``, the terminal, 80)."""
    try:
        width = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        width = 0
    stream = sys.__stdout__
    if width <= 0 and stream is not None:
        try:
            width = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            width = 0
    return width or HELP_WIDTH


def answer(args: list[str], prog: str) -> int | None:
    """The exit code when the command line was answered here; None to hand it to typer."""
    if args in (["--version"], ["-V"], ["version"]):
        from vaultkit import __version__

        print(__version__)
        return 0
    if args in ([], ["--help"], ["-h"]):
        if columns() < HELP_WIDTH or len(prog) > MAX_PROG:
            return None
        print(top_help(prog), end="", file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    command = {"lint": _lint, "search": _search, "graph": _graph}.get(args[0])
    return None if command is None else command(args[1:])


def _lint(argv: list[str]) -> int | None:
    from vaultkit.cli.lint_run import read_quick, run

    return _guarded(run, read_quick(argv))


def _search(argv: list[str]) -> int | None:
    from vaultkit.cli.search_run import read_quick, run

    return _guarded(run, read_quick(argv))


def _graph(argv: list[str]) -> int | None:
    from vaultkit.cli.graph_run import read_quick, run

    return _guarded(run, read_quick(argv))


def _guarded(run: Callable[[T], int], options: T | None) -> int | None:
    """``run(options)`` ending as typer ends it on Ctrl-C, end of input or a closed pipe."""
    if options is None:
        return None
    try:
        return run(options)
    except KeyboardInterrupt:  # Ctrl-C: typer's exit code, quietly, no traceback
        return 130
    except EOFError:
        print("\nAborted!", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `vaultkit lint | head`: quiet, exit 1, as typer does
        _silence_stdout()
        return 1


def _silence_stdout() -> None:
    """Point stdout at the null device so that flushing it at exit raises nothing more."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.stdout.fileno())
    finally:
        os.close(null)
