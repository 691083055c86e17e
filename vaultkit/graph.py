"""The vault as a networkx MultiDiGraph keyed by vault paths; JSON, GraphML, GEXF and DOT export."""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import networkx as nx

from vaultkit.model import Note

if TYPE_CHECKING:
    from vaultkit.resolve import ResolvedLink
    from vaultkit.vault import Vault

FORMATS = ("json", "graphml", "gexf", "dot")


def note_title(note: Note) -> str:
    """The frontmatter ``title``, else the first heading, else the file name."""
    title = note.frontmatter.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()
    if note.headings:
        return note.headings[0].text
    return note.name


def ghost_key(item: ResolvedLink) -> str:
    """The node key of a ghost: the link target as written, NFC-normalised."""
    return unicodedata.normalize("NFC", item.link.target.strip())


def _base(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _note_attrs(note: Note) -> dict[str, Any]:
    return {
        "kind": "note",
        "name": note.name,
        "title": note_title(note),
        "tags": list(note.tags),
        "aliases": list(note.aliases),
        "degraded": note.degraded,
    }


def _edge_attrs(item: ResolvedLink) -> dict[str, Any]:
    link, resolution = item.link, item.resolution
    attrs: dict[str, Any] = {
        "kind": link.kind,
        "target": link.target,
        "subpath": link.subpath,
        "display": link.display,
        "line": link.line,
        "col": link.col,
        "ambiguous": resolution.ambiguous,
    }
    if resolution.alias_of:
        attrs["alias_of"] = list(resolution.alias_of)
    return attrs


def _file_nodes(vault: Vault) -> Iterator[tuple[str, dict[str, Any]]]:
    for note in vault.notes:
        yield note.path, _note_attrs(note)
    for path in vault.attachments:
        yield path, {"kind": "attachment", "name": _base(path)}


def _edges(vault: Vault, ghosts: dict[str, None]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for item in vault.links:
        target = item.resolution.path
        if target is None:
            target = ghost_key(item)
            ghosts[target] = None
        yield item.source, target, _edge_attrs(item)


def build_graph(vault: Vault) -> Any:
    """A ``networkx.MultiDiGraph`` of the vault, one edge per link.

    Nodes are notes (``kind="note"``), attachments (``"attachment"``) and one ``"ghost"`` node
    per missing target; a note that could not be read is an ``"unreadable"`` node. Ambiguous
    links point at the file that wins, with ``ambiguous=True``.
    """
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(_file_nodes(vault))
    unread = [p for p in vault.index.notes if p not in graph]  # files that failed to load
    graph.add_nodes_from((p, {"kind": "unreadable", "name": _base(p)}) for p in unread)
    ghosts: dict[str, None] = {}
    edges = list(_edges(vault, ghosts))
    graph.add_nodes_from((g, {"kind": "ghost", "name": g}) for g in ghosts if g not in graph)
    graph.add_edges_from(edges)
    return graph


def _flat(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Attributes GraphML and GEXF can store: lists become JSON text, None is dropped."""
    flat: dict[str, Any] = {}
    for key, value in attrs.items():
        if value is None:
            continue
        flat[key] = json.dumps(value, ensure_ascii=False) if isinstance(value, list) else value
    return flat


def flatten(graph: Any) -> Any:
    """A copy of ``graph`` whose attributes are all scalars (for GraphML and GEXF)."""
    flat = nx.MultiDiGraph()
    for node, attrs in graph.nodes(data=True):
        flat.add_node(node, **_flat(attrs))
    for source, target, key, attrs in graph.edges(keys=True, data=True):
        flat.add_edge(source, target, key=key, **_flat(attrs))
    return flat


def to_json(graph: Any) -> str:
    """Node-link JSON (``nodes`` and ``edges`` lists), UTF-8 text, stable order."""
    data = nx.node_link_data(graph, edges="edges")
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def to_graphml(graph: Any) -> str:
    """GraphML text; list attributes are stored as JSON strings."""
    return "\n".join(nx.generate_graphml(flatten(graph))) + "\n"


def to_gexf(graph: Any) -> str:
    """GEXF 1.2 text; list attributes are stored as JSON strings."""
    buffer = io.BytesIO()
    nx.write_gexf(flatten(graph), buffer, encoding="utf-8")
    return buffer.getvalue().decode("utf-8")


def dot_quote(text: str) -> str:
    """``text`` as a DOT double-quoted string: backslash, quote and line breaks escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")
    return f'"{escaped}"'


def _dot_attrs(attrs: Iterable[tuple[str, Any]]) -> str:
    parts = []
    for key, value in attrs:
        if value is None:
            continue
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = "true" if value else "false"
        parts.append(f"{key}={dot_quote(str(value))}")
    return f" [{', '.join(parts)}]" if parts else ""


_NODE_STYLE = {"note": "box", "attachment": "note", "ghost": "ellipse", "unreadable": "box"}


def _dot_node(node: str, attrs: Mapping[str, Any]) -> str:
    label = attrs.get("title") or attrs.get("name") or node
    shown = [("label", label), ("shape", _NODE_STYLE.get(attrs["kind"]))]
    if attrs["kind"] == "ghost":
        shown.append(("style", "dashed"))
    return f"  {dot_quote(node)}{_dot_attrs([*shown, *sorted(attrs.items())])};"


def to_dot(graph: Any) -> str:
    """Graphviz DOT text written by hand (no pydot): every name quoted and escaped."""
    lines = ["digraph vault {", '  node [fontname="sans-serif"];']
    lines += [_dot_node(node, attrs) for node, attrs in graph.nodes(data=True)]
    for source, target, attrs in graph.edges(data=True):
        edge_attrs = _dot_attrs(sorted(attrs.items()))
        lines.append(f"  {dot_quote(source)} -> {dot_quote(target)}{edge_attrs};")
    lines.append("}")
    return "\n".join(lines) + "\n"


EXPORTERS: dict[str, Callable[[Any], str]] = {
    "json": to_json,
    "graphml": to_graphml,
    "gexf": to_gexf,
    "dot": to_dot,
}


def export(graph: Any, fmt: str) -> str:
    """Serialise ``graph`` in one of :data:`FORMATS`."""
    return EXPORTERS[fmt](graph)
