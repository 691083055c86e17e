"""The vault as a networkx MultiDiGraph keyed by vault paths; JSON, GraphML, GEXF and DOT export
(the JSON of a vault is also written without networkx: :func:`export_vault`)."""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast

from vaultkit.base.gcpause import gc_paused
from vaultkit.vault.model import Note

if TYPE_CHECKING:  # networkx (~76 ms to import) is imported where a graph is built or written
    import networkx as nx

    from vaultkit.vault.resolve import ResolvedLink
    from vaultkit.vault.value import Vault

# Node keys are vault paths (ghosts: the target as written). networkx's classes are not
# subscriptable at run time, so the alias is a string that only the type checker reads.
VaultGraph: TypeAlias = "nx.MultiDiGraph[str]"
_EdgeKeys: TypeAlias = dict[int, dict[str, Any]]

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


class _NoteData:
    """Holder whose instance ``__dict__`` becomes one note node's attribute dict.

    CPython stores the ``__dict__`` of instances of one class with a single shared key table
    (PEP 412 key-sharing dictionaries), so each dict holds only its values: about half the
    bytes of a dict literal. The result is an ordinary ``dict``; nothing else depends on this.
    """

    kind: str
    name: str
    title: str
    tags: list[str]
    aliases: list[str]
    degraded: bool


class _NamedData:
    """Holder for the attribute dict of an attachment, ghost or unreadable node (see above)."""

    kind: str
    name: str


class _EdgeData:
    """Holder for one edge's attribute dict, in the key order of the exports (see _NoteData)."""

    kind: str
    target: str
    subpath: str
    display: str | None
    line: int
    col: int
    ambiguous: bool
    alias_of: list[str]


def _note_attrs(note: Note) -> dict[str, Any]:
    data = _NoteData()
    data.kind = "note"
    data.name = note.name
    data.title = note_title(note)
    data.tags = list(note.tags)
    data.aliases = list(note.aliases)
    data.degraded = note.degraded
    return data.__dict__


def _named_attrs(kind: str, name: str) -> dict[str, Any]:
    data = _NamedData()
    data.kind = kind
    data.name = name
    return data.__dict__


def _file_entries(vault: Vault) -> Iterator[tuple[str, str, Note | None]]:
    """(path, kind, note) of every file node: notes in path order, attachments, then indexed
    notes that failed to load (``note`` is None but for notes)."""
    for note in vault.notes:
        yield note.path, "note", note
    for path in vault.attachments:
        yield path, "attachment", None
    for path in vault.index.notes:
        if vault.note(path) is None:  # indexed, but it failed to load
            yield path, "unreadable", None


def _file_nodes(vault: Vault) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each file node's path and attribute dict, in :func:`_file_entries` order."""
    for path, kind, note in _file_entries(vault):
        yield path, _named_attrs(kind, _base(path)) if note is None else _note_attrs(note)


class _Adjacency(Protocol):
    """The dicts inside a MultiDiGraph that :func:`_fill` writes directly.

    networkx documents them (node -> attributes, node -> neighbour -> edge key -> attributes);
    its type stubs leave them out, so :func:`_adjacency` names their types once.
    """

    _node: dict[str, dict[str, Any]]
    _succ: dict[str, dict[str, _EdgeKeys]]
    _pred: dict[str, dict[str, _EdgeKeys]]


def _adjacency(graph: VaultGraph) -> _Adjacency:
    return cast("_Adjacency", graph)


def build_graph(vault: Vault) -> VaultGraph:
    """A ``networkx.MultiDiGraph`` of the vault, one edge per link.

    Nodes are notes (``kind="note"``), attachments (``"attachment"``) and one ``"ghost"`` node
    per missing target; a note that could not be read is an ``"unreadable"`` node. Ambiguous
    links point at the file that wins, with ``ambiguous=True``.

    The graph is filled in one pass through its documented dict-of-dict-of-dict-of-dict
    structure (node -> neighbour -> edge key -> attributes), as ``add_edge`` fills it: keys
    count from 0 per node pair, and ``succ[u][v]`` and ``pred[v][u]`` are the same key dict.
    It equals the graph ``add_nodes_from`` + ``add_edges_from`` build (a test checks it), in a
    fraction of the time and without a second copy of every attribute dict.
    """
    import networkx as nx

    graph: VaultGraph = nx.MultiDiGraph()
    with gc_paused():
        _fill(_adjacency(graph), vault)
    return graph


def _add_node(graph: _Adjacency, path: str, attrs: dict[str, Any]) -> None:
    """Add a node that is not in ``graph`` yet, as ``add_node`` does."""
    graph._node[path], graph._succ[path], graph._pred[path] = attrs, {}, {}


