"""``vaultkit doctor`` on a good and a broken setup, and ``vaultkit restore``, as real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from conftest import require_program
from hook_start_support import add_session, make_project

from vaultkit.base import gitattributes, gitignore
from vaultkit.base.store import Store
from vaultkit.session.distill import costs
from vaultkit.session.queue import jobs

HOOK = str(Path(sys.executable).parent / "vaultkit-hook")


def vk(*args: str, cwd: Path, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )


def fake_claude(folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "claude"
    script.write_text("#!/bin/sh\necho 2.1.0\n")
    script.chmod(0o755)
    return f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin"


def test_doctor_passes_on_a_good_setup(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    require_program("git")
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=30)
    path = fake_claude(tmp_path / "bin")
    assert vk("hooks", "install", cwd=project, path=path).returncode == 0
    store = Store(project / "sessions")
    gitignore.sync(store, ["wiki", "summary"])
    gitattributes.sync(store)
    jobs.write_done(
        store,
        jobs.Done("s1", 10, "r.jsonl", "summary/a.md", "wiki/a.md", "ok", "", "2026-11-30T09:00"),
    )
    result = vk("doctor", cwd=project, path=path)
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    assert "ok    hooks: SessionStart in user, SessionEnd in user" in lines
    assert f"ok    claude CLI: {tmp_path / 'bin' / 'claude'}" in lines
    assert f"ok    store: {project / 'sessions'} is writable" in lines
    assert "ok    last worker result: 2026-11-30T09:00 a.md: ok" in lines
    assert f"ok    store location: the project's own, {store.root}" in lines
    gitignore_line = f"ok    gitignore: {store.root / '.gitignore'} shares wiki/, summary/; "
    assert gitignore_line + "raw/, transcripts/, logs/, .vaultkit/ stay private" in lines
    assert "ok    git tracked: no private part of sessions/ is tracked by git" in lines
    assert (
        "ok    git merge: sessions/wiki/INDEX.md merges as a union: two clones never conflict"
        in (lines)
    )
    assert (
        "ok    distillation cost: today 0 session(s), 0 tokens, $0.00; "
        "this month 0 session(s), 0 tokens, $0.00 (no daily budget)" in lines
    )
    assert (
        "ok    agents: codex, gemini: not on this machine (no CLI on PATH, no config "
        in "\n".join(lines)
    )
    assert lines[1].startswith("ok    install: vaultkit-memory ")  # no other 'vaultkit' beside it
    assert (
        "ok    shared links: no link in wiki/, summary/ or transcripts/ leaves the store" in lines
    )
    assert "ok    latest session: no summary yet" in lines
    assert lines[-1] == "0 failed, 0 warning(s), 16 ok"


def test_doctor_fails_on_a_broken_setup_and_names_the_fixes(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    gone = "/old/venv/bin/vaultkit-hook"
    hook = {"type": "command", "command": gone, "args": ["SessionStart"]}
    settings.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}}))
    store.config_file.write_text("[inject]\nbudget = 'big'\n")
    jobs.fail_job(store, jobs.Job("lost-one", "/x.jsonl", attempts=5, last_error="usage limit"))
    jobs.write_done(
        store,
        jobs.Done("s2", 1, "raw/b.jsonl", "summary/b.md", "w", "degraded", "timeout", "2026-11-30"),
    )
    store.log.write_text("[2026-11-30T09:00:00+00:00] hook SessionEnd: OSError: disk full\n")
    result = vk("doctor", cwd=project, path="/nonexistent")
    assert result.returncode == 1
    out = result.stdout
    assert f"fail  hooks (user): {settings} points at a missing program: {gone}" in out
    assert "fix: vaultkit hooks install --scope user" in out
    assert "fail  hooks: not installed: SessionEnd" in out
    assert "fail  config:" in out and "inject.budget must be int" in out
    assert "warn  claude CLI: 'claude' is not on PATH" in out
    assert "warn  failed jobs: 1 session(s) used up their 5 attempts: lost-one" in out
    assert "then vaultkit ingest /x.jsonl" in out
    assert "warn  last worker result: 2026-11-30 b.md: degraded (timeout)" in out
    assert "warn  log: [2026-11-30T09:00:00+00:00] hook SessionEnd: OSError: disk full" in out
    assert "warn  git: git is not on PATH, tracking not checked" in out
    assert out.splitlines()[-1].startswith("3 failed, 5 warning(s)")


def test_doctor_reports_an_unwritable_store(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # root writes through any permission bits; use a path below a regular file instead
        project = make_project(tmp_path / "proj")
        (project / "sessions" / ".vaultkit").rmdir()
        (project / "sessions" / ".vaultkit").write_text("not a folder")
    else:
        project = make_project(tmp_path / "proj")
        (project / "sessions" / ".vaultkit").chmod(0o500)
    result = vk("doctor", cwd=project, path="/usr/bin:/bin")
    (project / "sessions" / ".vaultkit").chmod(0o700)
    assert result.returncode == 1
    assert "fail  store:" in result.stdout and "is not writable" in result.stdout


def test_restore_prints_exactly_what_the_hook_injects(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    add_session(project, 29, "0900", "aaaa1111", "Work", summary="THE-SUMMARY\n")
    payload = json.dumps({"source": "startup", "cwd": str(project), "session_id": "new"})
    hook = subprocess.run(
        [HOOK, "SessionStart"], input=payload, capture_output=True, text=True, check=True
    )
    as_json = vk("restore", "--format", "json", cwd=project, path="/usr/bin:/bin")
    assert as_json.stdout == hook.stdout
    text = vk("restore", cwd=project, path="/usr/bin:/bin")
    context = json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]
    assert text.stdout == context + "\n" and "THE-SUMMARY" in text.stdout
    cleared = vk("restore", "--source", "clear", cwd=project, path="/usr/bin:/bin")
    assert cleared.stdout == "" and "nothing would be injected for source 'clear'" in cleared.stderr


def test_doctor_sums_the_cost_log_and_says_when_the_budget_is_spent(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    today = datetime.now().astimezone().date()
    other_month = today - timedelta(days=40)
    for day, sid, tokens, cost in (
        (today, "a", 1000, 0.25),
        (today, "b", 2000, 0.5),
        (other_month, "d", 9999, 9.0),
    ):
        costs.record(store, costs.Entry(day.isoformat(), sid, "claude", "m", tokens, 0, cost))
    store.config_file.write_text("[distill]\ndaily_budget = 0.5\n")
    jobs.write_job(store, jobs.Job("r1", "/t/r1.jsonl", attempts=1, last_error="usage limit"))
    out = vk("doctor", cwd=project, path="/usr/bin:/bin").stdout
    assert (
        "warn  distillation cost: today 2 session(s), 3,000 tokens, $0.75; "
        "this month 2 session(s), 3,000 tokens, $0.75 (daily budget $0.50): "
        "reached, sessions get offline notes until tomorrow"
    ) in out
    assert "fix: raise [distill] daily_budget in vaultkit.toml, or wait for tomorrow" in out
    assert "warn  distillation: 1 session(s) queued again after failing: usage limit" in out


def test_doctor_shows_the_share_of_degraded_notes_this_week(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    store.wiki.mkdir(parents=True, exist_ok=True)
    now = datetime.now()
    for n, (days, reason) in enumerate(
        [(1, ""), (2, "echoed-template"), (3, "echoed-template"), (4, "offline"), (9, "timeout")]
    ):
        when = (now - timedelta(days=days)).strftime("%Y-%m-%d_%H%M")
        front = "type: session-wiki\n"
        if reason:
            front += f"quality: degraded\ndegraded_reason: {reason}\n"
        note = store.wiki / f"{when}_abcd000{n}_Note {n}.md"
        note.write_text(f"---\n{front}---\n# Note {n}\n", encoding="utf-8")
    (store.wiki / "Glossary.md").write_text("---\nquality: degraded\n---\n# G\n", encoding="utf-8")
    out = vk("doctor", cwd=project, path="/usr/bin:/bin").stdout
    assert (
        "warn  note quality: 3 of 4 session notes of the last 7 days are degraded (75%):"
        " echoed-template 2, offline 1"
    ) in out
    assert "echoed-template or instruction-title means the backend answered with its prompt" in out
    report = json.loads(vk("doctor", "--format", "json", cwd=project, path="/usr/bin:/bin").stdout)
    (check,) = [c for c in report["checks"] if c["name"] == "note quality"]
    assert check["status"] == "warn" and "(75%)" in check["detail"]
