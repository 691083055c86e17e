"""Note writing: YAML frontmatter round-trips, and re-distilling a session replaces its notes."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from vaultkit.base.store import Store
from vaultkit.session.notes.naming import note_stem
from vaultkit.session.notes.write import (
    NoteMeta,
    find_session_notes,
    frontmatter,
    read_frontmatter,
    render_note,
    write_session_notes,
)

SID = "c0ffee00-1234-5678-9abc-def012345678"
WHEN = datetime(2026, 11, 30, 22, 15, tzinfo=timezone(timedelta(hours=9)))


BASE = NoteMeta(
    session_id=SID,
    project="my: project",
    ended_at=WHEN,
    source=f"raw/2026-11-30_2215_{SID}.jsonl",
    git_branch="main",
    agent="claude",
)


def meta(**changes: Any) -> NoteMeta:
    return replace(BASE, **changes)


def test_frontmatter_is_yaml_and_round_trips_hostile_values(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    title = 'Title: with "quotes", --- and 한국어 #tag'
    summary, wiki = write_session_notes(store, meta(), title, "body\n---\nmore", "[[A]]")
    front = read_frontmatter(summary)
    assert front == {
        "title": title,
        "date": "2026-11-30T22:15:00+09:00",
        "project": "my: project",
        "type": "handoff-summary",
        "source": f"raw/2026-11-30_2215_{SID}.jsonl",
        "session_id": SID,
        "agent": "claude",
        "git_branch": "main",
        "tags": ["session", "handoff"],
        "auto_saved": True,
    }
    assert read_frontmatter(wiki)["type"] == "session-wiki"
    text = summary.read_text(encoding="utf-8")
    heading = title.replace("#", "\\#")  # shown as is by Obsidian, but no tag
    assert f"# {heading}\n\nbody\n---\nmore\n" in text
    assert "한국어" in text  # allow_unicode, not \\u escapes


def test_degraded_fields_are_written_only_when_degraded(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    summary, _ = write_session_notes(
        store, meta(quality="degraded", degraded_reason="timeout", retries=1), "T", "h", "w"
    )
    front = read_frontmatter(summary)
    assert (front["quality"], front["degraded_reason"], front["distill_retries"]) == (
        "degraded",
        "timeout",
        1,
    )


def test_redistilling_replaces_previous_notes_even_when_the_title_changed(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    first = write_session_notes(store, meta(), "First title", "h1", "w1")
    store.summary_archive.mkdir(parents=True)
    archived = store.summary_archive / first[0].name
    archived.write_bytes(first[0].read_bytes())
    second = write_session_notes(store, meta(), "Second title", "h2", "w2")
    assert sorted(store.summary.glob("*.md")) == [second[0]]
    assert sorted(store.wiki.glob("*.md")) == [second[1]]
    assert not archived.exists()
    assert "Second title" in second[0].name
    assert second[0].read_text(encoding="utf-8").endswith("h2\n")


def test_a_different_session_with_the_same_short_id_is_left_alone(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    other = SID[:8] + "-ffff-ffff-ffff-ffffffffffff"
    kept = write_session_notes(store, meta(session_id=other), "Other", "h", "w")
    write_session_notes(store, meta(), "Mine", "h", "w")
    assert kept[0].exists() and kept[1].exists()
    assert find_session_notes(store.summary, other) == [kept[0]]


def test_seed_named_notes_of_the_same_session_are_replaced(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    store.summary.mkdir(parents=True)
    store.wiki.mkdir(parents=True)
    seed_summary = store.summary / f"2026_11_30__22.15_{SID}_요약.md"
    seed_wiki = store.wiki / f"2026_11_30__22.15_{SID}_위키.md"
    unrelated = store.wiki / "2026_11_30__22.15_someone-else_위키.md"
    for path in (seed_summary, seed_wiki, unrelated):
        path.write_text("# old\n", encoding="utf-8")
    write_session_notes(store, meta(), "New", "h", "w")
    assert not seed_summary.exists() and not seed_wiki.exists() and unrelated.exists()


def test_secrets_in_llm_output_never_land_in_a_note(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    key = "sk-" + "ant-" + "Zx9" * 12
    summary, wiki = write_session_notes(store, meta(), f"Key {key}", f"use {key}", key)
    for path in (summary, wiki):
        assert key not in path.read_text(encoding="utf-8")
        assert key not in path.name


def test_same_stem_in_both_folders(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    summary, wiki = write_session_notes(store, meta(), "../../escape", "h", "w")
    assert summary.stem == wiki.stem == note_stem(WHEN, SID, "../../escape")
    assert summary.parent == store.summary and wiki.parent == store.wiki


# The exact bytes a note is written with. Written while notes were serialised with yaml.safe_dump
# and kept when python-frontmatter took over, so the switch changed no note on disk.
GOLDEN_DEGRADED = """\
---
title: 'Title: with "quotes", --- and 한국어 #tag'
date: '2026-11-30T22:15:00+09:00'
project: 'my: project'
type: handoff-summary
source: raw/2026-11-30_2215_c0ffee00-1234-5678-9abc-def012345678.jsonl
session_id: c0ffee00-1234-5678-9abc-def012345678
agent: claude
git_branch: null
tags:
- session
- handoff
auto_saved: false
quality: degraded
degraded_reason: no-markers
distill_retries: 2
---

