"""vaultkit end to end inside the real Claude Code CLI (issue "End-to-end with the real Claude
Code CLI", scenarios 1-6). The hooks are installed with ``vaultkit hooks install --scope
project`` and the default SessionEnd budget; the worker makes its own real ``claude -p`` call
against the mock, whose worker answers are scripted per test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest
from conftest import require_program

from vaultkit.base.store import Store
from vaultkit.session.distill import costs
from vaultkit.session.queue import jobs

from .capture_fixtures import EVENTS as DUMP_EVENTS
from .capture_fixtures import HOOK as DUMP_HOOK
from .capture_fixtures import interactive_clear_and_exit
from .harness import Run, Sandbox, read_jsonl
from .mockapi import DEFAULT_DISTILLATION, HttpError, Slow, Text, ToolUse, distillation
from .pipeline import (
    INJECTION_PREFIX,
    add_dump_hooks,
    done_record,
    echo_distillation,
    frontmatter,
    index_entries,
    injected_texts,
    log_text,
    new_session_id,
    notes,
    notes_of,
    observe,
    payloads,
    prompt_of,
    requests_for,
    vault_project,
    wait_distilled,
    wait_idle,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


def _session(sandbox: Sandbox, project: Path, prompt: str, *args: str) -> tuple[str, Run]:
    session_id = new_session_id()
    run = sandbox.run(prompt, project, "--session-id", session_id, *args)
    assert run.returncode == 0, f"claude failed: {run.stdout}{run.stderr}"
    return session_id, run


def _store(project: Path) -> Store:
    return Store(project / "sessions")


def _worker_prompts(sandbox: Sandbox) -> list[str]:
    return [prompt_of(r.body) for r in sandbox.mock.of_kind("worker")]


def test_s1_a_session_is_archived_and_distilled_by_the_real_worker(sandbox: Sandbox) -> None:
    project = vault_project(sandbox)
    store = _store(project)
    sandbox.mock.set_default("worker", echo_distillation())
    sandbox.mock.queue(
        "agent",
        ToolUse("Bash", {"command": "echo hi > out.txt", "description": "write out.txt"}),
        Text("Wrote out.txt for the release checklist."),
    )
    sid, run = _session(sandbox, project, "Write hi into out.txt", "--allowedTools", "Bash")
    ended = time.monotonic()
    result = wait_distilled(store, sid)
    waited = time.monotonic() - ended
    transcript = sandbox.transcripts_dir(project) / f"{sid}.jsonl"
    assert result.raw.parent == store.raw and sid in result.raw.name
    assert result.raw.stat().st_mode & 0o777 == 0o600
    assert result.raw.read_bytes() == transcript.read_bytes()
    assert frontmatter(result.summary)["session_id"] == sid
    wiki = result.wiki.read_text(encoding="utf-8")
    assert f"WIKI-{sid}" in wiki and "Write hi into out.txt" in wiki
    assert f"HANDOFF-{sid}" in result.summary.read_text(encoding="utf-8")
    assert frontmatter(result.wiki).get("quality", "ok") != "degraded"
    assert index_entries(store) == [e for e in index_entries(store) if result.wiki.stem in e]
    assert len(index_entries(store)) == 1
    (worker,) = sandbox.mock.of_kind("worker")
    assert "Write hi into out.txt" in prompt_of(worker.body)
    assert "queued, worker pid" in log_text(store)  # the hook finished within the 1.5 s budget
    assert sandbox.mock.outside() == [], sandbox.mock.paths()
    (cost,) = costs.entries(store)  # as `claude -p --output-format json` reported it
    assert (cost.session_id, cost.backend) == (sid, "claude")
    assert (cost.input_tokens, cost.output_tokens) == (12, 7)  # the mock's fixed usage
    assert cost.cost_usd > 0 and cost.model
    observe(
        "s1",
        cost=cost.as_dict(),
        session_seconds=round(run.seconds, 2),
        distilled_after_exit_seconds=round(waited, 2),
        raw_bytes=result.raw.stat().st_size,
        summary_bytes=result.summary.stat().st_size,
        wiki_bytes=result.wiki.stat().st_size,
        worker_prompt_chars=len(prompt_of(worker.body)),
        requests=sandbox.mock.paths(),
    )


def test_s2_the_next_session_gets_the_memory_and_does_not_distil_it_again(
    sandbox: Sandbox,
) -> None:
    project = vault_project(sandbox)
    store = _store(project)
    sandbox.mock.set_default("worker", echo_distillation())
    first, _ = _session(sandbox, project, "Plan the parser rewrite")
    one = wait_distilled(store, first)
    second, _ = _session(sandbox, project, "Continue with the parser")
    (request,) = requests_for(sandbox.mock.of_kind("agent"), second)
    (injected,) = injected_texts(sandbox, project, second)
    assert _count(request.body, f"{INJECTION_PREFIX} {injected}") == 1  # reached the model
    assert f"HANDOFF-{first}" in injected  # the latest summary
    assert f"WIKI-{first}" in injected  # the previous wiki note
    assert one.wiki.stem in injected  # the INDEX head names the note
    assert len(injected) < 10_000
    two = wait_distilled(store, second)
    worker_prompt = _worker_prompts(sandbox)[-1]
    assert "Continue with the parser" in worker_prompt
    for token in (f"HANDOFF-{first}", f"WIKI-{first}", INJECTION_PREFIX):
        assert token not in worker_prompt
        assert token not in two.wiki.read_text(encoding="utf-8")
    observe("s2", injected_chars=len(injected), worker_prompt_chars=len(worker_prompt))


def test_s2_a_huge_memory_is_injected_within_the_limit(sandbox: Sandbox) -> None:
    project = vault_project(sandbox)
    store = _store(project)
    filler = "\n".join(f"- detail line {n}: " + "x" * 70 for n in range(500))  # ~40 KB
    facts = "\n".join(f"- wiki fact {n} holds " + "y" * 60 for n in range(40))  # its own text
    sandbox.mock.set_default(  # two different parts: identical ones are rejected (issue 26)
        "worker",
        distillation("Huge session", f"HUGE-HANDOFF-START\n{filler}", f"HUGE-WIKI-START\n{facts}"),
    )
    first, _ = _session(sandbox, project, "A very long session")
    result = wait_distilled(store, first)
    assert result.summary.stat().st_size > 35_000
    second, _ = _session(sandbox, project, "Continue")
    (injected,) = injected_texts(sandbox, project, second)
    assert "HUGE-HANDOFF-START" in injected  # the real text, not Claude Code's short preview
    assert len(injected) < 10_000
    (request,) = requests_for(sandbox.mock.of_kind("agent"), second)
    assert _count(request.body, "HUGE-HANDOFF-START") == 1
    wait_distilled(store, second)
    observe("s2-huge", summary_bytes=result.summary.stat().st_size, injected_chars=len(injected))


def _contains(value: object, needle: str) -> bool:
    if isinstance(value, str):
        return needle in value
    if isinstance(value, dict):
        return any(_contains(v, needle) for v in value.values())
    if isinstance(value, list):
        return any(_contains(v, needle) for v in value)
    return False


@pytest.mark.parametrize("scope", ["project", "user"])
def test_s3_no_recursion_distillations_equal_user_sessions(sandbox: Sandbox, scope: str) -> None:
    # With user scope the hooks sit in $CLAUDE_CONFIG_DIR/settings.json, which the worker's own
    # claude -p (same config dir, any cwd) also reads: only its guards keep it from recursing.
    project = vault_project(sandbox, scope=scope)
    store = _store(project)
    sandbox.mock.set_default("worker", echo_distillation())
    sessions = []
    for n in range(3):
        sid, _ = _session(sandbox, project, f"Task number {n}")
        wait_distilled(store, sid)
        sessions.append(sid)
    time.sleep(2)  # anything a worker's own claude started would show up by now
    assert wait_idle(store)
    worker_requests = sandbox.mock.of_kind("worker")
    assert len(worker_requests) == len(sessions)
    assert len(notes(store.wiki)) == len(sessions) == len(index_entries(store))
    for record in worker_requests:
        assert not _contains(record.body, INJECTION_PREFIX)
        assert "vaultkit: memory of earlier sessions" not in record.text
    all_transcripts = sorted((sandbox.config_dir / "projects").rglob("*.jsonl"))
    assert all_transcripts == sandbox.transcripts(project)
    assert sorted(p.stem for p in all_transcripts) == sorted(sessions)
    # --no-session-persistence still creates an empty projects/<cwd>/memory/ folder per run.
    leftovers = [
        p for p in (sandbox.config_dir / "projects").iterdir() if "vaultkit-distill" in p.name
    ]
    queued_lines = re.findall(r"\): queued, (?:worker pid|runner alive)", log_text(store))
    assert len(queued_lines) == len(sessions), "every SessionEnd hook queued its session"
    agent_ids = {r.headers.get("x-claude-code-session-id") for r in sandbox.mock.of_kind("agent")}
    assert agent_ids == set(sessions)
    observe(
        f"s3-{scope}",
        sessions=len(sessions),
        worker_requests=len(worker_requests),
        empty_config_folders_left_by_worker=len(leftovers),
    )


def test_s4_no_markers_retry_then_degraded_and_the_next_session_is_warned(
    sandbox: Sandbox,
) -> None:
    project = vault_project(sandbox)
    store = _store(project)
    prose = Text("This session was about greetings. Nothing else happened.")
    sandbox.mock.queue("worker", prose, prose)
    sandbox.mock.set_default("worker", echo_distillation())
    first, _ = _session(sandbox, project, "Say hello")
    result = wait_distilled(store, first)
    assert len(sandbox.mock.of_kind("worker")) == 2  # one retry
    meta = frontmatter(result.summary)
    assert meta["quality"] == "degraded"
    assert meta["degraded_reason"] == "no-markers"
    assert meta["distill_retries"] == 1
    assert frontmatter(result.wiki)["quality"] == "degraded"
    assert result.wiki.stem in store.index.read_text(encoding="utf-8")
    second, _ = _session(sandbox, project, "Next task")
    (injected,) = injected_texts(sandbox, project, second)
    assert "degraded mode (no-markers)" in injected
    wait_distilled(store, second)
    observe("s4-no-markers", worker_requests=len(sandbox.mock.of_kind("worker")))


@pytest.mark.parametrize(
    "error",
    [
        HttpError(500, "api_error", "Internal server error"),
        HttpError(529, "overloaded_error", "Overloaded"),
        HttpError(401, "authentication_error", "invalid x-api-key"),
    ],
    ids=["http-500", "http-529", "auth-401"],
)
def test_s4_api_errors_write_no_note_and_backfill_distils_after_recovery(
    sandbox: Sandbox, error: HttpError
) -> None:
    project = vault_project(sandbox)
    store = _store(project)
    sandbox.mock.set_default("worker", error)
    first, _ = _session(sandbox, project, "Work that ends during an outage")
    queued = store.queue / f"{first}.json"
    assert wait_idle(store, ended=(first,)), log_text(store)
    assert queued.is_file(), log_text(store)
    assert notes(store.wiki) == [] and notes(store.summary) == []
    failed_calls = len(sandbox.mock.of_kind("worker"))
    assert failed_calls >= 1
    job = jobs.read_job(queued)
    assert job is not None and job.attempts == 1 and job.last_error, job
    sandbox.mock.set_default("worker", echo_distillation())  # the API recovers
    # The clock: backfill leaves a job alone for its first minutes (its worker may still be
    # starting); the next session happens "later", so the job file is made 10 minutes old.
    old = time.time() - 600
    os.utime(queued, (old, old))
    second, _ = _session(sandbox, project, "Work after the outage")
    wait_distilled(store, first)
    wait_distilled(store, second)
    assert not queued.exists()
    assert len(notes_of(store.wiki, first)) == 1
    assert len(notes_of(store.wiki, second)) == 1
    assert len(index_entries(store)) == 2
    observe(
        f"s4-{error.status}",
        worker_calls_during_outage=failed_calls,
        worker_calls_total=len(sandbox.mock.of_kind("worker")),
    )


def test_s4_a_timeout_is_retried_then_degraded(sandbox: Sandbox) -> None:
    # The timeout must leave room for claude -p to start and send its request (2-5 s on a
    # loaded 2-core machine); the mock then holds the answer well past it.
    project = vault_project(sandbox, timeout=8)
    store = _store(project)
    sandbox.mock.set_default("worker", Slow(20, DEFAULT_DISTILLATION))
    sid, _ = _session(sandbox, project, "A session whose distillation hangs")
    started = time.monotonic()
    result = wait_distilled(store, sid, timeout=60)
    meta = frontmatter(result.summary)
    assert meta["quality"] == "degraded"
    assert meta["degraded_reason"] == "timeout"
    assert meta["distill_retries"] == 1
    assert len(sandbox.mock.of_kind("worker")) == 2
    observe("s4-timeout", seconds_to_degraded_note=round(time.monotonic() - started, 1))


def test_s5_resume_does_not_inject_twice_and_refreshes_the_raw_copy(sandbox: Sandbox) -> None:
    project = vault_project(sandbox)
    store = _store(project)
    dumps = sandbox.root / "dumps"
    add_dump_hooks(project, DUMP_HOOK, ("SessionStart",))
    env = {"E2E_DUMP_DIR": str(dumps)}
    sandbox.mock.set_default("worker", echo_distillation())
    earlier, _ = _session(sandbox, project, "Earlier work")
    wait_distilled(store, earlier)
    sid, _ = _session(sandbox, project, "Start the feature")
    before = wait_distilled(store, sid)
    raw_size = before.raw.stat().st_size
    (injected,) = injected_texts(sandbox, project, sid)
    run = sandbox.run("Finish the feature", project, "--resume", sid, extra_env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    (start,) = payloads(dumps)
    assert (start["source"], start["session_id"]) == ("resume", sid)
    resumed_request = requests_for(sandbox.mock.of_kind("agent"), sid)[-1]
    assert _count(resumed_request.body, f"HANDOFF-{earlier}") == 1
    assert injected_texts(sandbox, project, sid) == [injected]  # nothing new injected
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and before.raw.stat().st_size == raw_size:
        time.sleep(0.2)
    after = wait_distilled(store, sid)
    transcript = sandbox.transcripts_dir(project) / f"{sid}.jsonl"
    assert after.raw == before.raw
    assert after.raw.read_bytes() == transcript.read_bytes()
    assert after.raw.stat().st_size > raw_size
    assert len(list(store.raw.glob(f"*{sid}*"))) == 1
    assert len(notes_of(store.wiki, sid)) == 1
    assert len(notes_of(store.summary, sid)) == 1
    assert len(index_entries(store)) == 2
    assert "Finish the feature" in after.wiki.read_text(encoding="utf-8")
    observe("s5", raw_bytes_before=raw_size, raw_bytes_after=after.raw.stat().st_size)


def _count(value: object, needle: str) -> int:
    if isinstance(value, str):
        return value.count(needle)
    if isinstance(value, dict):
        return sum(_count(v, needle) for v in value.values())
    if isinstance(value, list):
        return sum(_count(v, needle) for v in value)
    return 0


def test_s6_sessions_ending_together_in_two_projects_are_all_distilled(
    sandbox: Sandbox,
) -> None:
    alpha = vault_project(sandbox, "alpha")
    beta = vault_project(sandbox, "beta")
    sandbox.mock.set_default("worker", echo_distillation())
    # Every agent answer is held 2 s so that the four sessions end at (nearly) the same moment.
    sandbox.mock.set_default("agent", Slow(2, Text("Done.")))
    plan = [(alpha, "alpha-one"), (beta, "beta-one"), (beta, "beta-two"), (alpha, "alpha-two")]
    ids = {name: new_session_id() for _, name in plan}
    procs = [
        sandbox.start(f"Prompt {name}", project, "--session-id", ids[name])
        for project, name in plan
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, out + err
    for project, name in plan:
        wait_distilled(_store(project), ids[name])
    for project in (alpha, beta):
        store = _store(project)
        own = {ids[n] for p, n in plan if p == project}
        others = {ids[n] for p, n in plan if p != project}
        wiki_ids = {frontmatter(p)["session_id"] for p in notes(store.wiki)}
        assert wiki_ids == own
        assert {frontmatter(p)["session_id"] for p in notes(store.summary)} == own
        entries = index_entries(store)
        assert len(entries) == len(own)
        text = "\n".join(p.read_text(encoding="utf-8") for p in notes(store.wiki))
        for other in others:
            assert other not in text and other[:8] not in "\n".join(entries)
        assert frontmatter(notes(store.wiki)[0])["project"] == project.name
        assert not any(store.queue.glob("*.json"))
    assert len(sandbox.mock.of_kind("worker")) == len(plan)
    raw_lines = sum(len(read_jsonl(p)) for p in _store(alpha).raw.glob("*.jsonl"))
    logs = log_text(_store(alpha)) + log_text(_store(beta))
    ends = sorted(set(re.findall(r"^\[([^\]]+)\] SessionEnd ", logs, re.MULTILINE)))
    observe("s6", sessions=len(plan), alpha_raw_lines=raw_lines, session_end_stamps=ends)


def test_s8_interactive_clear_and_exit_sessions_are_distilled(sandbox: Sandbox) -> None:
    require_program("tmux")
    project = vault_project(sandbox)
    store = _store(project)
    dumps = sandbox.root / "dumps"
    add_dump_hooks(project, DUMP_HOOK, DUMP_EVENTS)
    sandbox.mock.set_default("worker", echo_distillation())
    interactive_clear_and_exit(sandbox, project, dumps)
    ends = [p for p in payloads(dumps) if p["hook_event_name"] == "SessionEnd"]
    assert [p["reason"] for p in ends] == ["clear", "prompt_input_exit"]
    cleared, exited = (p["session_id"] for p in ends)
    for sid in (cleared, exited):
        result = wait_distilled(store, sid)
        assert len(notes_of(store.wiki, sid)) == 1
        assert result.raw.stat().st_mode & 0o777 == 0o600
    assert "hello from tmux" in notes_of(store.wiki, cleared)[0].read_text(encoding="utf-8")
    assert "after the clear" in notes_of(store.wiki, exited)[0].read_text(encoding="utf-8")
    assert len(index_entries(store)) == 2
    assert injected_texts(sandbox, project, exited) == []  # inject.on_clear is off by default
    assert len(sandbox.mock.of_kind("worker")) == 2
    observe("s8-interactive", outside_attempts=sorted({r.path for r in sandbox.mock.outside()}))


def test_s1_the_installed_session_end_hook_returns_well_inside_the_budget(
    sandbox: Sandbox,
) -> None:
    project = vault_project(sandbox)
    store = _store(project)
    sandbox.mock.set_default("worker", Slow(3, DEFAULT_DISTILLATION))  # a worker that takes time
    settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
    (entry,) = settings["hooks"]["SessionEnd"]
    (hook,) = entry["hooks"]
    sid, _ = _session(sandbox, project, "Measure the hook")
    wait_distilled(store, sid)
    again = new_session_id()
    transcript = sandbox.transcripts_dir(project) / f"{again}.jsonl"
    transcript.write_bytes((sandbox.transcripts_dir(project) / f"{sid}.jsonl").read_bytes())
    payload = {
        "session_id": again,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    env = sandbox.env({"CLAUDECODE": "1", "CLAUDE_PROJECT_DIR": str(project)})
    started = time.monotonic()
    done = subprocess.run(
        [hook["command"], *hook.get("args", [])],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=30,
        check=False,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert elapsed < 10, f"SessionEnd hook took {elapsed:.2f} s"  # it did not wait for the worker
    assert done_record(store, again) is None  # the hook returned before the worker finished
    wait_distilled(store, again)
    observe("s1-hook", session_end_hook_seconds=round(elapsed, 3), hook=hook)


def test_s4_a_real_outage_is_retried_by_claude_as_the_user_configured(sandbox: Sandbox) -> None:
    # Without ``x-should-retry: false`` (the real API's 529) Claude Code retries 10 times over
    # ~3 minutes. The user's CLAUDE_CODE_MAX_RETRIES=1 must reach the worker's own claude -p
    # through the hook and the worker (vaultkit keeps the user's CLAUDE_CODE_* configuration).
    project = vault_project(sandbox)
    store = _store(project)
    overloaded = HttpError(529, "overloaded_error", "Overloaded", should_retry=True)
    sandbox.mock.set_default("worker", overloaded)
    session_id = new_session_id()
    env = {"CLAUDE_CODE_MAX_RETRIES": "1"}
    run = sandbox.run(
        "Work during a real outage", project, "--session-id", session_id, extra_env=env
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert wait_idle(store, 60, ended=(session_id,)), log_text(store)
    assert len(sandbox.mock.of_kind("worker")) == 2  # the first call and one retry
    assert (store.queue / f"{session_id}.json").is_file(), log_text(store)
    assert notes(store.wiki) == []
