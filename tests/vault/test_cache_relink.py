"""Incremental resolution gives exactly what resolving everything gives, for any file change."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vaultkit.vault.model import Link, Note
from vaultkit.vault.relink import Affected, affected, link_state, relink
from vaultkit.vault.resolve import FileIndex, build_file_index, resolve_all

NAMES = ("Plan", "plan", "Café", "CAFÉ", "Idea", "pic.png", "Notes.md", "x")
FOLDERS = ("", "a/", "a/b/", "B/")
TARGETS = (
    "Plan",
    "plan",
    "café",
    "Idea",
    "pic.png",
    "Notes.md",
    "a/Plan",
    "/B/Idea",
    "../Plan",
    "./x",
    "Alias one",
    "alias ONE",
    "Nowhere",
    " ",
    "b/plan",
)

paths = st.sets(
    st.builds(
        lambda f, n: f + (n if "." in n else n + ".md"),
        st.sampled_from(FOLDERS),
        st.sampled_from(NAMES),
    ),
    min_size=1,
    max_size=12,
)
alias_choices = st.lists(st.sampled_from(("Alias one", "Other", "Idea")), max_size=2, unique=True)


def _notes(files: set[str], aliases: dict[str, list[str]], targets: list[str]) -> list[Note]:
    notes = []
    for path in sorted(p for p in files if p.endswith(".md")):
        shift = len(path) % len(targets)  # a note's links depend on its path only (as on disk)
        picked = targets[shift:] + targets[:shift]
        links = tuple(Link("wikilink", t, line=i + 1) for i, t in enumerate(picked[:5]))
        notes.append(Note(path, links=links, aliases=tuple(aliases.get(path, ()))))
    return notes


def _load(
    files: set[str], aliases: dict[str, list[str]], targets: list[str]
) -> tuple[list[Note], list[str], FileIndex]:
    notes = _notes(files, aliases, targets)
    ordered = sorted(files)
    index = build_file_index(ordered, {n.path: n.aliases for n in notes})
    return notes, ordered, index


@settings(max_examples=150, deadline=None)
@given(
    before=paths,
    after=paths,
    alias_a=alias_choices,
    alias_b=alias_choices,
    targets=st.lists(st.sampled_from(TARGETS), min_size=1, max_size=8),
)
def test_incremental_resolution_equals_full_resolution(
    before: set[str], after: set[str], alias_a: list[str], alias_b: list[str], targets: list[str]
) -> None:
    old_aliases = dict.fromkeys(sorted(before)[:2], alias_a)
    new_aliases = dict.fromkeys(sorted(after)[:2], alias_b)
    old_notes, old_files, old_index = _load(before, old_aliases, targets)
    first = relink(old_index, old_notes, {}, Affected(everything=True))
    assert first.links == resolve_all(old_index, old_notes)

    new_notes, new_files, new_index = _load(after, new_aliases, targets)
    kept = {n.path for n in old_notes} & {n.path for n in new_notes}
    cached = {p: b for p, b in first.rows.items() if p in kept}
    change = affected(link_state(old_files, old_notes), link_state(new_files, new_notes))
    again = relink(new_index, new_notes, cached, change)
    assert again.links == resolve_all(new_index, new_notes)


def test_nothing_changed_resolves_nothing_again() -> None:
    notes, files, index = _load({"Plan.md", "a/Idea.md"}, {}, ["Plan", "Idea", "Nowhere"])
    first = relink(index, notes, {}, Affected(everything=True))
    state = link_state(files, notes)
    again = relink(index, notes, first.rows, affected(state, state))
    assert again.links == first.links
    assert again.resolved == 0 and again.rows == {}


def test_a_new_file_re_resolves_only_links_naming_it() -> None:
    notes, files, index = _load({"Plan.md", "a/Idea.md"}, {}, ["Plan", "Idea", "Nowhere"])
    first = relink(index, notes, {}, Affected(everything=True))
    grown = {"Plan.md", "a/Idea.md", "nowhere.md"}
    new_notes, new_files, new_index = _load(grown, {}, ["Plan", "Idea", "Nowhere"])
    change = affected(link_state(files, notes), link_state(new_files, new_notes))
    assert change.names == frozenset({"nowhere.md"})
    again = relink(new_index, new_notes, first.rows, change)
    assert again.links == resolve_all(new_index, new_notes)
    old_ghosts = sum(1 for item in first.links if item.resolution.ghost)
    assert again.resolved == old_ghosts + len(new_notes[1].links)  # the ghosts and the new note
