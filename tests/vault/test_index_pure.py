"""INDEX.md text from notes (pure): order, descriptions, markers, adoption and ghost pruning."""

from __future__ import annotations

import datetime as dt

import pytest

from vaultkit.errors import VaultkitError
from vaultkit.vault.index import (
    END_MARKER,
    START_MARKER,
    IndexEntry,
    LineLink,
    build_entries,
    describe,
    note_stamp,
    one_line,
    plan_index,
)
from vaultkit.vault.model import Heading, Note


def _note(path: str, **frontmatter: object) -> Note:
    return Note(path=path, frontmatter=frontmatter)


def test_order_is_newest_first_then_name_and_undated_last() -> None:
    notes = [
        _note("b.md"),
        _note("a.md"),
        _note("2026-11-28_1012_ab12cd34_Old.md"),
        _note("seed/2026_11_29__08.30_abcdef12_위키.md"),
        _note("x.md", date="2026-11-30T09:00:00+09:00"),
        _note("y.md", date=dt.date(2026, 11, 28)),
        _note("INDEX.md"),
    ]
    links = [e.link for e in build_entries(notes, description_max=80)]
    assert links == [
        "x",
        "2026_11_29__08.30_abcdef12_위키",
        "2026-11-28_1012_ab12cd34_Old",
        "y",
        "a",
        "b",
    ]


def test_order_does_not_depend_on_input_order() -> None:
    notes = [_note(f"n{i}.md", date="2026-01-01") for i in range(5)] + [_note("z.md")]
    first = build_entries(notes, description_max=80)
    assert build_entries(list(reversed(notes)), description_max=80) == first


def test_frontmatter_date_wins_over_the_name_stamp_and_bad_dates_fall_back() -> None:
    assert note_stamp(_note("2020-01-01_0000_x.md", date="2026-02-03")) == "2026-02-03T00:00:00"
    assert note_stamp(_note("2020-01-01_0930_x.md", date="soon")) == "2020-01-01T09:30:00"
    assert note_stamp(_note("2020-13-45_x.md")) == ""


def test_description_sources_in_order() -> None:
    heading = (Heading("First heading", 1, 3),)
    assert describe(Note("a.md", {"description": "D", "title": "T"}, headings=heading), 50) == "D"
    assert describe(Note("a.md", {"title": "T"}, headings=heading), 50) == "T"
    assert describe(Note("T.md", {"title": "t"}, headings=heading), 50) == "First heading"
    assert describe(Note("a.md", first_text="One sentence."), 50) == "One sentence."
    assert describe(Note("a.md"), 50) == ""


def test_description_is_one_bounded_line_without_link_brackets() -> None:
    assert one_line("two\nlines  and [[Link|x]]", 100) == "two lines and Link|x"
    cut = one_line("word " * 50, 20)
    assert len(cut) == 20
    assert cut.endswith("…")


def test_degraded_notes_are_marked_in_their_line() -> None:
    notes = [_note("d.md", title="Fallback", quality="degraded", degraded_reason="no-markers")]
    (entry,) = build_entries(notes, description_max=80)
    assert entry.render() == "- [[d]] — Fallback ⚠ degraded (no-markers)"


def test_duplicate_names_are_linked_by_path() -> None:
    entries = build_entries([_note("Plan.md"), _note("sub/plan.md")], description_max=80)
    assert sorted(e.link for e in entries) == ["Plan", "sub/plan"]


ENTRIES = (IndexEntry("new.md", "new", "New note", "2026-11-30T00:00:00"),)


def test_fresh_index_has_a_heading_and_the_marked_region() -> None:
    plan = plan_index(None, ENTRIES, {})
    assert plan.text == f"# Index\n\n{START_MARKER}\n- [[new]] — New note\n{END_MARKER}\n"
    assert plan.pruned == ()


def test_hand_written_text_around_the_region_survives_and_region_is_replaced() -> None:
    entries = (*ENTRIES, IndexEntry("pinned.md", "pinned", "Pinned", ""))
    existing = (
        f"# My index\n\nRead this first.\n\n{START_MARKER}\n- [[old]] — gone\n{END_MARKER}\n\n"
        "## Notes by hand\n- [[pinned]] my own words\n"
    )
    links = {6: LineLink("old", None), 10: LineLink("pinned", "pinned.md")}
    plan = plan_index(existing, entries, links)
    assert plan.text == (
        f"# My index\n\nRead this first.\n\n{START_MARKER}\n- [[new]] — New note\n{END_MARKER}\n\n"
        "## Notes by hand\n- [[pinned]] my own words\n"
    )
    assert plan.listed == 1  # the hand-listed note is not listed twice
    assert plan.pruned == ()  # the region's own old lines are regenerated, not "pruned"
    assert plan_index(plan.text, entries, {10: LineLink("pinned", "pinned.md")}).text == plan.text


def test_hand_written_bullets_whose_link_became_a_ghost_are_pruned() -> None:
    existing = f"Intro [[gone]] prose stays.\n- [[gone]] — a ghost\n{START_MARKER}\n{END_MARKER}\n"
    links = {1: LineLink("gone", None), 2: LineLink("gone", None)}
    plan = plan_index(existing, ENTRIES, links)
    assert plan.pruned == ("- [[gone]] — a ghost",)
    assert plan.text.startswith("Intro [[gone]] prose stays.\n\n" + START_MARKER)


def test_seed_format_is_adopted_once_without_duplicates_or_loss() -> None:
    existing = (
        "# 위키 인덱스\n\n"
        "- [[new]] — 새 노트\n"
        "- [[deleted]] — 지워진 노트\n"
        "- [[diagram.png]] — 그림\n\n"
        "손으로 쓴 메모.\n"
    )
    links = {
        3: LineLink("new", "new.md"),
        4: LineLink("deleted", None),
        5: LineLink("diagram.png", "diagram.png"),
    }
    plan = plan_index(existing, ENTRIES, links)
    assert plan.adopted
    assert plan.pruned == ("- [[deleted]] — 지워진 노트",)
    assert plan.text == (
        f"# 위키 인덱스\n\n{START_MARKER}\n- [[new]] — New note\n{END_MARKER}\n\n"
        "- [[diagram.png]] — 그림\n\n손으로 쓴 메모.\n"
    )
    assert plan.text.count("[[new]]") == 1


def test_a_broken_region_is_an_error_naming_the_fix() -> None:
    with pytest.raises(VaultkitError, match="missing or misplaced") as info:
        plan_index(f"{START_MARKER}\n- [[a]]\n", ENTRIES, {})
    assert info.value.hint is not None
    assert "marker" in info.value.hint
