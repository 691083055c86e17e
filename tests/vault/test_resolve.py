"""Obsidian link resolution: every rule and tie-break of Obsidian's resolution, table-driven."""

from __future__ import annotations

import unicodedata

import pytest

from vaultkit.vault.model import Link, Note
from vaultkit.vault.resolve import (
    Resolution,
    ResolvedLink,
    build_file_index,
    match_key,
    resolve_all,
    resolve_target,
)

NFD_KOREAN = unicodedata.normalize("NFD", "한글 노트.md")
NFD_CAFE = unicodedata.normalize("NFD", "Café.md")

VAULT = (
    "Home.md",
    "Note.md",
    "a/Note.md",
    "a/b/Note.md",
    "a/b/Deep.md",
    "x/y/Deep.md",
    "zz/Deep.md",
    "same/Dup.md",
    "other/Dup.md",
    "longer-folder/Dup.md",
    "abcd/Tie.md",
    "a/bc/Tie.md",
    "abd/Lex.md",
    "abc/Lex.md",
    "Projects/Plan.md",
    "archive/Projects/Plan.md",
    "w/Projects/Draft.md",
    "archive/Projects/Draft.md",
    "img.png",
    "assets/photo.png",
    "p/photo.png",
    "board.canvas",
    "notes.v2.md",
    "Readme.md",
    "Readme.md.md",
    "Data",
    NFD_KOREAN,
    f"k/{NFD_CAFE}",
    "folder/inside.md",
    ".obsidian/workspace.md",
    ".trash/Old.md",
    "a/.hidden/Secret.md",
)

INDEX = build_file_index(VAULT)


def _res(source: str, target: str) -> Resolution:
    return resolve_target(INDEX, source, target)


