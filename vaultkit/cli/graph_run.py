"""What ``vaultkit graph`` does once its options are known, without typer: the typer command
(cli/graph_cmd.py) and the quick path (cli/quick.py) both call :func:`run`.

:func:`read_quick` reads the plain forms (``--opt value``, ``--opt=value``, ``-f value``, one
vault folder). Anything else, or anything typer would reject (an unknown format, a second
folder), is left to typer (returns None), so help, usage errors and their exit codes stay
typer's own. ``OPTIONS`` lists every option the typer command has; a test compares the two.
"""

from __future__ import annotations

import sys
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


def run(args: GraphArgs) -> int:
    """Export the vault's link graph to stdout or, atomically, to ``args.output``."""
    from vaultkit.base.fsio import atomic_write_text
    from vaultkit.vault.graph import export_vault
    from vaultkit.vault.load import load_vault

    text = export_vault(load_vault(resolve_vault(args.vault)), args.fmt)  # JSON: no networkx
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        atomic_write_text(args.output, text)
    except OSError as exc:
        raise VaultkitError(
            f"{args.output}: cannot write: {exc.strerror}", hint="choose a writable path with -o"
        ) from exc
    return 0
