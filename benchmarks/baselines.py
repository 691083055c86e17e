"""The baselines vaultkit is measured against: a bare stat walk, a bare regex graph, obsidiantools.

Each function does the whole job for one vault folder and returns a count, so a caller can check
that the work was really done.
"""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from typing import Any

WIKILINK = re.compile(r"\[\[([^\]|#\n]+)")


def stat_walk(root: Path) -> int:
    """``os.walk`` the folder and ``stat`` every file (skipping dot-folders); files seen."""
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            os.stat(os.path.join(folder, name))
            count += 1
    return count


def regex_graph(root: Path) -> Any:
    """Read every ``.md`` file, find ``[[target`` with one compiled regex, build a DiGraph.

    No frontmatter, no code fences, no case rules, no resolution: the floor for any tool that
    reads every note. Nodes are file names; edges point at the target text as written.
    """
    import networkx as nx

    graph: nx.DiGraph[str] = nx.DiGraph()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if not name.endswith(".md"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                text = handle.read()
            source = name[:-3]
            graph.add_node(source)
            graph.add_edges_from((source, target.strip()) for target in WIKILINK.findall(text))
    return graph


def obsidiantools_graph(root: Path) -> Any:
    """obsidiantools' own graph build (``Vault(root).connect()``); needs the ``bench`` extra."""
    otools = importlib.import_module("obsidiantools.api")  # untyped optional dependency
    return otools.Vault(root).connect().graph


def _sizes(graph: Any, **extra: int) -> dict[str, int]:
    return {"nodes": int(graph.number_of_nodes()), "edges": int(graph.number_of_edges()), **extra}


def graph_sizes(root: Path, with_otools: bool) -> dict[str, dict[str, int]]:
    """Nodes and edges of each contender's graph of one vault, so a reader can see who parsed it.

    ``notes`` is what each one took for a note; obsidiantools' ``ghosts`` are its
    ``nonexistent_notes``, vaultkit's are its ``ghost`` nodes (missing link targets).
    """
    from vaultkit.vault.graph import build_graph
    from vaultkit.vault.load import load_vault

    vault = load_vault(root, cache=False)
    graph = build_graph(vault)
    kinds = [attrs.get("kind") for _node, attrs in graph.nodes(data=True)]
    sizes = {
        "vk-cold": _sizes(
            graph,
            notes=len(vault.notes),
            attachments=len(vault.attachments),
            ghosts=kinds.count("ghost"),
        ),
        "regex": _sizes(regex_graph(root)),
    }
    if with_otools:
        otools = importlib.import_module("obsidiantools.api").Vault(root).connect()
        sizes["obsidiantools"] = _sizes(
            otools.graph,
            notes=len(otools.md_file_index),
            ghosts=len(otools.nonexistent_notes),
        )
    return sizes