# Title: with "quotes", --- and 한국어 \\#tag

body line

---
more
"""


def test_note_bytes_are_stable() -> None:
    title = 'Title: with "quotes", --- and 한국어 #tag'
    degraded = meta(
        git_branch=None,
        auto_saved=False,
        quality="degraded",
        degraded_reason="no-markers",
        retries=2,
    )
    data = frontmatter(degraded, title, "handoff-summary", ["session", "handoff"])
    assert render_note(data, title, "\n\nbody line\n\n---\nmore\n\n\n") == GOLDEN_DEGRADED


def test_the_agent_is_recorded_when_known_and_left_out_when_not() -> None:
    assert frontmatter(meta(agent="gemini"), "T", "session-wiki", [])["agent"] == "gemini"
    assert "agent" not in frontmatter(meta(agent=""), "T", "handoff-summary", [])


def test_a_note_with_an_empty_body_ends_at_its_heading() -> None:
    # The one change python-frontmatter made: yaml.safe_dump plus string formatting left two
    # blank lines after the heading of a note without a body; the post format strips them.
    data = frontmatter(meta(), "T", "handoff-summary", [])
    assert render_note(data, "T", " \n").endswith("---\n\n# T\n")


def test_long_values_are_not_wrapped_and_multiline_values_round_trip(tmp_path: Path) -> None:
    title = "A long title " + "word " * 60 + "end"
    data = frontmatter(meta(project="line one\nline two"), title, "session-wiki", ["session"])
    text = render_note(data, title, "body")
    head = text.split("\n---\n", 1)[0].splitlines()
    assert head[1] == f"title: {title}"  # width=1000: a long title is never folded
    assert head[3:6] == ["project: 'line one", "", "  line two'"]
    assert text.endswith(f"\n# {title}\n\nbody\n")
    note = tmp_path / "n.md"
    note.write_text(text, encoding="utf-8")
    assert read_frontmatter(note)["project"] == "line one\nline two"


def test_read_frontmatter_is_empty_for_what_is_not_a_mapping(tmp_path: Path) -> None:
    cases = {
        "none.md": "# no frontmatter\n\n---\nkey: value\n---\n",
        "invalid.md": "---\ntitle: [oops\n---\nbody\n",
        "list.md": "---\n- a\n- b\n---\nbody\n",
        "unclosed.md": "---\ntitle: x\nbody\n",
        "empty.md": "---\n---\nbody\n",
        "late.md": "\n---\ntitle: x\n---\n",
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert read_frontmatter(tmp_path / name) == {}, name
    assert read_frontmatter(tmp_path / "missing.md") == {}


def test_read_frontmatter_reads_crlf_dates_and_a_large_body(tmp_path: Path) -> None:
    note = tmp_path / "n.md"
    body = "x" * (200 * 1024)
    note.write_bytes(f"---\r\ndate: 2026-11-30\r\nsession_id: {SID}\r\n---\r\n{body}".encode())
    assert read_frontmatter(note) == {"date": date(2026, 11, 30), "session_id": SID}
