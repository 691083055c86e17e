"""The vault as a networkx MultiDiGraph keyed by vault paths; JSON, GraphML, GEXF and DOT export
(the JSON of a vault is also written without networkx: :func:`export_vault`)."""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from vaultkit.vault.model import Note

if TYPE_CHECKING:  # networkx (~76 ms to import) is imported where a graph is built or written
    import networkx as nx

    from vaultkit.vault.resolve import ResolvedLink
    from vaultkit.vault.value import Vault

# Node keys are vault paths (ghosts: the target as written). networkx's classes are not
# subscriptable at run time, so the alias is a string that only the type checker reads.
VaultGraph: TypeAlias = "nx.MultiDiGraph[str]"

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


# The one table of the graph's fields: each node and edge attribute, in the order every export
# writes it, how it is read from the vault, and its JSON kind (str, which may be None, int, bool
# or a list of str). build_graph gives networkx these attributes and vault_json writes the same
# fields as node-link JSON, so a field is added or changed here only.
Attrs = dict[str, Any]
JsonKind = Literal["str", "int", "bool", "list"]
NoteField = tuple[str, Callable[[Note], Any], JsonKind]
EdgeField = tuple[str, Callable[["ResolvedLink"], Any], JsonKind]
NOTE_FIELDS: tuple[NoteField, ...] = (
    ("kind", lambda note: "note", "str"),
    ("name", attrgetter("name"), "str"),
    ("title", note_title, "str"),
    ("tags", lambda note: list(note.tags), "list"),
    ("aliases", lambda note: list(note.aliases), "list"),
    ("degraded", attrgetter("degraded"), "bool"),
)
NAMED_FIELDS = ("kind", "name")  # an attachment, ghost or unreadable node: its kind and name
EDGE_FIELDS: tuple[EdgeField, ...] = (
    ("kind", attrgetter("link.kind"), "str"),
    ("target", attrgetter("link.target"), "str"),
    ("subpath", attrgetter("link.subpath"), "str"),
    ("display", attrgetter("link.display"), "str"),
    ("line", attrgetter("link.line"), "int"),
    ("col", attrgetter("link.col"), "int"),
    (
        "ambiguous",
        lambda item: bool(item.resolution.candidates) and item.resolution.ambiguous,
        "bool",
    ),
)
# Written only when the link was found by an alias (the alias's notes); None: left out.
EDGE_OPTIONAL: tuple[EdgeField, ...] = (
    ("alias_of", lambda item: list(item.resolution.alias_of) or None, "list"),
)


def note_attrs(note: Note) -> Attrs:
    """A note node's attributes (:data:`NOTE_FIELDS`)."""
    return {name: read(note) for name, read, _kind in NOTE_FIELDS}


def named_attrs(kind: str, name: str) -> Attrs:
    """An attachment, ghost or unreadable node's attributes (:data:`NAMED_FIELDS`)."""
    return dict(zip(NAMED_FIELDS, (kind, name), strict=True))


def edge_attrs(item: ResolvedLink) -> Attrs:
    """One link's edge attributes (:data:`EDGE_FIELDS`, then :data:`EDGE_OPTIONAL` when set)."""
    attrs = {name: read(item) for name, read, _kind in EDGE_FIELDS}
    for name, read, _kind in EDGE_OPTIONAL:
        value = read(item)
        if value is not None:
            attrs[name] = value
    return attrs


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


def _link_end(item: ResolvedLink, ghost_keys: dict[str, str]) -> tuple[str, bool]:
    """The node a link ends at, and True when it is a ghost's: the resolved file, else one
    node per ghost name (:func:`ghost_key`, worked out once per target as written)."""
    target = item.resolution.path
    if target is not None:
        return target, False
    key = ghost_keys.get(item.link.target)
    if key is None:
        key = ghost_keys[item.link.target] = ghost_key(item)
    return key, True


Edge = tuple[str, str, "ResolvedLink"]  # source node, target node, the link


def file_nodes(vault: Vault) -> dict[str, Attrs]:
    """Each file node's attributes by path, in :func:`_file_entries` order."""
    nodes: dict[str, Attrs] = {}
    for path, kind, note in _file_entries(vault):
        if path not in nodes:
            nodes[path] = named_attrs(kind, _base(path)) if note is None else note_attrs(note)
    return nodes


def link_edges(vault: Vault, nodes: dict[str, Attrs]) -> Iterator[Edge]:
    """One ``(source, target, link)`` edge per link, in link order. A ghost's node is
    added to ``nodes`` as its first link is yielded, and so is the bare node ``add_edge`` makes
    for an end that is not in the vault (only in a hand-built Vault)."""
    ghost_keys: dict[str, str] = {}
    for item in vault.links:
        if item.source not in nodes:
            nodes[item.source] = {}
        target, ghost = _link_end(item, ghost_keys)
        if target not in nodes:
            nodes[target] = named_attrs("ghost", target) if ghost else {}
        yield item.source, target, item