# (source note, link target, expected path or None for a ghost)
CASES: list[tuple[str, str, str | None]] = [
    # self links and whitespace
    ("a/src.md", "", "a/src.md"),
    ("a/src.md", "   ", "a/src.md"),
    ("src.md", "  Home  ", "Home.md"),
    ("src.md", "\tHome\n", "Home.md"),
    # case-insensitive, result is the stored path
    ("src.md", "home", "Home.md"),
    ("src.md", "HOME", "Home.md"),
    ("src.md", "home.MD", "Home.md"),
    # Unicode: stored NFD, written NFC (and the other way round), any case
    ("src.md", "한글 노트", NFD_KOREAN),
    ("src.md", unicodedata.normalize("NFD", "한글 노트"), NFD_KOREAN),
    ("src.md", "CAFÉ", f"k/{NFD_CAFE}"),
    ("src.md", "k/café.md", f"k/{NFD_CAFE}"),
    # .md optional for notes, extension required for other files
    ("src.md", "notes.v2", "notes.v2.md"),
    ("src.md", "notes.v2.md", "notes.v2.md"),
    ("src.md", "board", None),
    ("src.md", "board.canvas", "board.canvas"),
    ("src.md", "img.png", "img.png"),
    ("src.md", "img", None),
    ("src.md", "Readme.md", "Readme.md"),
    ("src.md", "Readme", "Readme.md"),
    ("src.md", "Data", "Data"),
    # root-exact wins over same folder and shorter paths
    ("a/src.md", "Note", "Note.md"),
    ("a/b/src.md", "Note", "Note.md"),
    ("archive/Projects/src.md", "Projects/Plan", "Projects/Plan.md"),
    # else a candidate in the linking note's folder
    ("other/src.md", "Dup", "other/Dup.md"),
    ("longer-folder/src.md", "Dup", "longer-folder/Dup.md"),
    ("x/y/src.md", "Deep", "x/y/Deep.md"),
    ("archive/Projects/src.md", "Projects/Draft", "archive/Projects/Draft.md"),
    ("x/y/sub/src.md", "Deep", "zz/Deep.md"),  # an ancestor folder counts for nothing
    # else the shortest path; ties: fewest segments, then lexicographic
    ("src.md", "Dup", "same/Dup.md"),
    ("x/src.md", "Deep", "zz/Deep.md"),
    ("src.md", "Projects/Draft", "w/Projects/Draft.md"),
    ("src.md", "photo.png", "p/photo.png"),
    ("src.md", "Tie", "abcd/Tie.md"),
    ("src.md", "Lex", "abc/Lex.md"),
    # partial paths match on "/" boundaries only
    ("src.md", "b/Note", "a/b/Note.md"),
    ("src.md", "a/b/Note", "a/b/Note.md"),
    ("src.md", "A/NOTE", "a/Note.md"),
    ("src.md", "rojects/Plan", None),
    ("src.md", "ote", None),
    ("src.md", "y/Deep.md", "x/y/Deep.md"),
    # a leading "/" is an exact vault path
    ("a/b/src.md", "/Note", "Note.md"),
    ("src.md", "/a/Note", "a/Note.md"),
    ("src.md", "/a/Note.md", "a/Note.md"),
    ("src.md", "/b/Note", None),
    ("src.md", "/Deep", None),
    ("src.md", "/a/b/../Note", "a/Note.md"),
    ("src.md", "/../Note", None),
    ("src.md", "/board", None),
    # "./" and "../" are relative to the linking note's folder
    ("a/b/src.md", "./Note", "a/b/Note.md"),
    ("a/b/src.md", "../Note", "a/Note.md"),
    ("a/b/src.md", "../../Note", "Note.md"),
    ("a/b/src.md", ".././../Note.md", "Note.md"),
    ("a/b/src.md", "../b/./Deep", "a/b/Deep.md"),
    ("src.md", "./Note", "Note.md"),
    ("zz/src.md", "./Deep", "zz/Deep.md"),
    ("a/src.md", "./Home", None),
    ("a/src.md", "./Deep", None),
    # escaping the vault root is a ghost
    ("src.md", "../Note", None),
    ("a/b/src.md", "../../../Note", None),
    ("a/src.md", "..", None),
    ("src.md", ".", None),
    # folders are not targets
    ("src.md", "folder", None),
    ("src.md", "a/b", None),
    ("src.md", "/a", None),
    ("src.md", "folder/", None),
    ("src.md", "/", None),
    # dot-folders are not part of the vault
    ("src.md", "workspace", None),
    ("src.md", ".obsidian/workspace", None),
    ("src.md", "/.obsidian/workspace.md", None),
    ("src.md", "Old", None),
    ("a/src.md", "Secret", None),
    ("a/src.md", "./.hidden/Secret", None),
]


@pytest.mark.parametrize(("source", "target", "expected"), CASES)
def test_resolution_table(source: str, target: str, expected: str | None) -> None:
    assert _res(source, target).path == expected


# (source note, link target, every candidate with the winner first, whether the target spelled
# the winner's full vault path). A full path is how Obsidian itself tells same-named files
# apart, so such a link is not ambiguous even though other files match too.
AMBIGUOUS: list[tuple[str, str, tuple[str, ...], bool]] = [
    ("a/b/src.md", "Note", ("Note.md", "a/b/Note.md", "a/Note.md"), True),
    ("a/src.md", "Note", ("Note.md", "a/Note.md", "a/b/Note.md"), True),
    (
        "archive/Projects/s.md",
        "Projects/Plan",
        ("Projects/Plan.md", "archive/Projects/Plan.md"),
        True,
    ),
    ("src.md", "Dup", ("same/Dup.md", "other/Dup.md", "longer-folder/Dup.md"), False),
    ("other/src.md", "Dup", ("other/Dup.md", "same/Dup.md", "longer-folder/Dup.md"), False),
    ("src.md", "Deep", ("zz/Deep.md", "a/b/Deep.md", "x/y/Deep.md"), False),
    ("src.md", "Tie", ("abcd/Tie.md", "a/bc/Tie.md"), False),
    ("src.md", "Lex", ("abc/Lex.md", "abd/Lex.md"), False),
    ("src.md", "Readme.md", ("Readme.md", "Readme.md.md"), False),  # both are full-path matches
    ("src.md", "photo.png", ("p/photo.png", "assets/photo.png"), False),
]