def _link_end(item: ResolvedLink, ghost_keys: dict[str, str]) -> tuple[str, bool]:
    """The node a link ends at, and True when it is a ghost's: the resolved file, else one
    node per ghost name (:func:`ghost_key`, worked out once per target as written; both
    :func:`_fill` and the JSON writer share ``ghost_keys`` over one pass of the links)."""
    target = item.resolution.path
    if target is not None:
        return target, False
    key = ghost_keys.get(item.link.target)
    if key is None:
        key = ghost_keys[item.link.target] = ghost_key(item)
    return key, True


def _fill(graph: _Adjacency, vault: Vault) -> None:
    """Nodes in the order the exports list them, then one edge per link, in link order."""
    for path, attrs in _file_nodes(vault):
        if path not in graph._node:
            _add_node(graph, path, attrs)
    succ, pred = graph._succ, graph._pred
    ghost_keys: dict[str, str] = {}
    source: str | None = None
    out: dict[str, _EdgeKeys] = {}
    for item in vault.links:
        if item.source != source:  # links come grouped by note: look its dict up once
            source = item.source
            if source not in succ:  # only in a hand-built Vault: add_edge's bare node
                _add_node(graph, source, {})
            out = succ[source]
        link, resolution = item.link, item.resolution
        target, ghost = _link_end(item, ghost_keys)
        if target not in pred:  # a ghost's first link, or (a hand-built Vault) a bare end
            _add_node(graph, target, _named_attrs("ghost", target) if ghost else {})
        data = _EdgeData()
        data.kind = link.kind
        data.target = link.target
        data.subpath = link.subpath
        data.display = link.display
        data.line = link.line
        data.col = link.col
        data.ambiguous = bool(resolution.candidates) and resolution.ambiguous
        if resolution.alias_of:
            data.alias_of = list(resolution.alias_of)
        keys = out.get(target)
        if keys is None:
            out[target] = pred[target][source] = {0: data.__dict__}
        else:
            keys[len(keys)] = data.__dict__  # keys are 0..n-1: nothing is ever removed here


