"""The networkx graph: node and edge attributes, analysis on hand-built values, and exports."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import networkx as nx
import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from vaultkit.vault import analysis
from vaultkit.vault.graph import (
    VaultGraph,
    build_graph,
    dot_quote,
    export,
    ghost_key,
    to_dot,
    to_gexf,
    to_graphml,
    to_json,
    vault_json,
)
from vaultkit.vault.load import Vault
from vaultkit.vault.model import Heading, Link, Note
from vaultkit.vault.resolve import build_file_index, resolve_all

EXAMPLE = REPO / "examples" / "sessions" / "wiki"
HOSTILE = 'say "hi" \\ 한글 {x} -> [y];'


def make_vault(notes: list[Note], attachments: tuple[str, ...] = ()) -> Vault:
    """A Vault from values built by hand (no disk, no parser)."""
    notes = sorted(notes, key=lambda n: n.path)
    index = build_file_index([*(n.path for n in notes), *attachments], {})
    return Vault(Path("/v"), tuple(notes), attachments, index, resolve_all(index, notes), ())


def wl(target: str, line: int = 1, *, subpath: str = "", display: str | None = None) -> Link:
    return Link("wikilink", target, subpath=subpath, display=display, line=line)


@pytest.fixture
def small() -> Vault:
    return make_vault(
        [
            Note(
                "a.md",
                frontmatter={"title": "Alpha", "quality": "degraded"},
                links=(wl("b", 3, display="Bee"), wl("gone", 4), wl("", 5, subpath="Top")),
                tags=("x", "y"),
                aliases=("First",),
            ),
            Note("b.md", headings=(Heading("Bee heading", 1, 1),), links=(wl("sub/c", 2),)),
            Note("sub/c.md", tags=("x",), links=(Link("embed", "pic.png", embed=True),)),
            Note("INDEX.md", links=(wl("a"), wl("b"), wl("sub/c"), wl("lone"))),
            Note("lone.md"),
        ],
        ("pic.png",),
    )


def test_nodes_carry_kind_and_note_attributes(small: Vault) -> None:
    graph = build_graph(small)
    assert isinstance(graph, nx.MultiDiGraph)
    assert graph.nodes["a.md"] == {
        "kind": "note",
        "name": "a",
        "title": "Alpha",
        "tags": ["x", "y"],
        "aliases": ["First"],
        "degraded": True,
    }
    assert graph.nodes["b.md"]["title"] == "Bee heading"
    assert graph.nodes["lone.md"]["title"] == "lone"
    assert graph.nodes["pic.png"] == {"kind": "attachment", "name": "pic.png"}
    assert graph.nodes["gone"] == {"kind": "ghost", "name": "gone"}


def test_one_edge_per_link_with_link_attributes(small: Vault) -> None:
    graph = build_graph(small)
    assert graph.number_of_edges() == len(small.links) == 9
    (attrs,) = graph.get_edge_data("a.md", "b.md").values()
    assert attrs == {
        "kind": "wikilink",
        "target": "b",
        "subpath": "",
        "display": "Bee",
        "line": 3,
        "col": 1,
        "ambiguous": False,
    }
    (self_link,) = graph.get_edge_data("a.md", "a.md").values()
    assert self_link["subpath"] == "Top"
    assert graph.has_edge("sub/c.md", "pic.png")


def test_ambiguous_links_point_at_the_winner() -> None:
    vault = make_vault([Note("x/n.md"), Note("yy/n.md"), Note("r.md", links=(wl("n"),))])
    graph = build_graph(vault)
    (attrs,) = graph.get_edge_data("r.md", "x/n.md").values()
    assert attrs["ambiguous"] is True
    assert not graph.has_edge("r.md", "yy/n.md")


def test_alias_ghost_names_the_note_with_that_alias() -> None:
    notes = [Note("real.md", aliases=("Nick",)), Note("w.md", links=(wl("nick"),))]
    index = build_file_index([n.path for n in notes], {"real.md": ("Nick",)})
    vault = Vault(Path("/v"), tuple(notes), (), index, resolve_all(index, notes), ())
    (attrs,) = build_graph(vault).get_edge_data("w.md", "nick").values()
    assert attrs["alias_of"] == ["real.md"]


def test_analysis_on_hand_built_vault(small: Vault) -> None:
    assert [g.link.target for g in analysis.ghosts(small)] == ["gone"]
    assert analysis.orphans(small) == ("a.md", "lone.md")
    assert analysis.isolated(small) == ("lone.md",)
    assert analysis.dead_ends(small) == ("lone.md",)
    assert [b.source for b in analysis.backlinks(small, "b.md")] == ["INDEX.md", "a.md"]
    assert analysis.backlinks(small, "a.md")[0].source == "INDEX.md"
    assert analysis.degraded(small) == ("a.md",)
    assert analysis.tags(small) == {"x": 2, "y": 1}
    assert [o.link.line for o in analysis.outgoing(small, "a.md")] == [3, 4, 5]


def test_json_is_node_link_and_loads_back(small: Vault) -> None:
    graph = build_graph(small)
    data = json.loads(to_json(graph))
    assert data["directed"] is True and data["multigraph"] is True
    again = nx.node_link_graph(data, edges="edges")
    assert again.number_of_nodes() == graph.number_of_nodes()
    assert again.number_of_edges() == graph.number_of_edges()
    assert again.nodes["a.md"]["tags"] == ["x", "y"]


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_graphml_and_gexf_round_trip_the_example(fmt: str) -> None:
    from vaultkit.vault.load import load_vault

    graph = build_graph(load_vault(EXAMPLE))
    text = export(graph, fmt)
    reader = nx.read_graphml if fmt == "graphml" else nx.read_gexf
    again = reader(io.BytesIO(text.encode("utf-8")))
    assert again.number_of_nodes() == graph.number_of_nodes()
    assert again.number_of_edges() == graph.number_of_edges()
    korean = "2026-11-09_1545_1d6f0b8a_카테고리 규칙 엔진.md"
    assert korean in again
    assert json.loads(again.nodes[korean]["tags"]) == ["ledgerline", "rules"]
    assert {a["kind"] for a in again.nodes.values()} == {"note", "attachment", "ghost"}


def test_graphml_drops_none_and_flattens_lists(small: Vault) -> None:
    text = to_graphml(build_graph(small))
    assert "None" not in text
    assert "[&quot;x&quot;, &quot;y&quot;]" in text or '["x", "y"]' in text
    assert to_gexf(build_graph(small)).startswith("<?xml")


# --- DOT: a tiny reader that follows Graphviz's lexer rules for quoted strings ---------------
_QUOTED = re.compile(r'"((?:\\\\|\\"|[^"\\]|\\(?!["\\]))*)"')


def _unescape(raw: str) -> str:
    out, i = [], 0
    while i < len(raw):
        if raw[i] == "\\" and i + 1 < len(raw) and raw[i + 1] in '\\"n':
            out.append("\n" if raw[i + 1] == "n" else raw[i + 1])
            i += 2
        else:
            out.append(raw[i])
            i += 1
    return "".join(out)


def _dot_statements(text: str) -> list[list[str]]:
    lines = text.splitlines()
    assert lines[0] == "digraph vault {" and lines[-1] == "}"
    rows = []
    for line in lines[2:-1]:
        rest = _QUOTED.sub("Q", line).strip()
        assert re.fullmatch(r"Q( -> Q)?( \[Q=Q(, Q=Q)*\]| \[\w+=Q(, \w+=Q)*\])?;", rest), line
        rows.append([_unescape(m) for m in _QUOTED.findall(line)])
    return rows


def test_dot_quotes_hostile_unicode_names() -> None:
    name = f"{HOSTILE}.md"
    vault = make_vault(
        [Note(name, links=(wl("trail\\"), wl(HOSTILE))), Note("ok.md", links=(wl(HOSTILE),))]
    )
    rows = _dot_statements(to_dot(build_graph(vault)))
    nodes = [r[0] for r in rows if len(r) > 0 and " -> " not in r]
    assert name in nodes and "trail\\" in nodes
    edges = {(r[0], r[1]) for r in rows if len(r) >= 2 and r[1] in {name, "trail\\", "ok.md"}}
    assert (name, "trail\\") in edges
    assert (name, name) in edges and ("ok.md", name) in edges


def test_dot_quote_escapes_exactly_quotes_backslashes_and_newlines() -> None:
    assert dot_quote('a"b') == '"a\\"b"'
    assert dot_quote("a\\") == '"a\\\\"'
    assert dot_quote("x\ny") == '"x\\ny"'
    assert dot_quote("한글") == '"한글"'


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=40))
def test_dot_quote_round_trips_through_graphviz_lexer_rules(text: str) -> None:
    quoted = dot_quote(text)
    match = _QUOTED.fullmatch(quoted)
    assert match is not None
    expected = text.replace("\r\n", "\n").replace("\r", "\n")
    assert _unescape(match.group(1)) == expected


def test_a_note_that_vanished_is_an_unreadable_node(tmp_path: Path) -> None:
    from vaultkit.vault.load import load_vault

    (tmp_path / "a.md").write_text("[[b]]", encoding="utf-8")
    doomed = tmp_path / "b.md"
    doomed.write_text("# B", encoding="utf-8")
    vault = load_vault(tmp_path, progress=lambda done, _: doomed.unlink() if done == 1 else None)
    graph = build_graph(vault)
    assert graph.nodes["b.md"]["kind"] == "unreadable"
    assert graph.has_edge("a.md", "b.md")


@pytest.mark.timeout(60)
def test_analysis_stays_linear_on_a_large_vault() -> None:
    size = 10_000
    notes = [Note(f"n{i}.md", links=(wl(f"n{i + 1}"), wl(f"ghost{i % 7}"))) for i in range(size)]
    vault = make_vault([*notes, Note("INDEX.md", links=(wl("n0"),))])
    assert analysis.orphans(vault) == ("n0.md",)
    assert analysis.dead_ends(vault) == (f"n{size - 1}.md",)
    assert analysis.isolated(vault) == ()
    assert len(analysis.ghosts(vault)) == size + 1
    assert build_graph(vault).number_of_nodes() == size + 1 + 7 + 1


def test_dot_labels_notes_by_title_and_dashes_ghosts(small: Vault) -> None:
    lines = to_dot(build_graph(small)).splitlines()
    assert any(line.startswith('  "a.md" [label="Alpha", shape="box"') for line in lines)
    assert any(
        line.startswith('  "gone" [label="gone", shape="ellipse", style="dashed"') for line in lines
    )
    assert '  "a.md" -> "b.md" [' in "\n".join(lines)


def _public_api_graph(graph: VaultGraph, vault: Vault) -> VaultGraph:
    """The graph networkx's own ``add_nodes_from`` and ``add_edge`` build from the same links.

    Node attributes are copied from ``graph`` (the golden-file tests check them); every edge
    attribute is spelt out here, independently of ``vaultkit.vault.graph``.
    """
    ref: VaultGraph = nx.MultiDiGraph()
    ref.add_nodes_from((node, dict(attrs)) for node, attrs in graph.nodes(data=True))
    for item in vault.links:
        link, resolution = item.link, item.resolution
        target = resolution.path if resolution.path is not None else ghost_key(item)
        attrs: dict[str, object] = {
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
        ref.add_edge(item.source, target, **attrs)
    return ref


def _assert_same_structure(graph: VaultGraph, ref: VaultGraph) -> None:
    assert list(graph.nodes) == list(graph.succ) == list(graph.pred) == list(ref.nodes)
    assert list(graph.edges(keys=True, data=True)) == list(ref.edges(keys=True, data=True))
    assert list(graph.in_edges(keys=True, data=True)) == list(ref.in_edges(keys=True, data=True))
    assert nx.utils.graphs_equal(graph, ref)
    for source, target in graph.edges():
        assert graph.succ[source][target] == graph.pred[target][source]
    kinds = {type(d) for _, d in graph.nodes(data=True)} | {
        type(d) for *_, d in graph.edges(data=True)
    }
    assert kinds <= {dict}


def _example_and_generated(tmp_path: Path) -> list[Vault]:
    from benchmarks.generate import write_vault
    from vaultkit.vault.load import load_vault

    return [load_vault(EXAMPLE), load_vault(write_vault(tmp_path / "v", 300, 3), cache=False)]


def test_field_table_graph_equals_one_built_by_hand(small: Vault, tmp_path: Path) -> None:
    for vault in [small, *_example_and_generated(tmp_path)]:
        graph = build_graph(vault)
        _assert_same_structure(graph, _public_api_graph(graph, vault))


def test_built_graph_keeps_working_with_networkx_mutations(small: Vault) -> None:
    graph = build_graph(small)
    ref = _public_api_graph(graph, small)
    for g in (graph, ref):
        g.add_edge("a.md", "b.md", kind="wikilink")
        g.remove_edge("a.md", "b.md", key=0)
        g.add_edge("lone.md", "new", kind="embed")
        g.remove_node("sub/c.md")
        g.edges["INDEX.md", "a.md", 0]["line"] = 9
    _assert_same_structure(graph, ref)
    assert list(graph.successors("lone.md")) == ["new"]


def test_a_target_outside_the_nodes_becomes_a_bare_node_as_add_edge_makes() -> None:
    notes = (Note("a.md", links=(wl("x.png"), wl("a"))),)
    index = build_file_index(["a.md", "x.png"], {})
    vault = Vault(Path("/v"), notes, (), index, resolve_all(index, notes), ())
    graph = build_graph(vault)
    assert graph.nodes["x.png"] == {}
    _assert_same_structure(graph, _public_api_graph(graph, vault))


# Text a hand-written JSON layout could get wrong: quotes, backslashes, raw newlines and other
# control characters, what the layout itself writes between objects and lists, non-ASCII, and
# format placeholders ("%s", "{x}").
_TRICKY = ['"', "\\", "\n", "\r", "\t", "\x01", "\x1f", "\x7f", "},\n      {", "],\n", "%s", "{x}"]
_PIECES = [*_TRICKY, "a", "B", " ", "é", "한", "\u2028", "#", "|"]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=4).map("".join)
_NAME = _TEXT.filter(lambda t: t.strip() != "")


@st.composite
def _hostile_vaults(draw: st.DrawFn) -> Vault:
    """Hand-built vaults with hostile names everywhere; links in any order (sources not
    grouped), ghosts, alias ghosts, ambiguous links, bare nodes and unreadable notes."""
    names = draw(st.lists(_NAME, min_size=1, max_size=5))
    paths = sorted(
        {f"{folder}{name}.md" for name in names for folder in ("", "d/")[: 1 + len(name) % 2]}
    )
    link = st.builds(
        Link,
        st.sampled_from(["wikilink", "markdown", "embed"]),
        st.one_of(st.sampled_from(names), _TEXT),
        subpath=_TEXT,
        display=st.none() | _TEXT,
        line=st.integers(1, 10**6),
        col=st.integers(1, 999),
    )
    notes = [
        Note(
            path,
            frontmatter=draw(
                st.fixed_dictionaries({}, optional={"title": _TEXT, "quality": st.just("degraded")})
            ),
            links=tuple(draw(st.lists(link, max_size=6))),
            tags=tuple(draw(st.lists(_NAME, max_size=3))),
            aliases=tuple(draw(st.lists(_NAME, max_size=2))),
        )
        for path in paths
    ]
    kept = notes[: draw(st.integers(1, len(notes)))]  # the rest: indexed, failed to load
    files = draw(st.lists(_NAME.map(lambda n: n + ".png"), max_size=3, unique=True))
    index = build_file_index([*paths, *files], {n.path: n.aliases for n in kept})
    links = draw(st.permutations(resolve_all(index, kept)))
    shown = tuple(files[: draw(st.integers(0, len(files)))])  # the rest: bare nodes
    return Vault(Path("/v"), tuple(kept), shown, index, links, ())


@pytest.mark.slow
@settings(deadline=None)  # no timing assert: a loaded machine is not a failure
@given(_hostile_vaults())
def test_vault_json_equals_networkx_json_for_hostile_vaults(vault: Vault) -> None:
    text = vault_json(vault)
    assert text == to_json(build_graph(vault))
    data = json.loads(text)
    assert [n["id"] for n in data["nodes"]] == list(build_graph(vault).nodes)
    assert len(data["edges"]) == len(vault.links)


def test_vault_json_of_an_empty_vault_and_of_one_without_links() -> None:
    for vault in (make_vault([]), make_vault([Note("a.md")], ("b.png",))):
        assert vault_json(vault) == to_json(build_graph(vault))


def test_vault_json_of_hostile_file_names_on_disk(tmp_path: Path) -> None:
    from vaultkit.vault.load import load_vault

    names = [
        'q"uote',
        "back\\slash",
        "new\nline",
        '},\n      {"kind": "x"',
        "tab\tctl\x01",
        "한글 é",
    ]
    for i, name in enumerate(names):
        links = " ".join(f"[[{other}]]" for other in names if other != name)
        title = name.encode("unicode_escape").decode()
        front = f'---\ntitle: "{title}"\naliases: ["al {i}\\n]"]\n---\n'
        (tmp_path / f"{name}.md").write_text(f"{front}{links} [[ghost {name}]] ![[{name}.png]]\n")
    (tmp_path / f"{names[0]}.png").write_bytes(b"png")
    vault = load_vault(tmp_path, cache=False)
    assert len(vault.notes) == len(names)
    text = vault_json(vault)
    assert text == to_json(build_graph(vault))
    data = json.loads(text)
    notes = {n["id"]: n for n in data["nodes"] if n["kind"] == "note"}
    assert sorted(notes) == sorted(f"{name}.md" for name in names)
    assert all(n["title"] == n["name"] for n in notes.values())
    assert notes["new\nline.md"]["aliases"] == ["al 2\n]"]
    linked = {f"{name}.md" for name in names if "\n" not in name}  # a link holds no newline
    assert {e["target"] for e in data["edges"]} >= linked
