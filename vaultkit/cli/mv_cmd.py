"""``vaultkit mv OLD NEW``: move a note, attachment or folder and rewrite every link to it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from vaultkit.cli.app import command
from vaultkit.cli.common import resolve_vault
from vaultkit.curate.apply import move

if TYPE_CHECKING:  # the engine is imported when the command runs, not at CLI start-up
    from vaultkit.curate.apply import MoveOutcome


def _report(outcome: MoveOutcome) -> None:
    done = "would move" if outcome.dry_run else "moved"
    for old, new in outcome.moves:
        print(f"{done} {old} -> {new}", file=sys.stderr)
    notes = len(outcome.changed)
    verb = "would rewrite" if outcome.dry_run else "rewrote"
    print(
        f"{verb} {len(outcome.rewrites)} link(s) in {notes} note(s) "
        f"(link format: {outcome.link_format})",
        file=sys.stderr,
    )
    for source, line, col, target in outcome.newly_resolved:
        print(
            f"note: {source}:{line}:{col}: [[{target}]] was a ghost and now names the moved file",
            file=sys.stderr,
        )
    for path in outcome.skipped:
        print(f"warning: {path} changed while moving; left as it was", file=sys.stderr)
    if outcome.index_updated:
        print("INDEX.md regenerated", file=sys.stderr)
    if outcome.recovery:
        print(outcome.recovery, file=sys.stderr)


@command("mv")
def mv(
    old: Annotated[str, typer.Argument(help="The note, attachment or folder to move.")],
    new: Annotated[str, typer.Argument(help="Its new path (an existing folder: move into it).")],
    vault: Annotated[
        Path | None,
        typer.Option("--vault", help="Vault folder (default: this project's sessions/wiki)."),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", "-n", help="Print the renames and the diff; change nothing."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Like Obsidian's "Automatically update internal links": wikilinks, embeds, Markdown links
    and frontmatter links keep their #heading, #^block and display text, and new link text
    follows the vault's "New link format" (.obsidian/app.json: shortest, relative or
    absolute), with a path only where the short name would be ambiguous. Links to other files
    that the move would make point elsewhere are rewritten too. Nothing changes when any link
    cannot be kept; mv never overwrites, never leaves the vault, never writes through a
    symbolic link. A killed move is completed (or rolled back) by the next vaultkit
    command that reads or writes the vault; one mv or MCP write at a time (a file lock).
    INDEX.md (when the vault has one) and the search index follow.

    \b
    Examples:
      vaultkit mv --vault notes "Old name.md" "New name.md"
      vaultkit mv --vault notes projects/Plan.md archive/      # into a folder
      vaultkit mv --vault notes drafts published --dry-run     # a folder, diff only
    """
    root = resolve_vault(vault)
    outcome = move(root, old, new, dry_run=dry_run)
    if as_json:
        payload = outcome.as_json()
        if dry_run:
            payload["diff"] = outcome.diff
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    if dry_run:
        sys.stdout.write(outcome.diff)
    _report(outcome)
