"""Answers that need no typer: ``--help``/``-h`` and no arguments, ``--version``/``-V`` and
``version``, and plain ``vaultkit lint``, ``search``, ``graph``, ``links``, ``stats`` and ``mcp``
runs.
Everything else goes to the typer app."""

from __future__ import annotations

import os
import sys

from vaultkit.cli.registry import HELP_WIDTH, top_help

TYPE_CHECKING = False  # type checkers take it as true; `import typing` costs ~4 ms of start-up
if TYPE_CHECKING:
    from collections.abc import Callable

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
    command = QUICK.get(args[0])
    return None if command is None else command(args[1:])


def _lint(argv: list[str]) -> int | None:
    from vaultkit.cli.lint_run import read_quick, run

    options = read_quick(argv)
    return None if options is None else _guarded(lambda: run(options))


def _search(argv: list[str]) -> int | None:
    from vaultkit.cli.search_run import read_quick, run

    options = read_quick(argv)
    return None if options is None else _guarded(lambda: run(options))


def _graph(argv: list[str]) -> int | None:
    from vaultkit.cli.graph_run import read_quick, run

    options = read_quick(argv)
    return None if options is None else _guarded(lambda: run(options))


def _stats(argv: list[str]) -> int | None:
    from vaultkit.cli.stats_run import read_quick, run

    options = read_quick(argv)
    return None if options is None else _guarded(lambda: run(options))


def _links(argv: list[str]) -> int | None:
    from vaultkit.cli.links_run import read_quick, run

    options = read_quick(argv)
    return None if options is None else _guarded(lambda: run(options))


def _mcp(argv: list[str]) -> int | None:
    """``vaultkit mcp [--project PATH] [--allow-write]``: the server starts without typer, so
    ``initialize`` is answered at once; anything else (``--help``, a typo) goes to typer."""
    project, allow_write, words = None, False, list(argv)
    while words:
        word = words.pop(0)
        if word == "--allow-write" and not allow_write:
            allow_write = True
        elif word == "--project" and words and project is None and words[0][:1] not in ("", "-"):
            project = words.pop(0)
        elif word.startswith("--project=") and project is None and len(word) > len("--project="):
            project = word.removeprefix("--project=")
        else:
            return None
    from pathlib import Path

    from vaultkit.mcp.server import serve

    def run() -> int:
        serve(None if project is None else Path(project), allow_write=allow_write)
        return 0

    return _guarded(run)


def _guarded(run: Callable[[], int]) -> int:
    """``run()`` ending as typer ends a command on Ctrl-C, end of input or a closed pipe."""
    try:
        return run()
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


# The commands with a typer-free path for their plain command lines (see each *_run module).
QUICK = {
    "lint": _lint,
    "search": _search,
    "graph": _graph,
    "links": _links,
    "stats": _stats,
    "mcp": _mcp,
}
