"""The injection text: order of the parts, the budget, trimming order, labels and warnings."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from vaultkit.continuity.inject import (
    MAX_BUDGET,
    Material,
    NoteText,
    Recent,
    build,
    build_handoff,
    has_hangul,
)


def full(**changes: Any) -> Material:
    base = Material(
        summary=NoteText("sessions/summary/s.md", "SUMMARY-BODY\n" * 3),
        wiki=NoteText("sessions/wiki/s.md", "WIKI-BODY line\n" * 5),
        index_lines=("- [[a]] — one", "- [[b]] — two"),
        index_total=7,
        recent=(Recent("2026-11-28 10:00", "Older work"), Recent("2026-11-27 09:00", "Old", True)),
    )
    return replace(base, **changes)


def test_parts_come_in_the_specified_order() -> None:
    text = build(
        full(
            running=True,
            degraded=True,
            degraded_reason="no-markers",
            raw_path="sessions/raw/x.jsonl",
        ),
        9000,
    )
    order = [
        text.index("still running"),
        text.index("degraded mode (no-markers)"),
        text.index("sessions/raw/x.jsonl"),
        text.index("SUMMARY-BODY"),
        text.index("WIKI-BODY"),
        text.index("- [[a]] — one"),
        text.index("5 more entries in INDEX.md."),
        text.index("Older work"),
    ]
    assert order == sorted(order)
    assert "2026-11-27 09:00 · Old (degraded)" in text


def test_stale_warning_without_a_running_worker() -> None:
    text = build(full(stale=True), 9000)
    assert "newest raw transcript copy is newer than the newest summary" in text
    assert "still running" not in text


def test_backfill_line_names_the_count() -> None:
    assert "2 earlier session(s) of this project ended without being distilled" in build(
        full(backfilled=2), 9000
    )


def test_no_warning_lines_when_all_is_well() -> None:
    text = build(full(), 9000)
    for phrase in ("still running", "newer than", "degraded mode", "without being distilled"):
        assert phrase not in text


def test_nothing_to_say_gives_empty_text() -> None:
    assert build(Material(), 9000) == ""


def test_budget_trims_the_wiki_note_first() -> None:
    material = full(wiki=NoteText("sessions/wiki/s.md", "W" * 50 + "\n" + "wiki line\n" * 900))
    text = build(material, 3000)
    assert len(text) <= 3000
    assert "trimmed; the full text is in sessions/wiki/s.md" in text
    assert "SUMMARY-BODY" in text and "- [[b]] — two" in text and "Older work" in text


def test_wiki_dropped_then_recent_then_index_then_summary_trimmed() -> None:
    material = full(summary=NoteText("sessions/summary/s.md", "summary line\n" * 2000))
    text = build(material, 4000)
    assert len(text) <= 4000
    assert "WIKI-BODY" not in text
    assert "Older work" not in text
    assert "- [[a]]" not in text
    assert "summary line" in text
    assert "trimmed; the full text is in sessions/summary/s.md" in text


def test_budget_is_never_above_nine_thousand_even_if_configured_higher() -> None:
    material = full(summary=NoteText("s.md", "x" * 20_000), wiki=NoteText("w.md", "y" * 20_000))
    assert len(build(material, 50_000)) == MAX_BUDGET


@settings(max_examples=60, deadline=None)
@given(
    summary=st.text(max_size=12_000),
    wiki=st.text(max_size=12_000),
    lines=st.lists(st.text(max_size=300), max_size=40),
    budget=st.integers(min_value=0, max_value=20_000),
)
def test_never_over_budget(summary: str, wiki: str, lines: list[str], budget: int) -> None:
    material = Material(
        summary=NoteText("s.md", summary),
        wiki=NoteText("w.md", wiki),
        index_lines=tuple(lines),
        index_total=len(lines) + 3,
        recent=tuple(Recent("2026-01-01 00:00", t) for t in lines[:5]),
        running=True,
    )
    assert len(build(material, budget)) <= max(400, min(budget, MAX_BUDGET))


def test_korean_notes_get_korean_labels() -> None:
    text = build(
        full(korean=True, running=True, summary=NoteText("s.md", "## 한 일\n- 파서")), 9000
    )
    assert "### 최신 이어가기 요약 (s.md)" in text
    assert "### 직전 위키 노트" in text
    assert "INDEX.md에 5개 항목이 더 있습니다." in text
    assert "아직 진행 중" in text
    assert "Latest session summary" not in text


def test_hangul_detection() -> None:
    assert has_hangul("세션 요약") and not has_hangul("plain ascii, émoji 🎉, 日本語")


def test_handoff_for_compact_is_labelled_and_bounded() -> None:
    text = build_handoff(NoteText("sessions/summary/h.md", "step\n" * 5000), 2000, korean=False)
    assert text.startswith("### Handoff of this session before compaction (sessions/summary/h.md)")
    assert len(text) <= 2000 and "trimmed" in text


def test_statements_not_commands() -> None:
    text = build(full(running=True, backfilled=1, degraded=True), 9000)
    for imperative in ("You must", "Read ", "Please", "Do not"):
        assert imperative not in text


def test_the_injection_says_once_that_older_memory_is_searchable() -> None:
    from vaultkit.continuity.inject import EN, KO, Material, NoteText, build

    material = Material(summary=NoteText("sessions/summary/a.md", "done"))
    text = build(material, 9000)
    assert text.count(EN["recall"]) == 1 and "search and read_note" in EN["recall"]
    assert KO["recall"] in build(material.replace(korean=True), 9000)
    assert EN["recall"] not in build(Material(running=True), 9000)  # no memory, nothing to search
