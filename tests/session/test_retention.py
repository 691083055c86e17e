"""Summary retention: newest N by frontmatter or name date, never mtime; archiving moves files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.notes.retention import apply_retention, note_date


def summary(store: Store, name: str, date: str | None) -> Path:
    store.summary.mkdir(parents=True, exist_ok=True)
    path = store.summary / name
    front = f"---\ntitle: x\ndate: {date}\n---\n" if date else ""
    path.write_text(f"{front}# {name}\n", encoding="utf-8")
    return path


def test_keeps_newest_by_frontmatter_date_even_when_an_old_file_was_touched(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "sessions")
    paths = [
        summary(store, f"note-{i}.md", f"'2026-11-{10 + i:02d}T09:00:00+09:00'") for i in range(5)
    ]
    os.utime(paths[0], (2_000_000_000, 2_000_000_000))  # the oldest note is touched last
    moved = apply_retention(store, 3)
    assert sorted(p.name for p in moved) == ["note-0.md", "note-1.md"]
    assert sorted(p.name for p in store.summary.glob("*.md")) == [
        "note-2.md",
        "note-3.md",
        "note-4.md",
    ]
    assert all(p.parent == store.summary_archive and p.exists() for p in moved)


def test_name_stamps_are_used_when_frontmatter_has_no_date(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    old_seed = summary(store, "2025_01_01__10.00_abc_요약.md", None)
    new = summary(store, "2026-11-30_0905_abcd1234_New.md", None)
    mid = summary(store, "2026-01-01_0000_abcd1234_Mid.md", None)
    assert note_date(old_seed) < note_date(mid) < note_date(new)
    moved = apply_retention(store, 2)
    assert [p.name for p in moved] == [old_seed.name]


def test_mixed_aware_naive_and_date_only_values_compare(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    summary(store, "a.md", "2026-11-01")
    summary(store, "b.md", "2026-11-02 10:00:00")
    summary(store, "c.md", "'2026-11-03T10:00:00+00:00'")
    summary(store, "nodate.md", None)
    moved = apply_retention(store, 1)
    assert sorted(p.name for p in moved) == ["a.md", "b.md", "nodate.md"]


def test_name_clashes_in_the_archive_get_a_suffix(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    store.summary_archive.mkdir(parents=True)
    (store.summary_archive / "old.md").write_text("earlier archived copy\n", encoding="utf-8")
    summary(store, "old.md", "2020-01-01")
    summary(store, "new.md", "2026-01-01")
    moved = apply_retention(store, 1)
    assert [p.name for p in moved] == ["old-1.md"]
    assert (store.summary_archive / "old.md").read_text(encoding="utf-8") == (
        "earlier archived copy\n"
    )


def test_nothing_to_do_and_bad_keep(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    assert apply_retention(store, 10) == ()
    summary(store, "a.md", "2026-01-01")
    assert apply_retention(store, 10) == ()
    with pytest.raises(VaultkitError):
        apply_retention(store, -1)
