"""A very long note's links are packed (PackedLinks) and its resolved links made on access
(ResolvedLinks): both read and compare exactly like the tuples they replace, and a vault whose
notes are all packed gives the same links, resolutions, findings and graph as one without."""

from __future__ import annotations

import marshal
import pickle
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.generate import write_vault
from vaultkit.base.config import Config
from vaultkit.lint.cache.run import lint_vault
from vaultkit.lint.context import LintContext
from vaultkit.lint.runner import collect
from vaultkit.vault import analysis, records, thresholds
from vaultkit.vault.graph import FORMATS, build_graph, export
from vaultkit.vault.load import load_vault
from vaultkit.vault.model import Finding, Link, LinkPacker, Note, PackedLinks, pack_links
from vaultkit.vault.relink import Affected, affected, link_state, relink
from vaultkit.vault.resolve import (
    ResolvedLinks,
    build_file_index,
    distinct_ends,
    link_ends,
    resolve_all,
)
from vaultkit.vault.value import Vault

ROOT = REPO
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "vaults").iterdir())

names = st.sampled_from(("Plan", "plan", "Café", "a/Plan", "pic.png", "", " x ", "Straße"))
links = st.builds(
    Link,
    kind=st.sampled_from(("wikilink", "embed", "markdown", "frontmatter")),
    target=names,
    subpath=st.sampled_from(("", "Heading", "^blk", "Plan")),
    display=st.one_of(st.none(), names),
    line=st.integers(1, 3_000_000),
    col=st.integers(1, 70_000),
    embed=st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(found=st.lists(links, max_size=30))
def test_packed_links_read_and_compare_as_their_tuple(found: list[Link]) -> None:
    plain = tuple(found)
    packed = pack_links(found)
    assert packed == plain and plain == packed and (packed != plain) is False
    assert tuple(packed) == plain and len(packed) == len(plain)
    assert all(type(link) is Link for link in packed)
    assert [packed[i] for i in range(-len(plain), len(plain))] == [*plain, *plain]
    assert packed[1:-1:2] == plain[1:-1:2]
    assert hash(packed) == hash(plain)
    assert pickle.loads(pickle.dumps(packed)) == plain
    for wrong in (len(plain), -len(plain) - 1):
        with pytest.raises(IndexError):
            packed[wrong]
    if plain:
        assert plain[-1] in packed and packed.index(plain[0]) == plain.index(plain[0])
        changed = (*plain[:-1], plain[-1]._replace(col=plain[-1].col + 1))
        assert packed != changed and pack_links(changed) != packed
    assert packed != (*plain, Link("wikilink", "Plan"))


@settings(max_examples=100, deadline=None)
@given(first=st.lists(links, max_size=10), keyed=st.lists(links, max_size=30))
def test_links_added_by_key_pack_as_the_same_links_added_whole(
    first: list[Link], keyed: list[Link]
) -> None:
    packer = LinkPacker()
    packer.add(first)
    keys = [packer.key(x.kind, x.target, x.subpath, x.display, x.embed) for x in keyed]
    packer.add_keyed(keys, [x.line for x in keyed], [x.col for x in keyed])
    packed = packer.packed()
    assert packed == tuple(first + keyed)
    assert PackedLinks.from_columns(*packed.columns()) == packed


def test_links_added_by_key_need_a_line_and_a_column_each() -> None:
    packer = LinkPacker()
    key = packer.key("wikilink", "Plan", "", None, False)
    with pytest.raises(ValueError, match="different lengths"):
        packer.add_keyed([key, key], [1, 2], [1])
    assert len(packer) == 0


def test_packed_links_of_a_tuple_and_a_list_do_not_equal_other_types() -> None:
    packed = pack_links([Link("wikilink", "Plan", line=3)])
    assert packed != [Link("wikilink", "Plan", line=3)]  # a tuple never equals a list either
    assert packed != "Plan"


def _notes(files: list[str], targets: list[str], packed: bool) -> list[Note]:
    """A note's links depend on its path only (as on disk, where cached rows follow content);
    with ``packed``, every note whose path has an even length has them packed."""
    notes = []
    for path in (p for p in files if p.endswith(".md")):
        shift = len(path) % len(targets)
        picked = targets[shift:] + targets[:shift]
        found = tuple(Link("wikilink", t, subpath="h", line=i + 1) for i, t in enumerate(picked))
        notes.append(
            Note(path, links=pack_links(found) if packed and len(path) % 2 == 0 else found)
        )
    return notes


files = st.sets(
    st.sampled_from(("Plan.md", "a/Plan.md", "a/Idea.md", "B/plan.md", "pic.png", "x.md")),
    min_size=1,
)
targets = st.lists(
    st.sampled_from(("Plan", "plan", "Idea", "a/Plan", "../x", "Nope", "")), min_size=1, max_size=6
)


@settings(max_examples=150, deadline=None)
@given(before=files, after=files, targets=targets)
def test_packed_notes_resolve_and_relink_as_tuple_notes(
    before: set[str], after: set[str], targets: list[str]
) -> None:
    old = sorted(before)
    index = build_file_index(old)
    plain = resolve_all(index, _notes(old, targets, packed=False))
    lazy = resolve_all(index, _notes(old, targets, packed=True))
    assert isinstance(plain, tuple)
    assert lazy == plain and plain == lazy and len(lazy) == len(plain)
    assert set(distinct_ends(lazy)) == set(link_ends(plain)) == set(distinct_ends(plain))
    assert tuple(lazy) == plain and [lazy[i] for i in range(-len(plain), len(plain))] == [
        *plain,
        *plain,
    ]
    first = relink(index, _notes(old, targets, packed=True), {}, Affected(everything=True))
    assert first.links == plain
    tuples = relink(index, _notes(old, targets, False), {}, Affected(everything=True))
    stored = {path: marshal.loads(blob) for path, blob in first.rows.items()}
    assert stored == {path: marshal.loads(blob) for path, blob in tuples.rows.items()}

    new = sorted(after)
    new_index = build_file_index(new)
    notes = _notes(new, targets, packed=True)
    change = affected(link_state(old, _notes(old, targets, True)), link_state(new, notes))
    kept = {p: b for p, b in first.rows.items() if p in after}
    again = relink(new_index, notes, kept, change)
    assert again.links == resolve_all(new_index, _notes(new, targets, packed=False))


def test_a_memo_counts_every_link_of_a_packed_note() -> None:
    index = build_file_index(["Plan.md", "Big.md"])
    found = tuple(Link("wikilink", "Plan" if i % 3 else "Nope", line=i + 1) for i in range(30))
    notes = [Note("Big.md", links=pack_links(found))]
    result = relink(index, notes, {}, Affected(everything=True))
    assert result.resolved == 30
    assert isinstance(result.links, ResolvedLinks) and len(result.links) == 30


def _packing_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every body of at least two lines is walked window by window, its links packed."""
    # pack_min_links: and so are a cached note's
    table = replace(thresholds.TABLE, big_body_lines=2, window_lines=3, pack_min_links=2)
    monkeypatch.setattr(thresholds, "TABLE", table)


def _outcome(vault: Vault) -> dict[str, object]:
    graph = build_graph(vault)
    ctx = LintContext(vault=vault, config=Config(), index_text=None)
    return {
        "notes": vault.notes,
        "links": tuple(vault.links),
        "ghosts": analysis.ghosts(vault),
        "orphans": analysis.orphans(vault),
        "ambiguous": analysis.ambiguous(vault),
        "findings": collect(ctx),
        **{fmt: export(graph, fmt) for fmt in FORMATS if fmt != "gexf"},
    }


@pytest.mark.parametrize("cache", [False, True])
def test_a_vault_of_packed_notes_gives_the_same_links_findings_and_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: bool
) -> None:
    roots = [*(folder / "vault" for folder in FIXTURES), ROOT / "examples" / "sessions" / "wiki"]
    roots.append(write_vault(tmp_path / "gen", 120, 7, profile="real"))
    expected = {root: _outcome(load_vault(root, cache=False)) for root in roots}
    _packing_everything(monkeypatch)
    packed_notes = 0
    for n, root in enumerate(roots):
        state = tmp_path / "state" / str(n)
        vault = load_vault(root, cache=cache, state_dir=state)
        packed_notes += sum(isinstance(note.links, PackedLinks) for note in vault.notes)
        got = _outcome(vault)
        for key, value in expected[root].items():
            assert got[key] == value, f"{root.name}: {key}"
    assert packed_notes > 100


def test_a_packed_note_is_cached_as_its_columns_and_read_back_packed() -> None:
    found = [Link("wikilink", "Plan", "h", None, i, 3) for i in range(1, 40)]
    note = Note("Big.md", links=pack_links([*found, Link("markdown", "a b.md", "", "A", 41)]))
    back = records.note_from_record(marshal.loads(marshal.dumps(records.note_record(note))))
    assert isinstance(back.links, PackedLinks) and back == note
    plain = records.note_from_record(records.note_record(Note("x.md", links=tuple(found))))
    assert type(plain.links) is tuple and plain.links == tuple(found)


def test_a_damaged_packed_record_is_a_record_to_parse_again() -> None:
    names, (target, subpath, display, line, col, flags) = pack_links(
        [Link("wikilink", "Plan", line=2)]
    ).columns()
    for broken in (
        {"names": names, "columns": (target, subpath, display, line, col, flags + b"\0")},
        {"names": names[:1], "columns": (target, subpath, display, line, col, flags)},
        {"names": names, "columns": (target, subpath, display, line, col, b"\xff")},
        {"names": names},
    ):
        record = records.note_record(Note("Big.md"))
        with pytest.raises(ValueError):
            records.note_from_record((*record[:2], broken, *record[3:]))  # type: ignore[arg-type]


def test_the_lint_cache_lints_packed_notes_as_tuple_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Full, stored and incremental lint runs (the lint cache groups links by note) give the
    same findings with every note packed as without."""
    plain, packed = (write_vault(tmp_path / name, 80, 5, profile="real") for name in "ab")
    runs: dict[Path, list[tuple[str, list[Finding]]]] = {plain: [], packed: []}
    for root in (plain, packed):
        with monkeypatch.context() as patch:
            if root == packed:
                _packing_everything(patch)
            for step in range(3):
                if step == 2:  # an edit: a new ghost and a new link, linted incrementally
                    note = sorted(root.rglob("*.md"))[3]
                    note.write_text(note.read_text() + "\n[[Nowhere new]] [[a]]\n")
                result = lint_vault(root, cache=True)
                runs[root].append((result.how, result.findings))
            if root == packed:
                notes = load_vault(root, cache=False).notes
                assert sum(isinstance(note.links, PackedLinks) for note in notes) > 40
    assert [how for how, _ in runs[packed]] == ["full", "stored", "incremental"]
    assert runs[packed] == runs[plain]
    assert any("Nowhere new" in f.message for f in runs[packed][2][1])


def _repeating_vault(root: Path) -> Path:
    """A note linking many times to few (target, subpath) pairs: good links, ghosts, alias-only
    links, ambiguous ones, placeholders and broken headings and blocks, interleaved."""
    targets = ("Plan", "Dup", "a/Plan", "Nope", "pic", "Nick", "{{date}}", "", "Idea")
    subpaths = ("", "#Goals", "#Missing", "#^blk", "#^gone", "#Goals#Sub")
    lines = [f"line {i} [[{targets[i % 9]}{subpaths[i % 7 % 6]}]] x" for i in range(400)]
    files = {
        "Big.md": "# Top\n\n" + "\n".join(lines) + "\n",
        "Plan.md": "# Goals\n\nsee ^blk\n",
        "a/Plan.md": "---\naliases: [Nick]\n---\n# Other\n",
        "x/Dup.md": "text\n",
        "y/Dup.md": "# Goals\n",
        "Idea.md": "## Goals\n",
        "pic.png": "",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_packed_note_linking_to_few_names_gets_every_link_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repeating_vault(tmp_path / "vault")
    expected = collect(LintContext(load_vault(root, cache=False), Config(), None))
    _packing_everything(monkeypatch)
    vault = load_vault(root, cache=False)
    part = next(p for p in vault.links.parts if not isinstance(p, tuple))  # type: ignore[attr-defined]
    assert len(part.table) < len(part) > 300  # screened: resolutions shared by name
    got = collect(LintContext(vault, Config(), None))
    assert got == expected
    codes = {f.code for f in got if f.path == "Big.md"}
    assert {"VK101", "VK103", "VK104", "VK105"} <= codes, codes
    assert len([f for f in got if f.path == "Big.md"]) > 100
