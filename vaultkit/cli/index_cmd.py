"""``vaultkit index``: regenerate INDEX.md, check that it is current, or show the diff."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from vaultkit.cli.app import command
from vaultkit.cli.common import display_root, resolve_vault
from vaultkit.cli.options import VaultArg
from vaultkit.lint.output import escape_text
from vaultkit.vault.indexer import regenerate_index

if TYPE_CHECKING:  # the vault engine is imported when the command runs, not at CLI start-up
    from vaultkit.vault.indexer import IndexOutcome


def _left_out(outcome: IndexOutcome) -> None:

    for why in outcome.left_out:
        print(f"warning: not listed in INDEX.md: {escape_text(why)}", file=sys.stderr)


def _report(outcome: IndexOutcome, shown: str) -> None:

    for line in outcome.pruned:
        print(f"pruned ghost line: {escape_text(line)}", file=sys.stderr)
    state = "updated" if outcome.changed else "already up to date"
    found = f"{len(outcome.orphans)} orphan(s), {len(outcome.degraded)} degraded"
    print(f"{shown}: {state} ({outcome.listed} notes listed; {found})", file=sys.stderr)


@command("index")
def index(
    vault: VaultArg = None,
    check: Annotated[
        bool,
        typer.Option("--check", help="Exit 1 and print the diff when INDEX.md is out of date."),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the diff, write nothing.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
) -> None:
    """Text outside the generated region (between the vaultkit:index marker comments) is kept;
    hand-written list lines whose link became a ghost are pruned and logged. An index in the
    old unmarked format is adopted once. Writes only when the content changes.

    \b
    Examples:
      vaultkit index examples/sessions/wiki
      vaultkit index --check          # CI / pre-commit: exit 1 when INDEX.md is stale
      vaultkit index --dry-run        # show what would change
    """

    root = resolve_vault(vault)
    outcome = regenerate_index(root, dry_run=dry_run, check=check)
    shown = "/".join(p for p in (display_root(root), "INDEX.md") if p)
    _left_out(outcome)  # even with --quiet: a note that is not listed is never silent
    if check or dry_run:
        sys.stdout.write(outcome.diff)
        if check and outcome.changed:
            print(f"{shown} is out of date: run `vaultkit index`", file=sys.stderr)
            raise typer.Exit(1)
        return
    if not quiet:
        _report(outcome, shown)