@pytest.mark.parametrize(("source", "target", "expected", "exact"), AMBIGUOUS)
def test_several_matches_record_every_candidate(
    source: str, target: str, expected: tuple[str, ...], exact: bool
) -> None:
    result = _res(source, target)
    assert result.candidates == expected
    assert result.path == expected[0]
    assert result.exact is exact
    assert result.ambiguous is not exact


@pytest.mark.parametrize(
    ("target", "exact"),
    [
        ("Home", True),
        ("b/Note", False),
        ("/a/Note", True),
        ("./Note", True),
        ("../Note", True),
        ("img.png", True),
        ("Data", True),
        ("y/Deep", False),
    ],
)
def test_a_single_match_has_no_candidates(target: str, exact: bool) -> None:
    result = _res("a/b/src.md", target)
    assert result.path is not None
    assert result.candidates == ()
    assert result.exact is exact
    assert not result.ambiguous
    assert not result.ghost


def test_self_links_and_ghosts_are_neither_exact_nor_ambiguous() -> None:
    for result in (_res("a/src.md", ""), _res("a/src.md", "Missing"), _res("a/src.md", "Dup/")):
        assert (result.exact, result.ambiguous, result.candidates) == (False, False, ())


def test_same_name_differing_only_in_case_or_normalisation_are_both_candidates() -> None:
    nfc = unicodedata.normalize("NFC", "노트.md")
    nfd = unicodedata.normalize("NFD", "노트.md")
    index = build_file_index(["x/note.md", "x/Note.md", f"y/{nfc}", f"z/{nfd}"])
    assert resolve_target(index, "s.md", "NOTE").candidates == ("x/Note.md", "x/note.md")
    by_path = resolve_target(index, "s.md", "/x/note")
    assert by_path.candidates == ("x/Note.md", "x/note.md")
    assert by_path.ambiguous  # a full path that fits two files does not choose between them
    assert resolve_target(index, "z/s.md", "노트").candidates == (f"z/{nfd}", f"y/{nfc}")


ALIASES = {
    "Home.md": ["Start", "시작", "  ", "Shared"],
    "a/Note.md": ["shared", "Home"],
    "not/indexed.md": ["Phantom"],
    ".obsidian/workspace.md": ["Hidden"],
    "img.png": ["Picture"],
}
ALIAS_INDEX = build_file_index(VAULT, ALIASES)


@pytest.mark.parametrize(
    ("target", "path", "alias_of"),
    [
        ("Start", None, ("Home.md",)),
        ("  start ", None, ("Home.md",)),
        ("시작", None, ("Home.md",)),
        (unicodedata.normalize("NFD", "시작"), None, ("Home.md",)),
        ("SHARED", None, ("Home.md", "a/Note.md")),
        ("Home", "Home.md", ()),  # a real file wins; an alias never resolves anything
        ("Phantom", None, ()),  # aliases of files outside the index are ignored
        ("Hidden", None, ()),
        ("Picture", None, ()),  # only notes carry aliases
        ("Nobody", None, ()),
    ],
)
def test_aliases_never_resolve_but_name_their_notes(
    target: str, path: str | None, alias_of: tuple[str, ...]
) -> None:
    result = resolve_target(ALIAS_INDEX, "src.md", target)
    assert result.path == path
    assert result.alias_of == alias_of


def test_index_lists_sorted_unique_files_outside_dot_folders() -> None:
    ignored = [".trash/x.md", "c/.git/y.md", "", "/abs.md", "d/..", "e/", ".env.md", "f/.DS_Store"]
    index = build_file_index(["b.md", "a.png", "b.md", *ignored, "g//h.md", "./i.md"])
    assert index.paths == ("a.png", "b.md")
    assert index.notes == ("b.md",)
    assert len(index) == 2
    assert "b.md" in index
    assert ".trash/x.md" not in index


