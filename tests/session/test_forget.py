"""``vaultkit forget``: a session removed everywhere in a real store, run as a real process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from datetime import date, datetime
from pathlib import Path

import pytest
from conftest import require_program
from worker_support import (
    claude_projects,
    hook_env,
    log_text,
    queued,
    run_hook,
    write_transcript,
)

from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.forget.remove import apply_forget, plan_forget
from vaultkit.session.queue import backfill, jobs
from vaultkit.session.transcripts import rawcopy, render
from vaultkit.session.worker.job import process_job
from vaultkit.session.worker.outcome import Status

pytestmark = pytest.mark.timeout(120)

OLD = "3f0a9c1e-0000-4000-8000-000000000001"  # ended 2026-11-02
NEW = "8b21d4f0-0000-4000-8000-000000000002"  # ended 2026-11-20
TWIN = "3f0a9c1e-ffff-4000-8000-000000000003"  # shares OLD's first 8 characters


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args), cwd=cwd, env=hook_env(), capture_output=True, text=True, timeout=60
    )


def vk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "vaultkit", *args, cwd=cwd)


def add_session(project: Path, claude: Path, sid: str, ended: datetime) -> Path:
    transcript = write_transcript(claude / f"{sid}.jsonl", sid)
    stamp = ended.timestamp()
    os.utime(transcript, (stamp, stamp))
    done = vk("ingest", str(transcript), "--settle", "0.05", "-q", cwd=project)
    assert done.returncode == 0, done.stderr
    return transcript


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    require_program("git")
    run("git", "init", "-q", cwd=project)
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    claude = tmp_path / "claude"
    add_session(project, claude, OLD, datetime(2026, 11, 2, 9, 30))
    add_session(project, claude, NEW, datetime(2026, 11, 20, 15, 45))
    return project


def everything(store: Path) -> set[str]:
    return {p.relative_to(store).as_posix() for p in store.rglob("*") if p.is_file()}


def mentions(store: Path, text: str) -> list[str]:
    found = []
    for path in store.rglob("*"):
        if path.is_file() and (text in path.name or text in path.read_text(errors="replace")):
            found.append(path.relative_to(store).as_posix())
    return sorted(found)


def test_without_yes_it_shows_everything_and_deletes_nothing(project: Path) -> None:
    store = project / "sessions"
    before = everything(store)
    result = vk("forget", OLD[:8], cwd=project)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: nothing deleted: 7 file(s) listed above",
        f"hint: vaultkit forget {OLD[:8]} --yes",
    ]
    lines = result.stdout.splitlines()
    title = f"2026-11-02_0930_{OLD[:8]}_please change step 0 of the parser"
    assert lines[:9] == [
        f"store {store}",
        f"session {OLD} (ended 2026-11-02 09:30)",
        f"  delete  .vaultkit/done/{OLD}.json",
        f"  delete  .vaultkit/locks/{OLD}.lock",
        f"  delete  raw/2026-11-02_0930_{OLD}.jsonl",
        f"  delete  summary/{title}.md",
        f"  delete  transcripts/2026-11-02_0930_{OLD[:8]}.md",
        f"  delete  wiki/{title}.md",
        "  delete  .vaultkit/search.sqlite  (derived, rebuilt on use)",  # the worker indexed them
    ]
    assert lines[9].startswith(f"  INDEX   - [[{title}]] — ")
    assert lines[10].startswith("  log     ") and len(lines) == 11
    assert everything(store) == before


def test_forget_removes_the_session_everywhere_and_keeps_the_other(project: Path) -> None:
    store = Store(project / "sessions")
    (summary,) = store.summary.glob(f"*_{OLD[:8]}_*.md")
    store.summary_archive.mkdir()
    shutil.move(summary, store.summary_archive / summary.name)  # retention archived it
    (store.state / "search.sqlite").write_text("an index of every note")  # derived state
    index = store.index.read_text()
    stem = summary.stem
    store.index.write_text(index + f"\nSee also [[{stem}]] for the start.\n")
    assert vk("forget", OLD[:8], "--yes", cwd=project).returncode == 0
    assert mentions(store.root, OLD) == [f".vaultkit/forgotten/{OLD}.json"]
    assert mentions(store.root, stem) == []
    assert not (store.state / "search.sqlite").exists()
    assert f"{NEW[:8]}_" in store.index.read_text()
    assert len(list(store.raw.iterdir())) == 1 and len(list(store.wiki.glob("2026*"))) == 1
    status = run("git", "status", "--porcelain", "-uall", cwd=project).stdout
    assert OLD[:8] not in status and NEW[:8] in status


@pytest.mark.slow
def test_before_takes_every_session_that_ended_before_the_date(project: Path) -> None:
    assert vk("forget", "--before", "2026-11-10", "--yes", cwd=project).returncode == 0
    store = project / "sessions"
    assert mentions(store, OLD) == [f".vaultkit/forgotten/{OLD}.json"]
    assert mentions(store, NEW) != []
    nothing = vk("forget", "--before", "2026-11-01", cwd=project)
    assert nothing.returncode == 0 and "nothing to forget" in nothing.stdout
    bad = vk("forget", "--before", "last week", cwd=project)
    assert bad.returncode == 2 and "not an ISO date" in bad.stderr


def test_a_prefix_must_be_unambiguous_and_long_enough(project: Path, tmp_path: Path) -> None:
    add_session(project, tmp_path / "claude", TWIN, datetime(2026, 11, 21, 8, 0))
    store = Store(project / "sessions")
    with pytest.raises(VaultkitError, match="matches 2 sessions"):
        plan_forget(store, OLD[:8])
    with pytest.raises(VaultkitError, match="first 8 characters"):
        plan_forget(store, OLD[:6])
    assert [k.session_id for k in plan_forget(store, OLD[:9] + "0").sessions] == [OLD]
    assert plan_forget(store, before=date(2026, 11, 3)).sessions[0].session_id == OLD


def test_a_session_still_queued_is_forgotten_by_its_end_time(project: Path) -> None:
    store = Store(project / "sessions")
    queued = jobs.Job("q-1", "/gone.jsonl", ended_at="2026-10-01T10:00:00+00:00")
    jobs.write_job(store, queued)
    plan = plan_forget(store, before=date(2026, 10, 2))
    assert [k.session_id for k in plan.sessions] == ["q-1"]
    assert plan.files == (store.queue / "q-1.json",)
    apply_forget(plan)
    assert not (store.queue / "q-1.json").exists()
    assert (store.state / "forgotten" / "q-1.json").is_file()


def test_backfill_never_distils_a_forgotten_session_again(project: Path, tmp_path: Path) -> None:
    store = Store(project / "sessions")
    claude = tmp_path / "claude"
    for sid in (OLD, NEW):
        (claude / f"{sid}.jsonl").write_text(
            json.dumps({"type": "user", "cwd": str(project), "message": {"content": "hi"}}) + "\n"
        )
        os.utime(claude / f"{sid}.jsonl", (time.time() - 3600, time.time() - 3600))
    assert vk("forget", OLD, "--yes", cwd=project).returncode == 0
    assert vk("forget", NEW, "--yes", cwd=project).returncode == 0
    current = str(claude / "current.jsonl")
    found = backfill.plan(store, current, "current", max_attempts=5, now=time.time(), env={})
    assert found.missed == ()
    (store.root / ".vaultkit" / "forgotten" / f"{NEW}.json").unlink()  # without the tombstone
    found = backfill.plan(store, current, "current", max_attempts=5, now=time.time(), env={})
    assert [job.session_id for job in found.missed] == [NEW]


def test_forget_keeps_the_cost_log_and_blanks_the_sessions_id_in_it(project: Path) -> None:
    store = Store(project / "sessions")
    log = Path(store.state / "costs.jsonl")
    assert [json.loads(line)["session_id"] for line in log.read_text().splitlines()] == [OLD, NEW]
    apply_forget(plan_forget(store, OLD))
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [row["session_id"] for row in rows] == ["", NEW], "the spend stays, the id goes"
    assert OLD not in log.read_text()


def test_a_forgotten_session_that_ends_again_stays_forgotten(project: Path) -> None:
    store = Store(project / "sessions")
    assert vk("forget", OLD, "--yes", cwd=project).returncode == 0
    transcript = write_transcript(claude_projects() / f"{OLD}.jsonl", OLD, turns=4)  # resumed
    payload = {"session_id": OLD, "transcript_path": str(transcript), "cwd": str(project)}
    payload |= {"hook_event_name": "SessionEnd", "reason": "other"}
    ended = run_hook("SessionEnd", json.dumps(payload).encode(), project)
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, b"", b"")
    assert queued(store) == []
    assert f"SessionEnd {OLD}: forgotten; not queued" in log_text(store)
    jobs.write_job(store, jobs.Job(OLD, str(transcript)))  # queued anyway (an older hook, ingest)
    assert process_job(store, OLD, settle=rawcopy.Settle(0.05, 1.0)).status is Status.GONE
    assert queued(store) == []
    left = {f".vaultkit/{d}/{OLD}.{e}" for d, e in (("forgotten", "json"), ("locks", "lock"))}
    left.add(".vaultkit/vaultkit.log")  # and no raw copy, no note, no readable transcript
    assert set(mentions(store.root, OLD[:8])) <= left


def test_two_sessions_sharing_a_short_id_keep_their_own_readable_transcripts(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "transcripts"
    when = datetime(2026, 11, 2, 9, 30)
    raw = {sid: write_transcript(tmp_path / f"{sid}.jsonl", sid) for sid in (OLD, TWIN)}
    mine = render.for_worker(folder, raw[OLD], OLD, when)
    twin = render.for_worker(folder, raw[TWIN], TWIN, when)  # the same minute, too
    assert mine != twin and sorted(folder.iterdir()) == sorted([mine, twin])
    assert render.target_for(folder, OLD, datetime(2026, 11, 3)) == mine  # found again
    assert render.target_for(folder, TWIN, datetime(2026, 11, 3)) == twin
    assert f"session: `{OLD}`" in mine.read_text(encoding="utf-8")
    assert f"session: `{TWIN}`" in twin.read_text(encoding="utf-8")
    later = render.for_worker(folder, raw[TWIN], TWIN, datetime(2026, 11, 5))
    assert later == twin and len(list(folder.iterdir())) == 2  # re-rendered in place


def _prompt(project: Path, sid: str, prompt: str) -> None:
    payload = {"session_id": sid, "transcript_path": "", "cwd": str(project),
               "hook_event_name": "UserPromptSubmit", "prompt": prompt}  # fmt: skip
    done = run_hook("UserPromptSubmit", json.dumps(payload).encode(), project)
    assert done.returncode == 0, done.stderr


def test_forget_removes_the_sessions_activity_lines_and_prompt_text(project: Path) -> None:
    store = project / "sessions"
    with (store / "vaultkit.toml").open("a", encoding="utf-8") as config:
        config.write("[activity]\nprompt_text = true\n")
    _prompt(project, OLD, "rename the lease table for Kim")
    _prompt(project, NEW, "tidy the parser")
    logs = list((store / "logs").glob("*.log"))
    assert logs and "lease table" in logs[0].read_text(encoding="utf-8")
    shown = vk("forget", OLD, cwd=project)
    assert "line(s) of logs/ (the activity log)" in shown.stdout, shown.stdout
    done = vk("forget", OLD, "--yes", cwd=project)
    assert done.returncode == 0, done.stderr
    text = "".join(p.read_text(encoding="utf-8") for p in (store / "logs").glob("*.log"))
    assert "lease table" not in text and OLD[:8] not in text
    assert "tidy the parser" in text  # the other session's line stays
    assert oct(logs[0].stat().st_mode & 0o777) == "0o600"


def test_forget_waiting_on_the_store_lock_says_so_and_gives_up(project: Path) -> None:
    from filelock import FileLock

    store = Store(project / "sessions")
    store.locks.mkdir(parents=True, exist_ok=True)
    before = everything(store.root)
    with FileLock(str(store.locks / "store.lock")):  # a worker writing INDEX.md
        done = vk("forget", OLD, "--yes", "--wait", "0.5", cwd=project)
    assert done.returncode != 0
    assert "waiting up to 0.5 s for the store lock" in done.stderr
    assert "gave up after 0.5 s" in done.stderr and "nothing was deleted" in done.stderr
    assert "Traceback" not in done.stderr
    assert everything(store.root) == before
    assert vk("forget", OLD, "--yes", cwd=project).returncode == 0  # free again: it works
