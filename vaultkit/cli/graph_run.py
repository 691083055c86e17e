"""What ``vaultkit graph`` does once its options are known, without typer: the typer command
(cli/graph_cmd.py) and the quick path (cli/quick.py) both call :func:`run`.

:func:`read_quick` reads the plain forms (``--opt value``, ``--opt=value``, ``-f value``, one
vault folder). Anything else, or anything typer would reject (an unknown format, a second
folder), is left to typer (returns None), so help, usage errors and their exit codes stay
typer's own. ``OPTIONS`` lists every option the typer command has; a test compares the two.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from vaultkit.cli import quickwords
from vaultkit.cli.common import resolve_vault
from vaultkit.cli.spec import GRAPH_FORMAT, GRAPH_OUTPUT, spellings
from vaultkit.errors import VaultkitError

FORMATS = ("json", "graphml", "gexf", "dot")


@dataclass(frozen=True, slots=True)
class GraphArgs:
    """The options of one ``vaultkit graph`` run."""

    vault: Path | None = None
    fmt: str = "json"
    output: Path | None = None


# Option spelling -> the GraphArgs field it sets (every option takes a value).
OPTIONS = spellings(GRAPH_FORMAT, GRAPH_OUTPUT)


def read_quick(argv: list[str]) -> GraphArgs | None:
    """The options of ``vaultkit graph ARGV…`` when every word is plain and valid; else None."""
    words = quickwords.split(argv, OPTIONS, OPTIONS.values(), most=1)
    if words is None:
        return None
    values = dict(words.values)
    if len(values) < len(words.values) or values.get("fmt", "json") not in FORMATS:
        return None  # an option given twice, an unknown format: typer's call
    vault = Path(words.positional[0]) if words.positional else None
    output = values.get("output")
    return GraphArgs(vault, values.get("fmt", "json"), None if output is None else Path(output))


BATCH = 4096  # JSON pieces encoded and written at a time


def _stream(parts: list[str], write: Callable[[str], object]) -> None:
    """Write ``",\n".join(parts)`` through ``write`` a batch at a time (never the whole)."""
    for start in range(0, len(parts), BATCH):
        lead = ",\n" if start else ""
        write(lead + ",\n".join(parts[start : start + BATCH]))


def run(args: GraphArgs) -> int:
    """Export the vault's link graph to stdout or, atomically, to ``args.output``; JSON (no
    networkx) is streamed in pieces, so a big vault's document is never held whole."""
    from vaultkit.base.fsio import atomic_file
    from vaultkit.vault.graph import export_vault, vault_json_parts
    from vaultkit.vault.load import load_vault

    vault = load_vault(resolve_vault(args.vault))
    parts = vault_json_parts(vault) if args.fmt == "json" else [export_vault(vault, args.fmt)]
    if args.output is None:
        _stream(parts, sys.stdout.write)
        return 0
    try:
        with atomic_file(args.output) as handle:
            _stream(parts, lambda text: handle.write(text.encode("utf-8")))
    except OSError as exc:
        raise VaultkitError(
            f"{args.output}: cannot write: {exc.strerror}", hint="choose a writable path with -o"
        ) from exc
    return 0
