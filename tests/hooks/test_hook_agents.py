"""The hooks run for Codex CLI and Gemini CLI sessions as for Claude Code's (real payloads, real
processes): the agent comes from ``--agent`` or the transcript's folder, SessionEnd queues a job
naming it, SessionStart prints only JSON and injects the project's memory whoever wrote it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from agent_fixtures import (
    CHAT,
    CODEX_SID,
    GEMINI_SID,
    codex_rollout,
    day_folder,
    gemini_chat,
    payload,
)
from hook_start_support import add_session
from hook_start_support import make_project as make_start_project
from test_import_weight import FORBIDDEN, SCRIPT, SLOW_STDLIB
from worker_support import (
    exited,
    hook_env,
    log_text,
    make_project,
    spawned_pids,
    wait_for,
    write_transcript,
)

from vaultkit import hookentry
from vaultkit.agents import known
from vaultkit.base.store import Store
from vaultkit.session.queue import jobs, runlock


def run_hook(
    args: list[str], stdin: bytes, cwd: Path, **env: str
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit.hookentry", *args],
        input=stdin,
        cwd=cwd,
        env=hook_env(**env),
        capture_output=True,
        timeout=30,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture
def held(project: Path) -> Iterator[Store]:
    """The store with its runner lock held here: a hook only writes its job (no worker runs)."""
    store = Store(project / "sessions")
    fd = runlock.try_lock(store)
    assert fd is not None
    yield store
    runlock.release(fd)


def only_job(store: Store) -> jobs.Job:
    found = [job for _, job in jobs.queued(store)]
    assert len(found) == 1, found
    return found[0]


# --- the command line and the agent ------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["SessionEnd"], hookentry.Args("SessionEnd", False, None)),
        (["SessionEnd", "--agent", "codex"], hookentry.Args("SessionEnd", False, "codex")),
        (["SessionStart", "--agent=gemini"], hookentry.Args("SessionStart", False, "gemini")),
        (["SessionEnd", "--plugin"], hookentry.Args("SessionEnd", True, None)),
        (["--agent", "codex", "SessionEnd"], hookentry.Args("SessionEnd", False, "codex")),
        (["SessionEnd", "--agent"], hookentry.Args("SessionEnd", False, "")),
        ([], hookentry.Args("", False, None)),
    ],
)
def test_parse_args(argv: list[str], expected: hookentry.Args) -> None:
    assert hookentry.parse_args(argv) == expected


def test_the_agent_comes_from_the_flag_then_the_transcript_folder(project: Path) -> None:
    env = dict(os.environ)
    rollout = codex_rollout(project)
    chat = gemini_chat(project)
    claude = write_transcript(Path(env["HOME"]) / ".claude" / "projects" / "-p" / "s.jsonl", "s")
    of = hookentry.agent_of
    assert of("gemini", {"transcript_path": str(rollout)}, env) == "gemini"  # the flag wins
    assert of("chatgpt", {"transcript_path": str(rollout)}, env) is None
    assert of("", {}, env) is None
    assert of(None, {"transcript_path": str(rollout)}, env) == "codex"
    assert of(None, {"transcript_path": str(chat)}, env) == "gemini"
    assert of(None, {"transcript_path": str(claude)}, env) == "claude"
    assert of(None, {"transcript_path": "/etc/passwd"}, env) == "claude"
    assert of(None, {}, env) == "claude"


def test_a_claude_hook_imports_neither_other_adapter(project: Path) -> None:
    """Finding out that a transcript is Claude Code's costs no Codex or Gemini module."""
    claude = write_transcript(Path.home() / ".claude" / "projects" / "-proj" / "s1.jsonl", "s1")
    stdin = json.dumps({"session_id": "s1", "transcript_path": str(claude), "cwd": str(project)})
    code = (
        "import sys, os; from vaultkit import hookentry; "
        f"print(hookentry.agent_of(None, {json.loads(stdin)!r}, os.environ)); "
        "print(sorted(m for m in sys.modules if m.startswith('vaultkit.agents.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30
    )
    agent, modules = done.stdout.splitlines()
    assert agent == "claude"
    assert "codex" not in modules and "gemini" not in modules
    assert "vaultkit.agents.known" in modules