def build_graph(vault: Vault) -> VaultGraph:
    """A ``networkx.MultiDiGraph`` of the vault, one edge per link, built through networkx's
    public API from the field table (:data:`NOTE_FIELDS`, :data:`EDGE_FIELDS`).

    Nodes are notes (``kind="note"``), attachments (``"attachment"``) and one ``"ghost"`` node
    per missing target; a note that could not be read is an ``"unreadable"`` node. Ambiguous
    links point at the file that wins, with ``ambiguous=True``.
    """
    import networkx as nx

    graph: VaultGraph = nx.MultiDiGraph()
    nodes = file_nodes(vault)
    graph.add_nodes_from(nodes.items())
    graph.add_edges_from(_ends_added(graph, nodes, link_edges(vault, nodes)))
    return graph


def _ends_added(
    graph: VaultGraph, nodes: dict[str, Attrs], edges: Iterator[Edge]
) -> Iterator[tuple[str, str, Attrs]]:
    """The edges with their attributes, each new end's node added to ``graph`` first."""
    for source, target, item in edges:
        if source not in graph:
            graph.add_node(source, **nodes[source])
        if target not in graph:
            graph.add_node(target, **nodes[target])
        yield source, target, edge_attrs(item)


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


_LINK_KEYS = ("source", "target", "key")  # what node_link_data adds to an edge's attributes


def _template(names: Sequence[str]) -> str:
    """An object at depth 2 with one ``%s`` a field, laid out as ``json.dumps(..., indent=2)``
    lays it out (field names are plain identifiers: their JSON is ``"name"``)."""
    fields = ",\n".join(f"      {_encode(name).replace('%', '%%')}: %s" for name in names)
    return "    {\n" + fields + "\n    }"


@cache
def _edge_template(optional: tuple[str, ...]) -> tuple[str, int]:
    """The edge object's template with these optional fields, and where ``target`` is in it:
    node_link_data writes ``{**attributes, "source": u, "target": v, "key": k}``, so the node
    key replaces the ``target`` attribute in its place and ``source`` and ``key`` follow."""
    names = [*(f[0] for f in EDGE_FIELDS), *optional]
    names += [key for key in _LINK_KEYS if key not in names]
    return _template(names), names.index("target")


def _encoders(texts: _Strings) -> dict[JsonKind, Callable[[Any], str]]:
    """How each JSON kind of the field table is written (strings through ``texts``)."""
    return {
        "str": texts.__getitem__,
        "int": str,
        "bool": _BOOL.__getitem__,
        "list": lambda items: _list(texts, items),
    }


_NOTE_KINDS: dict[str, JsonKind] = {name: kind for name, _read, kind in NOTE_FIELDS}


@cache
def _node_template(names: tuple[str, ...]) -> str:
    return _template([*names, "id"])  # node_link_data writes ``{**attributes, "id": n}``


def _json_nodes(nodes: dict[str, Attrs], texts: _Strings) -> list[str]:
    """Each node's object, in ``nodes`` order: its attributes by their kind in the field table
    (:data:`NAMED_FIELDS` are strings), then its ``id``."""
    encoders = _encoders(texts)
    objects: list[str] = []
    for path, attrs in nodes.items():
        values = [encoders[_NOTE_KINDS.get(name, "str")](v) for name, v in attrs.items()]
        objects.append(_node_template(tuple(attrs)) % (*values, texts[path]))
    return objects


def _json_edges(vault: Vault, nodes: dict[str, Attrs], texts: _Strings) -> dict[str, list[str]]:
    """Each source's edge objects in ``graph.edges(keys=True)`` order (by target in first-link
    order, then key), as ``node_link_data`` writes them (see :func:`_edge_template`)."""
    encoders = _encoders(texts)
    plan = [(read, encoders[kind]) for _name, read, kind in EDGE_FIELDS]
    groups: dict[str, dict[str, list[str]]] = {}
    for source, target, item in link_edges(vault, nodes):
        keys = groups.setdefault(source, {}).setdefault(target, [])
        values = [write(read(item)) for read, write in plan]
        present: tuple[str, ...] = ()
        for name, read, kind in EDGE_OPTIONAL:
            value = read(item)
            if value is not None:
                present += (name,)
                values.append(encoders[kind](value))
        template, target_at = _edge_template(present)
        values[target_at] = texts[target]
        keys.append(template % (*values, texts[source], len(keys)))
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
    graph: the nodes and edges of the field table, each written as one string, then joined in
    one copy (a fresh process pays for every large string it allocates)."""
    return ",\n".join(vault_json_parts(vault))


def vault_json_parts(vault: Vault) -> list[str]:
    """The pieces whose ``",\n".join`` is :func:`vault_json`: a writer can stream them instead
    of holding the whole document (and its encoded bytes) at once, which on a big vault is
    several hundred megabytes."""
    texts = _Strings()
    nodes = file_nodes(vault)
    groups = _json_edges(vault, nodes, texts)  # adds the ghost and bare nodes to ``nodes``
    objects = _json_nodes(nodes, texts)
    edges = [edge for path in nodes if path in groups for edge in groups[path]]
    items = [*_block("nodes", objects), *_block("edges", edges)]
    items[0] = '{\n  "directed": true,\n  "multigraph": true,\n  "graph": {},\n' + items[0]
    items[-1] += "\n}\n"
    return items


def export_vault(vault: Vault, fmt: str) -> str:
    """The vault's graph in one of :data:`FORMATS`; JSON needs no networkx."""
    return vault_json(vault) if fmt == "json" else export(build_graph(vault), fmt)
