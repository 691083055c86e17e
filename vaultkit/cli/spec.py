"""Command options declared once: each :class:`Opt` gives the typer parameter
(:func:`vaultkit.cli.options.typer_option`) and the quick parser's table (:func:`spellings`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Opt:
    """One option: the field it sets, its spellings, its help, and whether it takes a value."""

    field: str
    names: tuple[str, ...]
    help: str
    valued: bool = True


def spellings(*opts: Opt) -> dict[str, str]:
    """Option spelling -> field, what :func:`vaultkit.cli.quickwords.split` reads."""
    return {name: opt.field for opt in opts for name in opt.names}


def valued(*opts: Opt) -> set[str]:
    """The fields of ``opts`` that take a value."""
    return {opt.field for opt in opts if opt.valued}


GRAPH_FORMAT = Opt("fmt", ("--format", "-f"), "Export format.")
GRAPH_OUTPUT = Opt("output", ("--output", "-o"), "Write to FILE (atomically).")
TEXT_FORMAT = Opt("fmt", ("--format", "-f"), "Output format.")
INCOMING = Opt("incoming", ("--incoming",), "Only backlinks.", valued=False)
OUTGOING = Opt("outgoing", ("--outgoing",), "Only outgoing links.", valued=False)
