"""Command-line entry point: quick answers first, else typer with only the running command.

A :class:`VaultkitError` becomes one ``error: …`` line and exit code 2."""

from __future__ import annotations

import sys

from vaultkit.errors import VaultkitError

__all__ = ["main", "run_typer"]


def main(argv: list[str] | None = None) -> int:
    """Run the CLI: ``--help``, ``--version`` and plain lint runs without loading typer."""
    from vaultkit.cli import quick
    from vaultkit.cli.registry import prog_name

    args = sys.argv[1:] if argv is None else list(argv)
    prog = prog_name()
    if argv is None and args[:1] and args[0] in _NO_COLLECTOR:
        _collector_off()
    args = _dashed(args)
    try:
        code = quick.answer(args, prog)
    except VaultkitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return run_typer(args, prog) if code is None else code


def _dashed(args: list[str]) -> list[str]:
    """``vaultkit search -foo``: a query word, not an unknown option (both paths read it so)."""
    if args[:1] != ["search"]:
        return args
    from vaultkit.cli.search_run import dashed_query

    return ["search", *dashed_query(args[1:])]


# Quick commands that need no cyclic garbage collector when the console script runs them: one
# load, one answer, then the process ends, with every file and database closed by then.
_NO_COLLECTOR = frozenset({"graph"})


def _collector_off() -> None:
    """No cyclic collection for the rest of this process, nor at its exit. The collector finds
    nothing to free in a loaded vault, yet each pass walks all of it: the first allocation
    after a load (which pauses it) walks every object the load made, and interpreter shutdown
    walks them all once more (together about 15 ms on a 200-note vault). Objects are still
    freed by reference count as usual."""
    import atexit
    import gc

    gc.disable()
    atexit.register(gc.freeze)  # shutdown's own collections then skip every object


def run_typer(args: list[str], prog: str | None = None) -> int:
    """The full typer CLI with the one command module ``args`` names (all when it names none);
    a :class:`VaultkitError` becomes ``error: …`` on stderr and exit code 2."""
    from vaultkit.cli import registry
    from vaultkit.cli.app import app

    args = _dashed(args)
    registry.load(args[0] if args else None)
    try:
        app(args=args, prog_name=prog or registry.prog_name(), standalone_mode=True)
    except VaultkitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        return code if isinstance(code, int) else 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