@pytest.mark.parametrize(
    ("path", "expected"),
    [("Home.md", True), ("img.png", False), ("Data", False), ("Missing.md", False)],
)
def test_is_note(path: str, expected: bool) -> None:
    assert INDEX.is_note(path) is expected


def test_same_name_notes_groups_duplicates_shortest_first() -> None:
    index = build_file_index(
        ["n/Dup.md", "Dup.md", "m/dup.MD", "One.md", "x/photo.png", "photo.png"]
    )
    assert index.same_name_notes() == (("Dup.md", "m/dup.MD", "n/Dup.md"),)


def test_match_key_ignores_case_and_normalisation() -> None:
    assert match_key("Ä") == match_key(unicodedata.normalize("NFD", "ä"))
    assert match_key("Note") != match_key("Notes")


def test_resolve_all_keeps_order_and_depends_on_the_source_folder() -> None:
    links = (
        Link("wikilink", "Dup", line=1),
        Link("embed", "img.png", line=2, embed=True),
        Link("wikilink", "", subpath="Heading", line=3),
        Link("markdown", "Missing", line=4),
        Link("wikilink", "Note", subpath="Nowhere", line=5),
    )
    notes = [Note("other/one.md", links=links), Note("two.md", links=links[:1])]
    resolved = resolve_all(INDEX, notes)
    assert [(r.source, r.link.line, r.resolution.path) for r in resolved] == [
        ("other/one.md", 1, "other/Dup.md"),
        ("other/one.md", 2, "img.png"),
        ("other/one.md", 3, "other/one.md"),
        ("other/one.md", 4, None),
        ("other/one.md", 5, "Note.md"),
        ("two.md", 1, "same/Dup.md"),
    ]
    assert resolved[0] == ResolvedLink("other/one.md", links[0], _res("other/one.md", "Dup"))


def test_resolve_all_shares_one_value_per_distinct_result() -> None:
    links = (Link("wikilink", "Note"), Link("wikilink", "./Note"), Link("wikilink", ""))
    notes = [Note("a.md", links=links), Note("other/b.md", links=links[:1]), Note("Note.md")]
    resolved = resolve_all(INDEX, notes)
    for item in resolved:  # each value is what resolve_target gives for that link alone
        assert item.resolution == resolve_target(INDEX, item.source, item.link.target)
    first, relative, _, second = (r.resolution for r in resolved)
    assert first is second  # written in two folders, one value
    assert relative.path == first.path and relative is not first  # equal path, other candidates


# Tie-break fixture observed in Obsidian 1.13.7: root-exact, then own folder, then shortest string.
TIE_VAULT = ("Note.md", "zzzz/Note.md", "a/b/Note.md", "other.md")


@pytest.mark.parametrize(
    ("files", "source", "expected"),
    [
        (TIE_VAULT, "src.md", "Note.md"),
        (TIE_VAULT, "zzzz/src.md", "Note.md"),
        (TIE_VAULT, "a/b/src.md", "Note.md"),
        (TIE_VAULT[1:], "src.md", "a/b/Note.md"),  # shorter string beats fewer segments
        (TIE_VAULT[1:], "zzzz/src.md", "zzzz/Note.md"),
        (TIE_VAULT[1:], "a/b/src.md", "a/b/Note.md"),
        (TIE_VAULT[1:], "zzzz/deep/src.md", "a/b/Note.md"),
        (TIE_VAULT[1:], "a/src.md", "a/b/Note.md"),
    ],
)
def test_observed_obsidian_tie_break(files: tuple[str, ...], source: str, expected: str) -> None:
    assert resolve_target(build_file_index(files), source, "Note").path == expected
