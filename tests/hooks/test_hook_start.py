"""SessionStart on real store folders: what is chosen, what is said, for every ``source``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from hook_start_support import add_session, make_project, write_index, write_note

from vaultkit.base.store import Store
from vaultkit.continuity.startup import compose
from vaultkit.continuity.summaries import recent_summaries
from vaultkit.hooks.session_start import run
from vaultkit.session.queue import jobs

HOOK = str(Path(sys.executable).parent / "vaultkit-hook")


def context(project: Path, source: str = "startup", **extra: str) -> str:
    payload: dict[str, object] = {"source": source, "cwd": str(project), **extra}
    out = run(payload, {})
    if out is None:
        return ""
    data = json.loads(out)
    assert data["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    text = data["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str)
    return text


def test_startup_injects_summary_wiki_index_and_recent_in_order(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    older = add_session(project, 27, "0900", "aaaa1111-x", "Older", summary="OLD-SUMMARY\n")
    newest = add_session(
        project,
        28,
        "1000",
        "bbbb2222-x",
        "Newest",
        summary="NEW-SUMMARY\n",
        wiki="NEW-WIKI with [[Older]]\n",
    )
    write_index(project, [newest, older])
    text = context(project)
    assert "OLD-SUMMARY" not in text
    positions = [
        text.index(s)
        for s in ("NEW-SUMMARY", "NEW-WIKI", f"- [[{newest}]]", "2026-11-27 09:00 · Older")
    ]
    assert positions == sorted(positions)
    assert f"sessions/summary/{newest}.md" in text


def test_current_git_branch_is_preferred_and_the_newer_one_is_named(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", branch="feature")
    add_session(
        project, 28, "0900", "aaaa1111", "On feature", branch="feature", summary="FEATURE-SUMMARY\n"
    )
    other = add_session(
        project, 29, "0900", "bbbb2222", "On main", branch="main", summary="MAIN-SUMMARY\n"
    )
    text = context(project)
    assert "FEATURE-SUMMARY" in text and "MAIN-SUMMARY" not in text
    assert f"A newer summary exists but was passed over: {other}.md" in text


def test_branch_is_read_from_a_worktree_gitdir_file(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    (project / ".git" / "HEAD").unlink()
    (project / ".git").rmdir()
    real = tmp_path / "repo.git" / "worktrees" / "p"
    real.mkdir(parents=True)
    (real / "HEAD").write_text("ref: refs/heads/wt-branch\n")
    (project / ".git").write_text(f"gitdir: {real}\n")
    add_session(project, 28, "0900", "aaaa1111", "WT", branch="wt-branch", summary="WT-SUM\n")
    add_session(project, 29, "0900", "bbbb2222", "Main", branch="main", summary="MAIN-SUM\n")
    assert "WT-SUM" in context(project)


def test_clean_summary_beats_a_newer_degraded_one(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 28, "0900", "aaaa1111", "Clean", summary="CLEAN\n")
    add_session(project, 29, "0900", "bbbb2222", "Degraded", summary="ROUGH\n", degraded="timeout")
    text = context(project)
    assert "CLEAN" in text and "ROUGH" not in text
    assert "degraded mode" not in text


def test_degraded_summary_warns_and_names_the_raw_copy(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    sid = "cccc3333-dddd"
    add_session(project, 29, "0900", sid, "Only", summary="ROUGH\n", degraded="no-markers")
    raw = project / "sessions" / "raw" / f"2026-11-29_0900_{sid}.jsonl"
    raw.write_text("{}\n")
    os.utime(raw, (1, 1))  # older than the summary: not a staleness warning
    text = context(project)
    assert "degraded mode (no-markers)" in text
    assert f"sessions/raw/2026-11-29_0900_{sid}.jsonl" in text
    assert text.index("degraded mode") < text.index("ROUGH")


def test_date_comes_from_frontmatter_not_mtime(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 20, "0900", "aaaa1111", "Old", summary="OLD\n", mtime=time.time() + 100)
    add_session(project, 29, "0900", "bbbb2222", "New", summary="NEW\n", mtime=1_000_000)
    text = context(project)
    assert "### Latest session summary" in text
    assert text.index("NEW") < text.index("2026-11-20 09:00 · Old")


def test_two_sessions_in_one_minute_the_later_second_is_the_latest(tmp_path: Path) -> None:
    """Switching agents can end two sessions in the same minute: the frontmatter date's
    seconds decide, not the session id's order in the note names."""
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "ffff1111", "Earlier", summary="EARLIER\n")
    add_session(project, 29, "0900", "0000aaaa", "Later", summary="LATER\n")
    for note in (project / "sessions" / "summary").glob("*Later.md"):
        note.write_text(note.read_text("utf-8").replace("T09:00:00", "T09:00:41"), "utf-8")
    text = context(project)
    latest = text.split("### Latest session summary", 1)[1]
    assert latest.index("LATER") < latest.index("2026-11-29 09:00 · Earlier")
    [newest] = recent_summaries(Store(project / "sessions"), 1)  # MCP latest_handoff's pick
    assert newest.name.endswith("_Later.md")


