"""``vaultkit graph``, ``vaultkit links`` and ``vaultkit stats``: the link graph from the shell."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.cli.app import command
from vaultkit.cli.graph_run import GraphArgs, run
from vaultkit.cli.links_run import LinksArgs
from vaultkit.cli.links_run import run as run_links
from vaultkit.cli.options import VaultArg, typer_option
from vaultkit.cli.spec import GRAPH_FORMAT, GRAPH_OUTPUT, INCOMING, OUTGOING, TEXT_FORMAT
from vaultkit.cli.stats_run import StatsArgs
from vaultkit.cli.stats_run import run as run_stats


class GraphFormat(StrEnum):
    json = "json"
    graphml = "graphml"
    gexf = "gexf"
    dot = "dot"


class TextFormat(StrEnum):
    text = "text"
    json = "json"


TextFormatOpt = Annotated[TextFormat, typer_option(TEXT_FORMAT)]


@command("graph")
def graph(
    vault: VaultArg = None,
    fmt: Annotated[GraphFormat, typer_option(GRAPH_FORMAT)] = GraphFormat.json,
    output: Annotated[Path | None, typer_option(GRAPH_OUTPUT)] = None,
) -> None:
    """\b
    Examples:
      vaultkit graph examples/sessions/wiki --format dot -o vault.dot
      vaultkit graph --format graphml -o wiki.graphml   # this project's sessions/wiki
    """
    run(GraphArgs(vault, fmt.value, output))


@command("links")
def links(
    note: Annotated[str, typer.Argument(help="Note path or bare name, as in [[name]].")],
    vault: VaultArg = None,
    incoming: Annotated[bool, typer_option(INCOMING)] = False,
    outgoing: Annotated[bool, typer_option(OUTGOING)] = False,
    fmt: TextFormatOpt = TextFormat.text,
) -> None:
    """\b
    Examples:
      vaultkit links "Transaction fingerprint" examples/sessions/wiki
      vaultkit links "concepts/Idempotent imports.md" examples/sessions/wiki --incoming
    """
    if not note.strip():
        raise typer.BadParameter(
            "give a note's name or path, not an empty string", param_hint="NOTE"
        )
    run_links(LinksArgs(note, vault, incoming=incoming, outgoing=outgoing, fmt=fmt.value))


@command("stats")
def stats(
    vault: VaultArg = None,
    fmt: TextFormatOpt = TextFormat.text,
) -> None:
    """\b
    Examples:
      vaultkit stats examples/sessions/wiki
      vaultkit stats --format json        # this project's sessions/wiki
    """
    run_stats(StatsArgs(vault, fmt.value))
