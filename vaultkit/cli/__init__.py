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
    try:
        code = quick.answer(args, prog)
    except VaultkitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if code is None:
        return run_typer(args, prog)
    if argv is None and args[:1] and args[0] in _FREEZE_AT_EXIT:
        _freeze_at_exit()
    return code


# Quick commands that end the process holding a whole vault and no open resources.
_FREEZE_AT_EXIT = frozenset({"graph"})


def _freeze_at_exit() -> None:
    """The console script ends next: move every object out of the collector's reach, so that
    interpreter shutdown does not walk the loaded vault's objects once more (about 10 ms on a
    200-note vault) before freeing them by reference count as usual. Only for commands that
    leave no cycle whose finalizer must run (every file and database is closed by then)."""
    import gc

    gc.freeze()


def run_typer(args: list[str], prog: str | None = None) -> int:
    """The full typer CLI with the one command module ``args`` names (all when it names none);
    a :class:`VaultkitError` becomes ``error: …`` on stderr and exit code 2."""
    from vaultkit.cli import registry
    from vaultkit.cli.app import app

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
