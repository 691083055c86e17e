"""No note pins itself as the latest session: future dates and dates at odds with the note."""

from __future__ import annotations

import calendar
import json
import subprocess
import sys
import time
from pathlib import Path

from hook_start_support import add_session, make_project, write_note

from vaultkit.base.store import Store
from vaultkit.continuity.pinning import SKEW, parse_date, pinned_reason
from vaultkit.hooks.session_start import run
from vaultkit.session.queue import jobs

NOW = calendar.timegm((2026, 12, 1, 12, 0, 0))  # 2026-12-01 12:00 UTC
VAULTKIT = str(Path(sys.executable).parent / "vaultkit")


def test_dates_parse_to_the_epoch_with_their_offset() -> None:
    stamp = parse_date("2026-12-01T21:00:00+09:00")
    assert stamp is not None and stamp.epoch == NOW and stamp.wall == "202612012100"
    assert parse_date("2026-12-01T12:00Z") is not None
    assert parse_date("2026-12-01") is not None
    assert parse_date("next tuesday") is None and parse_date("2026-13-01") is None


def test_a_future_date_beyond_the_skew_allowance_is_not_the_latest() -> None:
    soon = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(NOW + SKEW - 60))
    assert pinned_reason(soon, "", NOW) == ""  # a teammate's clock a little ahead
    later = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(NOW + SKEW + 60))
    assert pinned_reason(later, "", NOW).startswith("dated in the future")
    assert pinned_reason("2099-12-31T23:59:00+00:00", "209912312359", NOW).startswith(
        "dated in the future"
    )
    assert pinned_reason("", "209912312359", NOW).startswith("dated in the future")
    assert pinned_reason("", "202612012230", NOW) == ""  # a name in a zone ahead of UTC


def test_a_date_that_disagrees_with_its_name_or_its_session_is_not_the_latest() -> None:
    why = pinned_reason("2026-11-30T09:00:00+00:00", "202611010900", NOW)
    assert "disagrees with its file name (2026-11-01 09:00)" in why
    assert pinned_reason("2026-11-30", "202611300900", NOW) == ""  # a date alone: the day
    late = pinned_reason("2026-11-30T09:00:00+00:00", "", NOW, "2026-11-29T10:00:00+00:00")
    assert "after its session's distillation finished" in late
    fine = pinned_reason("2026-11-30T09:00:00+00:00", "", NOW, "2026-11-30T09:02:00+00:00")
    assert fine == ""


def _inject(project: Path) -> str:
    out = run({"source": "startup", "cwd": str(project)}, {})
    assert out is not None
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str)
    return text


def test_session_start_passes_over_a_pinned_note_and_says_why(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 28, "1000", "aaaa1111-x", "Real", summary="REAL-SUMMARY\n")
    store = Store(project / "sessions")
    pin = "2026-11-29_0900_bbbb2222_Pin"
    write_note(store.summary, pin, "PINNED\n", date="2099-12-31T23:59:00+00:00", session_id="b")
    for n in range(12):  # future names cannot crowd the real one out of the candidates
        write_note(store.summary, f"2099-12-31_23{n:02d}_cccc{n:04d}_Flood", "FLOOD\n")
    late = "2026-11-28_1100_dddd3333_Late"
    write_note(
        store.summary, late, "LATE\n", date="2026-11-28T11:00:00+00:00", session_id="dddd3333"
    )
    done = jobs.Done("dddd3333", 1, "", "", "", "ok", "", "2026-11-28T10:30:00+00:00")
    jobs.write_done(store, done)
    text = _inject(project)
    assert "REAL-SUMMARY" in text and "Latest session summary" in text
    assert "PINNED" not in text and "FLOOD" not in text and "LATE" not in text
    assert "2026-11-29_0900_bbbb2222_Pin.md (its date 2099-12-31T23:59:00+00:00 disagrees" in text
    assert "2026-11-28_1100_dddd3333_Late.md (dated 2026-11-28T11:00:00+00:00, after" in text
    restore = subprocess.run(
        [VAULTKIT, "restore", "--project", str(project)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "vaultkit: latest session: 2026-11-28_1000_aaaa1111_Real.md" in restore.stderr
    passed = [line for line in restore.stderr.splitlines() if "passed over" in line]
    assert len(passed) == 2 + 12, restore.stderr
    assert sum("file name is dated in the future" in line for line in passed) == 12
    doctor = subprocess.run(
        [VAULTKIT, "doctor", "--project", str(project), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    checks = json.loads(doctor.stdout)["checks"]
    latest = [c for c in checks if c["name"] == "latest session"]
    assert latest[0]["detail"].startswith("2026-11-28_1000_aaaa1111_Real.md")
    over = [c for c in checks if c["name"] == "passed over"]
    assert len(over) == 14 and all(c["status"] == "warn" and c["fix"] for c in over)
