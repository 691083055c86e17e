"""``vaultkit watch``: keep INDEX.md and the cache current while a vault is edited."""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

from vaultkit.cli.app import command
from vaultkit.cli.common import display_root, resolve_vault
from vaultkit.cli.options import VaultArg
from vaultkit.vault.watch import watch as run_watch

if TYPE_CHECKING:  # watchdog and the vault engine load when the command runs
    from vaultkit.vault.watch import Update


def describe(result: Update, shown: str) -> str:
    """One line per update: what happened to INDEX.md and how long it took."""
    took = f"{result.seconds:.2f} s"
    if result.outcome is None:
        return f"{shown}: not updated ({result.error}) [{took}]"
    outcome = result.outcome
    state = "updated" if outcome.changed else "unchanged"
    return f"{shown}: {state}, {outcome.listed} notes listed [{took}]"


def _stop_on_signals(stop: threading.Event) -> None:
    def handler(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


@command("watch")
def watch(
    vault: VaultArg = None,
    debounce: Annotated[
        float, typer.Option(min=0.05, help="Seconds of quiet after a change before updating.")
    ] = 0.5,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print errors only.")] = False,
) -> None:
    """Changes in dot-folders (.obsidian/, .vaultkit/) are ignored; a burst of changes is
    debounced into one update. Stop with Ctrl-C (exit 0).

    \b
    Examples:
      vaultkit watch                      # this project's sessions/wiki
      vaultkit watch ~/Notes --debounce 1
    """

    root = resolve_vault(vault)
    shown = "/".join(p for p in (display_root(root), "INDEX.md") if p)
    stop = threading.Event()
    _stop_on_signals(stop)

    def report(result: Update) -> None:
        if result.outcome is None or not quiet:
            typer.echo(describe(result, shown), err=result.outcome is None)

    def ready() -> None:
        if not quiet:
            typer.echo(f"watching {root} (Ctrl-C to stop)")

    run_watch(root, report, debounce=debounce, stop=stop, ready=ready)
