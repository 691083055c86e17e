"""vaultkit's small public API: load a vault, analyse its links, get the networkx graph.

Example::

    from pathlib import Path
    from vaultkit.api import load_vault, build_graph, ghosts, orphans
    vault = load_vault(Path("examples/sessions/wiki"))
    print([g.link.target for g in ghosts(vault)], orphans(vault))
    graph = build_graph(vault)  # a networkx.MultiDiGraph keyed by vault paths

networkx is imported only when :func:`build_graph` is first called.
"""

from __future__ import annotations

from typing import Any

from vaultkit.vault.analysis import backlinks, dead_ends, degraded, ghosts, isolated, orphans
from vaultkit.vault.load import Vault, load_vault
from vaultkit.vault.model import Finding, Link, Note
from vaultkit.vault.parse import parse_note
from vaultkit.vault.resolve import resolve_target

__all__ = [
    "Finding",
    "Link",
    "Note",
    "Vault",
    "backlinks",
    "build_graph",
    "dead_ends",
    "degraded",
    "ghosts",
    "isolated",
    "load_vault",
    "orphans",
    "parse_note",
    "resolve_target",
]


def build_graph(vault: Vault) -> Any:
    """The vault as a ``networkx.MultiDiGraph`` (see :func:`vaultkit.vault.graph.build_graph`)."""
    from vaultkit.vault.graph import build_graph as _build

    return _build(vault)