def _flat(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Attributes GraphML and GEXF can store: lists become JSON text, None is dropped."""
    flat: dict[str, Any] = {}
    for key, value in attrs.items():
        if value is None:
            continue
        flat[key] = json.dumps(value, ensure_ascii=False) if isinstance(value, list) else value
    return flat


def flatten(graph: VaultGraph) -> VaultGraph:
    """A copy of ``graph`` whose attributes are all scalars (for GraphML and GEXF)."""
    import networkx as nx

    flat: VaultGraph = nx.MultiDiGraph()
    for node, attrs in graph.nodes(data=True):
        flat.add_node(node, **_flat(attrs))
    for source, target, key, attrs in graph.edges(keys=True, data=True):
        flat.add_edge(source, target, key=key, **_flat(attrs))
    return flat


def to_json(graph: VaultGraph) -> str:
    """Node-link JSON (``nodes`` and ``edges`` lists), UTF-8 text, stable order."""
    import networkx as nx

    data = nx.node_link_data(graph, edges="edges")
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def to_graphml(graph: VaultGraph) -> str:
    """GraphML text; list attributes are stored as JSON strings."""
    import networkx as nx

    return "\n".join(nx.generate_graphml(flatten(graph))) + "\n"


def to_gexf(graph: VaultGraph) -> str:
    """GEXF 1.2 text; list attributes are stored as JSON strings."""
    import networkx as nx

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


def to_dot(graph: VaultGraph) -> str:
    """Graphviz DOT text written by hand (no pydot): every name quoted and escaped."""
    lines = ["digraph vault {", '  node [fontname="sans-serif"];']
    lines += [_dot_node(node, attrs) for node, attrs in graph.nodes(data=True)]
    for source, target, attrs in graph.edges(data=True):
        edge_attrs = _dot_attrs(sorted(attrs.items()))
        lines.append(f"  {dot_quote(source)} -> {dot_quote(target)}{edge_attrs};")
    lines.append("}")
    return "\n".join(lines) + "\n"


EXPORTERS: dict[str, Callable[[VaultGraph], str]] = {
    "json": to_json,
    "graphml": to_graphml,
    "gexf": to_gexf,
    "dot": to_dot,
}


def export(graph: VaultGraph, fmt: str) -> str:
    """Serialise ``graph`` in one of :data:`FORMATS`."""
    return EXPORTERS[fmt](graph)


# The node-link JSON of a vault, written without networkx or a graph: each object is one
# f-string laid out as ``json.dumps(..., indent=2)`` lays it out in a top-level list, each
# string value encoded once by the encoder json.dumps itself uses for strings (ints as str()
# writes them, True/False/None as true/false/null). A test compares it with :func:`to_json`.
_encode = json.JSONEncoder(ensure_ascii=False).encode  # one str: json's own string encoder
_BOOL = {True: "true", False: "false"}


class _Strings(dict[str | None, str]):
    """Each distinct string's JSON text (None: ``null``), encoded the first time it is asked for:
    an edge repeats its source, and targets, kinds and subpaths recur."""

    def __missing__(self, key: str | None) -> str:
        value = self[key] = "null" if key is None else _encode(key)
        return value


def _list(texts: _Strings, items: Iterable[str]) -> str:
    """A list of strings as a field value at depth 3 (``[]`` when empty, as json.dumps writes)."""
    body = ",\n        ".join(map(texts.__getitem__, items))
    return f"[\n        {body}\n      ]" if body else "[]"


def _note_object(texts: _Strings, note: Note) -> str:
    return (
        f'    {{\n      "kind": "note",\n      "name": {texts[note.name]},\n'
        f'      "title": {texts[note_title(note)]},\n      "tags": {_list(texts, note.tags)},\n'
        f'      "aliases": {_list(texts, note.aliases)},\n'
        f'      "degraded": {_BOOL[note.degraded]},\n      "id": {texts[note.path]}\n    }}'
    )


def _named_object(texts: _Strings, kind: str, name: str, path: str) -> str:
    return (
        f'    {{\n      "kind": "{kind}",\n      "name": {texts[name]},\n'
        f'      "id": {texts[path]}\n    }}'
    )


def _bare_object(texts: _Strings, path: str) -> str:
    """A node ``add_edge`` makes for an end that is not in the vault (a hand-built Vault)."""
    return f'    {{\n      "id": {texts[path]}\n    }}'


def _json_nodes(vault: Vault, texts: _Strings) -> dict[str, str]:
    """Each file node's JSON object by path, in :func:`_file_nodes` order."""
    nodes: dict[str, str] = {}
    for path, kind, note in _file_entries(vault):
        if path not in nodes:
            if note is None:
                nodes[path] = _named_object(texts, kind, _base(path), path)
            else:
                nodes[path] = _note_object(texts, note)
    return nodes


def _json_edges(vault: Vault, texts: _Strings, nodes: dict[str, str]) -> dict[str, list[str]]:
    """Each source's edge objects in ``graph.edges(keys=True)`` order (by target in first-link
    order, then key), adding ghost and bare nodes to ``nodes`` as :func:`_fill` adds them."""
    ghost_keys: dict[str, str] = {}
    groups: dict[str, dict[str, list[str]]] = {}
    source: str | None = None
    source_text = ""
    out: dict[str, list[str]] = {}
    for item in vault.links:
        if item.source != source:  # links come grouped by note
            source, source_text = item.source, texts[item.source]
            if source not in nodes:
                nodes[source] = _bare_object(texts, source)
            out = groups.setdefault(source, {})
        link, resolution = item.link, item.resolution
        target, ghost = _link_end(item, ghost_keys)
        if target not in nodes:
            if ghost:
                nodes[target] = _named_object(texts, "ghost", target, target)
            else:
                nodes[target] = _bare_object(texts, target)
        keys = out.get(target)
        if keys is None:
            keys = out[target] = []
        ambiguous = "true" if resolution.candidates and resolution.ambiguous else "false"
        fields = (
            f'    {{\n      "kind": {texts[link.kind]},\n      "target": {texts[target]},\n'
            f'      "subpath": {texts[link.subpath]},\n      "display": {texts[link.display]},\n'
            f'      "line": {link.line},\n      "col": {link.col},\n      "ambiguous": {ambiguous}'
        )
        if resolution.alias_of:
            fields += f',\n      "alias_of": {_list(texts, resolution.alias_of)}'
        keys.append(f'{fields},\n      "source": {source_text},\n      "key": {len(keys)}\n    }}')
    return {path: [edge for keys in out.values() for edge in keys] for path, out in groups.items()}


def _block(name: str, items: list[str]) -> list[str]:
    """``"name": [...]`` as list items whose ``",\n".join`` is the block (its opening and
    closing folded into the first and last item)."""
    if not items:
        return [f'  "{name}": []']
    items[0] = f'  "{name}": [\n{items[0]}'
    items[-1] += "\n  ]"
    return items


def vault_json(vault: Vault) -> str:
    """``to_json(build_graph(vault))``, byte for byte, without importing networkx or building the
    graph: the nodes and edges :func:`_fill` makes, each written as one string, then joined in
    one copy (a fresh process pays for every large string it allocates)."""
    texts = _Strings()
    nodes = _json_nodes(vault, texts)
    groups = _json_edges(vault, texts, nodes)
    edges = [edge for path in nodes if path in groups for edge in groups[path]]
    items = [*_block("nodes", list(nodes.values())), *_block("edges", edges)]
    items[0] = '{\n  "directed": true,\n  "multigraph": true,\n  "graph": {},\n' + items[0]
    items[-1] += "\n}\n"
    return ",\n".join(items)


def export_vault(vault: Vault, fmt: str) -> str:
    """The vault's graph in one of :data:`FORMATS`; JSON needs no networkx."""
    return vault_json(vault) if fmt == "json" else export(build_graph(vault), fmt)