def test_running_worker_and_stale_summary_warnings(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", mtime=1_000_000)
    assert "may be one session old" not in context(project)
    raw = project / "sessions" / "raw" / "2026-11-30_0900_eeee.jsonl"
    raw.write_text("{}\n")
    assert "newest raw transcript copy is newer than the newest summary" in context(project)
    store = Store(project / "sessions")
    jobs.mark_running(store, "eeee", "2026-11-30T09:00:00+00:00")  # this live process's pid
    text = context(project)
    assert "still running" in text and "newer than the newest summary" not in text


def test_dead_worker_marker_is_not_reported_as_running(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S")
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    marker = project / "sessions" / ".vaultkit" / "running" / "x.json"
    marker.parent.mkdir(parents=True)
    marker.write_text(json.dumps({"session_id": "x", "pid": int(dead.stdout), "started_at": ""}))
    assert "still running" not in context(project)


def test_index_head_with_more_entries_line(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S")
    write_index(project, [f"note {i:02d}" for i in range(30)])
    text = context(project)
    assert "- [[note 00]]" in text and "- [[note 11]]" in text and "- [[note 12]]" not in text
    assert "18 more entries in INDEX.md." in text
    assert "Hand-written intro." not in text


def test_seed_format_store_is_read_as_is_with_korean_labels(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    store = Store(project / "sessions")
    sid = "11111111-2222-3333-4444-555555555555"
    write_note(store.summary, f"2026_11_28__09.00_{sid}_요약", "## 한 일\n- 예전 작업\n")
    write_note(store.summary, f"2026_11_29__14.30_{sid}_요약", "## 한 일\n- 파서 작성\n")
    write_note(store.wiki, f"2026_11_29__14.30_{sid}_위키", "# 파서 결정\n[[토크나이저]] 사용\n")
    write_note(store.wiki, f"2026_11_28__09.00_{sid}_위키", "# 예전 위키\n")
    (store.wiki / "INDEX.md").write_text(
        f"# 위키 인덱스\n\n- [[2026_11_29__14.30_{sid}_위키]] — 파서 결정\n", encoding="utf-8"
    )
    text = context(project)
    assert "### 최신 이어가기 요약" in text and "- 파서 작성" in text
    assert "### 직전 위키 노트" in text and "# 파서 결정" in text and "예전 위키" not in text
    assert "### 위키 인덱스" in text and "— 파서 결정" in text
    assert "2026-11-28 09:00 · 예전 작업" in text  # seed names carry no title: first line
    assert "### 다른 최근 세션" in text


def test_clear_is_silent_unless_configured(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="SUM\n")
    assert context(project, "clear") == ""
    (project / "sessions" / "vaultkit.toml").write_text("[inject]\non_clear = true\n")
    assert "SUM" in context(project, "clear")


def test_resume_and_fork_inject_nothing_unknown_source_is_startup(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="SUM\n")
    assert context(project, "resume") == "" and context(project, "fork") == ""
    assert "SUM" in context(project, "brand-new-source")
    assert "SUM" in context(project, "")


def test_compact_injects_this_sessions_handoff_only(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 28, "0900", "aaaa1111-cur", "Mine", summary="MY-HANDOFF\n")
    add_session(project, 29, "0900", "bbbb2222-oth", "Other", summary="OTHER\n")
    text = context(project, "compact", session_id="aaaa1111-cur")
    assert "Handoff of this session before compaction" in text and "MY-HANDOFF" in text
    assert "OTHER" not in text
    assert context(project, "compact", session_id="ffff0000-none") == ""


def test_budget_from_config_and_the_hard_cap(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(
        project, 29, "0900", "aaaa1111", "Big", summary="s line\n" * 3000, wiki="w line\n" * 3000
    )
    (project / "sessions" / "vaultkit.toml").write_text("[inject]\nbudget = 2500\n")
    assert 2000 < len(context(project)) <= 2500
    (project / "sessions" / "vaultkit.toml").write_text("[inject]\nbudget = 50000\n")
    assert 8000 < len(context(project)) <= 9000


def test_invalid_config_falls_back_to_defaults_and_logs(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="SUM\n")
    (project / "sessions" / "vaultkit.toml").write_text("[inject]\nbogus = 1\n")
    assert "SUM" in context(project)
    assert (
        "unknown setting inject.bogus" in (project / "sessions/.vaultkit/vaultkit.log").read_text()
    )


def test_no_store_means_no_output_and_nothing_created(tmp_path: Path) -> None:
    (tmp_path / "p" / ".git").mkdir(parents=True)
    assert run({"source": "startup", "cwd": str(tmp_path / "p")}, {}) is None
    assert not (tmp_path / "p" / "sessions").exists()


def test_guard_variable_silences_the_handler(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S")
    assert run({"cwd": str(project)}, {"VAULTKIT_CHILD": "1"}) is None
    assert run({"cwd": str(project)}, {"CLAUDE_WIKI_CHILD": "1"}) is None


def test_real_hook_process_prints_the_json_form(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p")
    add_session(project, 29, "0900", "aaaa1111", "S", summary="요약 본문\n")
    payload = {
        "session_id": "zz",
        "source": "startup",
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "transcript_path": "",
    }
    env = {k: v for k, v in os.environ.items() if k not in ("VAULTKIT_CHILD", "LANG", "LC_ALL")}
    out = subprocess.run(
        [HOOK, "SessionStart"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={**env, "LC_ALL": "C"},
        check=True,
    )
    data = json.loads(out.stdout.decode("utf-8"))
    assert "요약 본문" in data["hookSpecificOutput"]["additionalContext"]
    guarded = subprocess.run(
        [HOOK, "SessionStart"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={**env, "VAULTKIT_CHILD": "1"},
        check=True,
    )
    assert guarded.stdout == b""


def _median_ms(project: Path, runs: int = 15) -> float:
    payload: dict[str, object] = {"source": "startup", "cwd": str(project)}
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        compose(payload, {}, spawn=None)
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[len(times) // 2]


def test_injection_is_fast_on_a_small_and_a_500_summary_store(tmp_path: Path) -> None:
    small = make_project(tmp_path / "small")
    names = [add_session(small, 20 + i, "0900", f"{i:08d}", f"S{i}") for i in range(5)]
    write_index(small, names)
    big = make_project(tmp_path / "big")
    names = []
    for i in range(500):
        day, hour = 1 + i % 28, f"{i % 24:02d}{i % 60:02d}"
        names.append(
            add_session(
                big, day, hour, f"{i:08d}", f"Session {i}", summary="## Done\n" + "- item\n" * 60
            )
        )
    write_index(big, names)
    small_ms, big_ms = _median_ms(small), _median_ms(big)
    print(
        f"\nSessionStart in-process median: small {small_ms:.1f} ms, 500 summaries {big_ms:.1f} ms"
    )
