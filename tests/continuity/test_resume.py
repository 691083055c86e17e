"""Handoff-first resume: staleness by activity count (not time), paths A/B/C, manual handoffs."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from baton_support import project, vk

from vaultkit.base.config import Config, ResumeConfig
from vaultkit.base.store import Store
from vaultkit.continuity import activity, resume

BASE = datetime(2026, 11, 30, 9, 0, 0)


def handoff(store: Store, when: datetime, body: str, *, auto: bool | None, sid: str = "s1") -> Path:
    """A summary note as the worker (auto) or ``vaultkit save`` (manual) writes it."""
    store.summary.mkdir(parents=True, exist_ok=True)
    tag = "m-" + sid[:6] if auto is False else sid[:8]
    path = store.summary / f"{when:%Y-%m-%d_%H%M}_{tag}_note.md"
    flag = "" if auto is None else f"auto_saved: {'true' if auto else 'false'}\n"
    path.write_text(
        f"---\ntitle: note\ndate: '{when.astimezone().isoformat(timespec='seconds')}'\n"
        f"session_id: {sid}\n{flag}---\n\n# note\n\n{body}\n",
        encoding="utf-8",
    )
    return path


def log_entries(store: Store, start: datetime, count: int, step: timedelta) -> None:
    for n in range(count):
        activity.append(store, f"cmd {n}", now=start + n * step)


def config(*, stale_after: int = 100, recent_entries: int = 25) -> Config:
    settings = ResumeConfig(stale_after=stale_after, recent_entries=recent_entries)
    return Config(resume=settings)


def chosen_path(store: Store) -> Path:
    chosen = resume.build(store, Config())
    assert chosen.handoff is not None
    return chosen.handoff.path


def test_path_c_without_a_handoff_restores_from_the_latest_entries(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    log_entries(store, BASE, 40, timedelta(seconds=30))
    chosen = resume.build(store, config(recent_entries=25))
    assert chosen.path == "C" and chosen.handoff is None
    assert [e.text for e in chosen.entries] == [f"cmd {n}" for n in range(15, 40)]
    text = resume.render(chosen, store)
    assert text.startswith("## vaultkit resume: path C")
    assert "Why: no handoff in sessions/summary/" in text
    assert "[09:19:30] cmd 39" in text and "cmd 14" not in text


def test_path_a_fresh_handoff_plus_the_entries_after_it(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    log_entries(store, BASE, 5, timedelta(minutes=1))
    handoff(store, BASE + timedelta(minutes=4, seconds=30), "## Next steps\n- ship it", auto=True)
    log_entries(store, BASE + timedelta(minutes=5), 3, timedelta(minutes=1))
    chosen = resume.build(store, Config())
    assert chosen.path == "A" and chosen.since_count == 3
    text = resume.render(chosen, store)
    assert "is fresh: 3 activity entries since it (stale at 100)" in text
    assert "- ship it" in text
    since = text[text.index("### Activity since the handoff") :]
    assert since.count("] cmd ") == 3 and "[09:04:00]" not in since


def test_staleness_is_by_activity_count_not_by_elapsed_time(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    # A week-old handoff with 10 entries after it is fresh ...
    old = BASE - timedelta(days=7)
    handoff(store, old, "old but quiet", auto=True)
    log_entries(store, old + timedelta(hours=1), 10, timedelta(hours=12))
    assert resume.build(store, Config()).path == "A"
    # ... and a handoff an hour old with 100 entries after it is stale.
    _, busy = project(tmp_path / "q")
    handoff(busy, BASE, "busy hour", auto=True)
    log_entries(busy, BASE + timedelta(seconds=1), 100, timedelta(seconds=30))
    chosen = resume.build(busy, Config())
    assert chosen.path == "B" and chosen.since_count == 100
    assert resume.build(busy, config(stale_after=101)).path == "A"


def test_path_b_keeps_the_stale_handoff_as_reference_after_the_log(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    handoff(store, BASE, "REFERENCE BODY", auto=True)
    log_entries(store, BASE + timedelta(seconds=1), 120, timedelta(seconds=10))
    text = resume.render(resume.build(store, config(recent_entries=20)), store)
    assert text.startswith("## vaultkit resume: path B")
    assert "is stale: 120 activity entries since it (stale at 100)" in text
    assert text.index("### Latest activity (20 activity entries)") < text.index("REFERENCE BODY")
    assert "### Handoff, for reference only" in text
    assert "] cmd 119" in text and "] cmd 99\n" not in text


def test_a_manual_handoff_beats_a_newer_automatic_one_of_similar_age(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    manual = handoff(store, BASE, "manual contract", auto=False, sid="aaaa1111")
    handoff(store, BASE + timedelta(minutes=30), "auto digest", auto=True, sid="bbbb2222")
    chosen = resume.build(store, Config())
    assert chosen.handoff is not None and chosen.handoff.path == manual
    assert "(manual, auto_saved: false" in resume.render(chosen, store)
    # Much newer automatic work wins over an old manual handoff ...
    newer = handoff(store, BASE + timedelta(hours=5), "later auto", auto=True, sid="cccc3333")
    assert chosen_path(store) == newer
    # ... unless it is the same session the manual handoff was written in.
    same = handoff(store, BASE + timedelta(hours=6), "same sid", auto=True, sid="dddd4444")
    again = handoff(store, BASE + timedelta(hours=5, minutes=50), "m", auto=False, sid="dddd4444")
    assert same.exists()
    assert chosen_path(store) == again


def test_a_missing_auto_saved_flag_counts_as_automatic(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    handoff(store, BASE, "seed note", auto=None)
    chosen = resume.build(store, Config())
    assert chosen.handoff is not None and chosen.handoff.auto_saved is True


def test_render_stays_within_the_budget(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    handoff(store, BASE, "line of the handoff\n" * 2_000, auto=True)
    log_entries(store, BASE + timedelta(seconds=1), 50, timedelta(seconds=1))
    text = resume.render(resume.build(store, Config()), store, 3_000)
    assert len(text) <= 3_000
    assert "… (trimmed)" in text and "] cmd 49" in text


def test_cli_save_then_resume_prints_path_a_with_the_contract(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    contract = (
        "# Handoff: p\n\n## Current state\n- parser done\n\n## Key decisions\n- lean reader: "
        "speed\n\n## Modified files\n- /p/a.py\n\n## Open issues\n- none\n\n## Next tasks\n"
        "- [ ] wire it\n"
    )
    saved = vk("save", "--session", "1234abcd-ffff", cwd=root, stdin=contract)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.startswith("handoff saved: sessions/summary/")
    assert saved.stderr == ""
    note = next(store.summary.glob("*_m-1234ab_*.md"))
    head = note.read_text(encoding="utf-8")
    assert "auto_saved: false" in head and "type: handoff-summary" in head
    assert "session_id: 1234abcd-ffff" in head
    activity.append(store, "pytest -q", now=datetime.now() + timedelta(seconds=2))
    shown = vk("resume", cwd=root / "sessions")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("## vaultkit resume: path A")
    assert "(manual, auto_saved: false" in shown.stdout
    assert "is fresh: 1 activity entry since it" in shown.stdout
    assert "- [ ] wire it" in shown.stdout and "] pytest -q" in shown.stdout


def test_cli_save_names_missing_contract_sections_and_refuses_empty_input(tmp_path: Path) -> None:
    root, _ = project(tmp_path / "p")
    partial = vk("save", "--session", "s", cwd=root, stdin="## Current state\n- x\n")
    assert partial.returncode == 0
    assert "Key decisions, Modified files, Open issues, Next tasks" in partial.stderr
    empty = vk("save", cwd=root, stdin="  \n")
    assert empty.returncode == 2 and "empty" in empty.stderr


def test_a_manual_save_survives_the_workers_notes_for_the_same_session(tmp_path: Path) -> None:
    """The worker replaces a session's earlier notes; a manual handoff is not one of them."""
    from vaultkit.session.notes.write import NoteMeta, write_session_notes

    root, store = project(tmp_path / "p")
    sid = "5678abcd-0000-0000-0000-000000000000"
    assert vk("save", "--session", sid, cwd=root, stdin="## Current state\n- m\n").returncode == 0
    meta = NoteMeta(sid, "p", datetime.now().astimezone(), "raw/x.jsonl", None)
    write_session_notes(store, meta, "auto", "handoff", "wiki")
    names = sorted(p.name for p in store.summary.glob("*.md"))
    assert len(names) == 2 and any("_m-5678ab_" in n for n in names)


def test_session_start_injects_the_resume_text_only_when_configured(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    handoff(store, BASE, "HANDOFF BODY", auto=False)
    payload = {"session_id": "new", "cwd": str(root), "source": "startup"}
    assert resume.continuity_start(payload, {}, "USUAL") == "USUAL"
    (store.root / "vaultkit.toml").write_text("[resume]\non_session_start = true\n")
    text = resume.continuity_start(payload, {}, "USUAL")
    assert text.startswith("## vaultkit resume: path A") and "HANDOFF BODY" in text
    assert "USUAL" not in text
    clear = resume.continuity_start({**payload, "source": "clear"}, {}, "")
    assert clear == ""  # only a startup is restored this way
    logged = [e.text for e in activity.entries(store)]
    assert logged.count("agent: session start (startup) new") == 2
    assert "agent: session start (clear) new" in logged
