"""The activity log: one ``[HH:MM:SS] text`` line per entry in sessions/logs/YYYY-MM-DD.log."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from baton_support import project

from vaultkit.base.store import Store
from vaultkit.continuity import activity


def test_append_writes_one_line_per_entry_in_the_day_file(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    assert activity.append(store, "git status", now=datetime(2026, 11, 30, 9, 5, 7))
    assert activity.append(store, "two\nlines\n\n here", now=datetime(2026, 11, 30, 9, 5, 8))
    log = store.root / "logs" / "2026-11-30.log"
    assert log.read_text(encoding="utf-8") == (
        "[09:05:07] git status\n[09:05:08] two ⏎ lines ⏎ here\n"
    )
    assert (store.root / "logs" / ".gitignore").read_text().splitlines()[-1] == "*"


def test_aware_times_are_written_in_local_time(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    aware = datetime(2026, 11, 30, 12, 0, 0, tzinfo=timezone(timedelta(hours=9)))
    activity.append(store, "x", now=aware)
    local = aware.astimezone().replace(tzinfo=None)
    entries = list(activity.entries(store))
    assert entries == [activity.Entry(local, "x")]


def test_entries_are_ordered_across_days_and_counted_after_a_moment(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    start = datetime(2026, 11, 28, 23, 59, 0)
    for n in range(10):
        activity.append(store, f"cmd {n}", now=start + timedelta(minutes=n))
    assert sorted(p.name for p in (store.root / "logs").glob("*.log")) == [
        "2026-11-28.log",
        "2026-11-29.log",
    ]
    texts = [e.text for e in activity.entries(store)]
    assert texts == [f"cmd {n}" for n in range(10)]
    assert activity.count_since(store, start + timedelta(minutes=3)) == 6
    assert activity.count_since(store, start + timedelta(minutes=3, seconds=1)) == 6
    assert activity.count_since(store, start + timedelta(minutes=9)) == 0
    assert [e.text for e in activity.latest(store, 3)] == ["cmd 7", "cmd 8", "cmd 9"]
    since = start + timedelta(minutes=7)
    assert [e.text for e in activity.latest(store, 5, since=since)] == ["cmd 8", "cmd 9"]


def test_foreign_lines_and_files_are_ignored(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    logs = activity.ensure_folder(store)
    (logs / "2026-11-30.log").write_text("garbage\n[25:00:00] bad hour\n[10:00:00] ok\n")
    (logs / "notes.txt").write_text("[10:00:00] not a log\n")
    assert [e.text for e in activity.entries(store)] == ["ok"]


def test_long_entries_are_cut_to_one_bounded_line(tmp_path: Path) -> None:
    line = activity.one_line("x" * 2_000)
    assert len(line) == activity.MAX_ENTRY_CHARS and line.endswith("…")


def test_append_never_raises_when_logs_is_a_file(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    (store.root / "logs").write_text("in the way")
    assert activity.append(store, "x") is False


def test_record_follows_the_projects_setting(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    assert activity.record(store, "agent: session end (other) abcd1234")
    (store.root / "vaultkit.toml").write_text("[activity]\nenabled = false\n")
    assert not activity.record(store, "not written")
    (store.root / "vaultkit.toml").write_text("[activity\nbroken")
    assert activity.record(store, "still written")
    assert [e.text for e in activity.entries(store)] == [
        "agent: session end (other) abcd1234",
        "still written",
    ]
    assert not activity.record(Store(tmp_path / "none" / "sessions"), "x")
