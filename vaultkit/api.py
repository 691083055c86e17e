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

from vaultkit.analysis import backlinks, dead_ends, degraded, ghosts, isolated, orphans
from vaultkit.model import Finding, Link, Note
from vaultkit.parse import parse_note
from vaultkit.resolve import resolve_target
from vaultkit.vault import Vault, load_vault

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
    """The vault as a ``networkx.MultiDiGraph`` (see :func:`vaultkit.graph.build_graph`)."""
    from vaultkit.graph import build_graph as _build

    return _build(vault)
