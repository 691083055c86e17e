"""Note names: safe titles, hostile titles stay inside the store, stamps parse back."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vaultkit.session.notes.naming import (
    STEM_MAX_BYTES,
    is_note_name,
    note_stem,
    parse_name,
    safe_title,
    short_id,
)

WHEN = datetime(2026, 11, 30, 9, 5)
SID = "3f2a9c1e-aaaa-bbbb-cccc-000000000000"
HOSTILE = [
    "../../etc/passwd",
    "..\\..\\windows\\system32",
    "CON",
    "con.txt",
    "Lpt9",
    "COM1.tar.gz",
    "x" * 400,
    "🎉" * 200,
    "한국어 제목 " * 40,
    unicodedata.normalize("NFD", "한국어 café"),
    'a:b*c?d"e<f>g|h',
    "[[link]] #tag ^block",
    "tab\tnew\nline\x00nul\x1b",
    "...",
    "trailing dot. ",
    "",
    "   ",
    "/",
]


@pytest.mark.parametrize("title", HOSTILE)
def test_hostile_titles_give_safe_names_inside_the_store(tmp_path: Path, title: str) -> None:
    stem = note_stem(WHEN, SID, title)
    assert len(stem.encode("utf-8")) <= STEM_MAX_BYTES
    assert not any(ch in stem for ch in '\\/:*?"<>|#^[]')
    assert not any(ord(ch) < 32 for ch in stem)
    assert stem == unicodedata.normalize("NFC", stem)
    assert not stem.endswith((".", " "))
    target = tmp_path / "summary" / f"{stem}.md"
    target.parent.mkdir(exist_ok=True)
    target.write_text("x", encoding="utf-8")
    assert target.resolve().parent == (tmp_path / "summary").resolve()
    assert parse_name(target.name) is not None


@pytest.mark.parametrize("title", HOSTILE)
def test_safe_title_alone_is_never_a_device_name_or_empty(title: str) -> None:
    safe = safe_title(title)
    assert safe
    assert safe.split(".")[0].strip().upper() not in {"CON", "PRN", "AUX", "NUL", "COM1", "LPT9"}
    assert not safe.startswith(".")


def test_examples() -> None:
    assert safe_title("../../etc/passwd") == "etc passwd"
    assert safe_title("CON") == "_CON"
    assert safe_title("  a   b  ") == "a b"
    assert safe_title("") == "untitled"
    assert note_stem(WHEN, SID, "Fix: the parser?") == "2026-11-30_0905_3f2a9c1e_Fix the parser"


def test_long_titles_are_cut_on_a_character_boundary() -> None:
    stem = note_stem(WHEN, SID, "가" * 200)
    stem.encode("utf-8").decode("utf-8")
    assert STEM_MAX_BYTES - 3 < len(stem.encode("utf-8")) <= STEM_MAX_BYTES


def test_short_id_is_file_name_safe() -> None:
    assert short_id(SID) == "3f2a9c1e"
    assert short_id("../x/..") == "x"
    assert short_id("") == "nosessid"


def test_names_parse_back_in_both_formats() -> None:
    name = parse_name(note_stem(WHEN, SID, "한국어 제목") + ".md")
    assert name is not None
    assert (name.when, name.session, name.title, name.seed) == (
        WHEN,
        "3f2a9c1e",
        "한국어 제목",
        False,
    )
    seed = parse_name(f"2025_01_02__13.45_{SID}_요약.md")
    assert seed is not None
    assert (seed.when, seed.session, seed.seed) == (datetime(2025, 1, 2, 13, 45), SID, True)
    wiki = parse_name(unicodedata.normalize("NFD", f"2025_01_02__13.45_{SID}_위키.md"))
    assert wiki is not None and wiki.session == SID
    assert parse_name("INDEX.md") is None
    assert parse_name("2026-13-40_2599_abc_x.md") is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=500))
def test_any_title_gives_a_safe_bounded_parsable_name(title: str) -> None:
    stem = note_stem(WHEN, SID, title)
    assert len(stem.encode("utf-8")) <= STEM_MAX_BYTES
    assert not any(ch in stem for ch in '\\/:*?"<>|#^[]')
    assert not any(unicodedata.category(ch) == "Cc" for ch in stem)
    assert unicodedata.is_normalized("NFC", stem)
    assert not stem.endswith((".", " "))
    parsed = parse_name(stem + ".md")
    assert parsed is not None and parsed.session == "3f2a9c1e"


_NAME_PARTS = st.sampled_from(
    [
        "2026-12-02_1405_ab12cd34_Title.md",
        "2024-02-29_2359_x_Leap.md",
        "2023-02-29_1000_x_No.md",
        "0000-01-01_0000_x_Zero.md",
        "2026-13-01_1000_x_Month.md",
        "2026-04-31_1000_x_Day.md",
        "2026-01-01_2460_x_Time.md",
        "2026_12_02__14.05_제목_요약.md",
        "2026_12_02__14.05_제목_위키.md",
        unicodedata.normalize("NFD", "2026_12_02__14.05_제목_요약.md"),
        "notes.md",
        "2026-12-02.md",
        "2026-12-02_1405__Empty id.md",
        "2026-12-02_1405_" + "a" * 41 + "_Long.md",
    ]
)


@settings(max_examples=300)
@given(_NAME_PARTS, st.text(max_size=3))
def test_is_note_name_agrees_with_parse_name(name: str, tail: str) -> None:
    for candidate in (name, tail + name, name.replace(".md", tail + ".md")):
        assert is_note_name(candidate) == (parse_name(candidate) is not None), candidate