def test_an_unknown_agent_is_logged_and_nothing_runs(project: Path, held: Store) -> None:
    rollout = codex_rollout(project)
    stdin = payload("codex", "session-end-other.json", project)
    done = run_hook(["SessionEnd", "--agent", "chatgpt"], stdin, project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert jobs.queued(held) == []
    log = log_text(held)
    assert "hook SessionEnd: unknown agent 'chatgpt' (claude, codex, gemini); ignored" in log
    assert rollout.is_file()


# --- SessionEnd --------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", [["--agent", "codex"], []])
def test_codex_session_end_queues_a_codex_job(project: Path, held: Store, flag: list[str]) -> None:
    rollout = codex_rollout(project, age=None)
    stdin = payload("codex", "session-end-other.json", project)
    done = run_hook(["SessionEnd", *flag], stdin, project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    job = only_job(held)
    assert (job.session_id, job.agent, job.reason) == (CODEX_SID, "codex", "other")
    assert job.transcript_path == str(rollout)
    assert job.source == "session-end"
    assert f"SessionEnd {CODEX_SID} (other, codex): queued" in log_text(held)


def test_gemini_session_end_queues_the_chat_file_it_names(project: Path, held: Store) -> None:
    chat = gemini_chat(project, age=None)
    stdin = payload("gemini", "session-end-exit.json", project)
    done = run_hook(["SessionEnd", "--agent", "gemini"], stdin, project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    job = only_job(held)
    assert (job.session_id, job.agent, job.reason) == (GEMINI_SID, "gemini", "exit")
    assert job.transcript_path == str(chat)
    assert chat.name == CHAT
    assert "unknown reason" not in log_text(held)


def test_a_transcript_outside_the_agents_folder_is_refused(project: Path, held: Store) -> None:
    """``--agent gemini`` with a Codex rollout, or a Codex payload naming a file elsewhere."""
    codex_rollout(project)
    stdin = payload("codex", "session-end-other.json", project)
    assert run_hook(["SessionEnd", "--agent", "gemini"], stdin, project).returncode == 0
    elsewhere = project / "rollout-x.jsonl"
    elsewhere.write_text('{"type":"session_meta","payload":{}}\n', encoding="utf-8")
    moved = json.loads(stdin)
    moved["transcript_path"] = str(elsewhere)
    done = run_hook(["SessionEnd", "--agent", "codex"], json.dumps(moved).encode(), project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert jobs.queued(held) == []
    log = log_text(held)
    assert "refused: not Gemini CLI" in log
    assert "refused: not Codex CLI 0.171's transcript" in log


def test_a_codex_payload_without_session_id_takes_it_from_the_rollout_name(
    project: Path, held: Store
) -> None:
    codex_rollout(project, age=None)
    data = json.loads(payload("codex", "session-end-other.json", project))
    del data["session_id"]
    done = run_hook(["SessionEnd", "--agent", "codex"], json.dumps(data).encode(), project)
    assert done.returncode == 0
    assert only_job(held).session_id == CODEX_SID


def test_a_session_end_without_a_transcript_path_queues_nothing(project: Path, held: Store) -> None:
    """Codex's schema allows ``transcript_path: null``."""
    data = json.loads(payload("codex", "session-end-other.json", project))
    data["transcript_path"] = None
    done = run_hook(["SessionEnd", "--agent", "codex"], json.dumps(data).encode(), project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert jobs.queued(held) == []
    assert "no session_id or transcript_path" in log_text(held)


# --- SessionStart ------------------------------------------------------------------------------


def _start_project(tmp_path: Path, agent: str, marker: str) -> Path:
    project = make_start_project(tmp_path / "proj")
    add_session(project, 28, "0900", "aaaa1111", "Earlier work", summary=f"## Done\n- {marker}\n")
    note = next((project / "sessions" / "summary").glob("*.md"))
    note.write_text(note.read_text("utf-8").replace("---\n", f"---\nagent: {agent}\n", 1))
    return project


def _context(stdout: bytes) -> str:
    """The ``additionalContext`` of a hook's stdout, which must be exactly one JSON object."""
    data = json.loads(stdout.decode("utf-8"))
    assert set(data) == {"hookSpecificOutput"}
    out = data["hookSpecificOutput"]
    assert out["hookEventName"] == "SessionStart"
    return str(out["additionalContext"])


@pytest.mark.parametrize(
    ("agent", "writer", "fixture"),
    [
        ("gemini", "codex", "session-start-startup.json"),
        ("codex", "claude", "session-start-startup.json"),
        ("gemini", "claude", "session-start-startup.json"),
    ],
)
def test_session_start_injects_the_projects_memory_whoever_wrote_it(
    tmp_path: Path, agent: str, writer: str, fixture: str
) -> None:
    project = _start_project(tmp_path, writer, f"MARK-{writer}-7c1")
    done = run_hook(["SessionStart", "--agent", agent], payload(agent, fixture, project), project)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.endswith(b"}\n") and done.stdout.count(b"\n") == 1
    text = _context(done.stdout)
    assert f"MARK-{writer}-7c1" in text
    assert "vaultkit search" in text  # the recall line, as for Claude Code
    assert len(text) <= 9_000


def test_claude_session_start_gets_codexs_handoff(tmp_path: Path) -> None:
    project = _start_project(tmp_path, "codex", "MARK-codex-2b9")
    stdin = json.dumps({"session_id": "c1", "cwd": str(project), "source": "startup"}).encode()
    done = run_hook(["SessionStart"], stdin, project)
    assert (done.returncode, done.stderr) == (0, b"")
    assert "MARK-codex-2b9" in _context(done.stdout)


def test_codex_injection_stays_under_its_10000_character_limit(tmp_path: Path) -> None:
    """A store whose notes are far over the limit: what Codex gets is at most the budget
    (9,000), so Codex never truncates it (it cuts output over 10,000 characters)."""
    project = make_start_project(tmp_path / "proj")
    big = "## Done\n" + "".join(f"- step {n}: edited parser_{n}.py\n" for n in range(3000))
    for day in range(20, 28):
        add_session(project, day, "0900", f"s{day}aaaaaa", f"Work {day}", summary=big, wiki=big)
    stdin = payload("codex", "session-start-startup.json", project)
    done = run_hook(["SessionStart", "--agent", "codex"], stdin, project)
    assert (done.returncode, done.stderr) == (0, b"")
    text = _context(done.stdout)
    assert 8_000 < len(text) <= 9_000 < 10_000
    assert "trimmed" in text


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_a_resumed_session_gets_nothing_as_for_claude(tmp_path: Path, agent: str) -> None:
    project = _start_project(tmp_path, "claude", "MARK-resume")
    stdin = payload(agent, "session-start-resume.json", project)
    done = run_hook(["SessionStart", "--agent", agent], stdin, project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_gemini_session_start_in_a_folder_without_a_store_prints_nothing(tmp_path: Path) -> None:
    """Empty stdout and empty stderr: Gemini CLI then has nothing to show or parse."""
    project = make_project(tmp_path / "bare")
    stdin = payload("gemini", "session-start-startup.json", project)
    done = run_hook(["SessionStart", "--agent", "gemini"], stdin, project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_user_prompt_submit_for_codex_only_logs_the_prompt(project: Path) -> None:
    (project / "sessions").mkdir()
    data = json.loads(payload("codex", "stop.json", project))
    data.update(hook_event_name="UserPromptSubmit", prompt="fix the parser")
    done = run_hook(["UserPromptSubmit", "--agent", "codex"], json.dumps(data).encode(), project)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_every_name_the_flag_accepts_is_a_known_agent() -> None:
    for name in known.names():
        assert hookentry.agent_of(name, {}, {}) == name


@pytest.mark.parametrize(
    ("agent", "event", "fixture"),
    [
        ("codex", "SessionEnd", "session-end-other.json"),
        ("codex", "SessionStart", "session-start-startup.json"),
        ("gemini", "SessionEnd", "session-end-exit.json"),
        ("gemini", "SessionStart", "session-start-startup.json"),
    ],
)
def test_codex_and_gemini_hooks_stay_lean(
    tmp_path: Path, agent: str, event: str, fixture: str
) -> None:
    """The same import rules as Claude Code's hooks (tests/test_import_weight.py), run through
    the installed ``vaultkit-hook`` script as the CLIs run it."""
    project = _start_project(tmp_path, "claude", "MARK-lean")
    codex_rollout(project, age=None)
    gemini_chat(project, age=None)
    modules = imported_modules(event, payload(agent, fixture, project), project, agent)
    assert f"vaultkit.hooks.{'session_end' if event == 'SessionEnd' else 'session_start'}" in (
        modules
    )
    assert sorted(m for m in modules if m.split(".")[0] in FORBIDDEN) == []
    assert sorted({m.split(".")[0] for m in modules} & SLOW_STDLIB) == []
    pids = spawned_pids(Store(project / "sessions"))
    wait_for(lambda: all(exited(pid) for pid in pids), 30, "spawned workers to exit")


def imported_modules(event: str, stdin: bytes, cwd: Path, agent: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", str(SCRIPT), event, "--agent", agent],
        input=stdin,
        cwd=cwd,
        env=hook_env(),
        capture_output=True,
        timeout=30,
        check=True,
    )
    lines = done.stderr.decode().splitlines()
    rows = [line.split("|")[-1].strip() for line in lines if line.startswith("import time:")]
    return {row for row in rows if row and row != "package"}


def test_a_claude_session_start_queues_a_missed_codex_session(tmp_path: Path) -> None:
    project = _start_project(tmp_path, "claude", "MARK-bf")
    rollout = codex_rollout(project, day=day_folder())
    store = Store(project / "sessions")
    fd = runlock.try_lock(store)
    assert fd is not None
    try:
        stdin = json.dumps({"session_id": "c1", "cwd": str(project), "source": "startup"})
        done = run_hook(["SessionStart"], stdin.encode(), project)
        assert (done.returncode, done.stderr) == (0, b"")
        job = only_job(store)
    finally:
        runlock.release(fd)
    assert (job.agent, job.source, job.session_id) == ("codex", "backfill", CODEX_SID)
    assert job.transcript_path == str(rollout)
    assert "MARK-bf" in _context(done.stdout)
