"""vaultkit's own hooks in the real Codex CLI 0.171 and Gemini CLI 0.61, against their mocks.

The hooks are installed as ``vaultkit hooks install --agent`` writes them (``codex_hooks.install`` /
``gemini_hooks.install`` and ``hookmerge.render``), with the ``--agent`` flag on the command and
without it (as an older install wrote them). Each run shows: the project's memory (a handoff
another agent wrote) is in the first model request, whole and under the agent's limit;
SessionEnd queues a job naming the agent and the transcript to archive; a session whose
SessionEnd never came is queued by the next SessionStart's backfill; and what backfill's
finished rule relies on holds (Codex holds its rollout open while it runs, Gemini never holds
its chat file open). Except in the last test, the runner lock is held by the test while the CLI
runs, so the hooks only queue (no worker starts), exactly as when a queue runner is busy.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import require_program
from hook_start_support import add_session

from vaultkit.agents import hookmerge
from vaultkit.agents.codex import hooks as codex_hooks
from vaultkit.agents.gemini import hooks as gemini_hooks
from vaultkit.base.store import Store
from vaultkit.session.queue import finished, jobs, runlock

from .agents_harness import CodexSandbox, GeminiSandbox, hook_groups
from .mock_gemini import MockGemini, user_texts
from .mock_openai import MockOpenAI
from .pipeline import frontmatter, wait_distilled

pytestmark = pytest.mark.e2e

HOOK = Path(sys.executable).parent / "vaultkit-hook"
BYPASS = "--dangerously-bypass-hook-trust"
CODEX_LIMIT = 10_000  # Codex cuts SessionStart output longer than this


def without_flag(data: dict[str, Any], agent: str) -> dict[str, Any]:
    """The hook commands without ``--agent NAME`` (as an older install wrote them): the hook
    then learns the agent from the transcript's folder."""
    for groups in data["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                if hookmerge.is_vaultkit(hook):
                    assert hook["command"].endswith(f" --agent {agent}")
                    hook["command"] = hook["command"].removesuffix(f" --agent {agent}")
    return data


def seed_store(project: Path, writer: str, marker: str) -> None:
    """The handoff of an earlier session of ``writer`` (``agent:`` in its frontmatter)."""
    add_session(
        project, 28, "0900", "e0e0e0e0", "Streaming parser", summary=f"## Done\n- {marker}\n"
    )
    for folder in ("summary", "wiki"):
        note = next((project / "sessions" / folder).glob("*.md"))
        note.write_text(note.read_text("utf-8").replace("---\n", f"---\nagent: {writer}\n", 1))


@pytest.fixture
def hold() -> Iterator[list[int]]:
    """Runner locks taken by the test (released at the end)."""
    held: list[int] = []
    yield held
    for fd in held:
        runlock.release(fd)


def lock_runner(project: Path, held: list[int]) -> Store:
    store = Store(project / "sessions")
    fd = runlock.try_lock(store)
    assert fd is not None
    held.append(fd)
    return store


def queued(store: Store) -> list[jobs.Job]:
    return [job for _, job in jobs.queued(store)]


# --- Codex -------------------------------------------------------------------------------------


def codex_box(tmp_path: Path, binary: Path, url: str, flag: bool) -> CodexSandbox:
    require_program("git")
    box = CodexSandbox(tmp_path, binary, url)
    data = codex_hooks.install(codex_hooks.parse("", "hooks.json"), str(HOOK))
    box.write_hooks(data if flag else without_flag(data, "codex"))
    return box


def developer_texts(mock: MockOpenAI, at: int = 0) -> list[str]:
    """The developer messages' texts of the ``at``-th model request."""
    first = mock.of_kind("agent")[at]
    return [
        part.get("text", "")
        for item in first.body["input"]
        if item.get("role") == "developer"
        for part in item.get("content") or []
    ]


@pytest.mark.parametrize("flag", [True, False], ids=["--agent", "no-flag"])
def test_codex_session_gets_claudes_handoff_and_queues_its_own(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI, hold: list[int], flag: bool
) -> None:
    box = codex_box(tmp_path, codex_bin, openai.url, flag)
    project = box.project()
    seed_store(project, "claude", "MARK-claude-4e1 streaming parser done")
    store = lock_runner(project, hold)
    run = box.exec("Continue the parser work", project, BYPASS)
    assert run.returncode == 0, run.stderr
    injected = [t for t in developer_texts(openai) if "MARK-claude-4e1" in t]
    assert len(injected) == 1, developer_texts(openai)
    assert injected[0].startswith("## vaultkit: memory of earlier sessions")
    assert "vaultkit search" in injected[0]
    assert len(injected[0]) <= 9_000 < CODEX_LIMIT
    assert not (box.tmp / "hook_outputs").exists()  # nothing was cut and saved aside
    [job] = queued(store)
    [rollout] = (box.codex_home / "sessions").glob("*/*/*/rollout-*.jsonl")
    assert (job.agent, job.reason, job.source) == ("codex", "other", "session-end")
    assert job.transcript_path == str(rollout)
    assert rollout.name.endswith(f"-{job.session_id}.jsonl")
    assert openai.of_kind("outside") == []


def test_a_big_store_reaches_codex_whole(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI, hold: list[int]
) -> None:
    box = codex_box(tmp_path, codex_bin, openai.url, True)
    project = box.project()
    big = "## Done\n" + "".join(f"- step {n}: edited parser_{n}.py\n" for n in range(3000))
    for day in range(20, 27):
        add_session(project, day, "0900", f"b{day}bbbbbb", f"Work {day}", summary=big, wiki=big)
    lock_runner(project, hold)
    assert box.exec("go on", project, BYPASS).returncode == 0
    [injected] = [t for t in developer_texts(openai) if t.startswith("## vaultkit")]
    assert 8_000 < len(injected) <= 9_000
    assert "Warning: truncated output" not in injected


def test_a_codex_session_without_session_end_is_backfilled(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI, hold: list[int]
) -> None:
    """The first run has no SessionEnd hook (as when Codex was killed); once its rollout is
    silent long enough, the next session's SessionStart queues it."""
    box = codex_box(tmp_path, codex_bin, openai.url, True)
    data = json.loads((box.codex_home / "hooks.json").read_text(encoding="utf-8"))
    only_start = {"hooks": {"SessionStart": data["hooks"]["SessionStart"]}}
    box.write_hooks(only_start)
    project = box.project()
    (project / "sessions").mkdir()
    store = lock_runner(project, hold)
    assert box.exec("first", project, BYPASS).returncode == 0
    assert queued(store) == []
    [first] = (box.codex_home / "sessions").glob("*/*/*/rollout-*.jsonl")
    stamp = time.time() - 3600
    os.utime(first, (stamp, stamp))
    assert box.exec("second", project, BYPASS).returncode == 0
    [job] = queued(store)
    assert (job.agent, job.source, job.transcript_path) == ("codex", "backfill", str(first))
    assert first.name.endswith(f"-{job.session_id}.jsonl")
    assert os.path.realpath(job.cwd) == os.path.realpath(project)


# --- Gemini ------------------------------------------------------------------------------------


def gemini_box(tmp_path: Path, binary: Path, url: str, flag: bool) -> GeminiSandbox:
    require_program("git")
    box = GeminiSandbox(tmp_path, binary, url)
    data = gemini_hooks.install({}, str(HOOK))
    box.write_settings(data if flag else without_flag(data, "gemini"))
    return box


@pytest.mark.parametrize("flag", [True, False], ids=["--agent", "no-flag"])
def test_gemini_session_gets_codexs_handoff_and_queues_its_own(
    tmp_path: Path, gemini_bin: Path, google: MockGemini, hold: list[int], flag: bool
) -> None:
    box = gemini_box(tmp_path, gemini_bin, google.url, flag)
    project = box.project()
    seed_store(project, "codex", "MARK-codex-8d2 streaming parser done")
    store = lock_runner(project, hold)
    run = box.prompt("Continue the parser work", project)
    assert run.returncode == 0, run.stderr
    assert "Hook system message" not in run.stderr  # stdout was JSON, nothing else
    first = user_texts(google.of_kind("agent")[0].body)
    wrapped = [t for t in first if "<hook_context>" in t and "MARK-codex-8d2" in t]
    assert len(wrapped) == 1, first
    context = wrapped[0].split("<hook_context>", 1)[1].split("</hook_context>", 1)[0]
    assert context.startswith("## vaultkit: memory of earlier sessions")
    assert "vaultkit search" in context
    assert len(context) <= 9_000
    [job] = queued(store)
    [chat] = (box.gemini_dir / "tmp").glob("*/chats/session-*.jsonl")
    assert (job.agent, job.reason, job.source) == ("gemini", "exit", "session-end")
    assert job.transcript_path == str(chat)
    header = json.loads(chat.read_text(encoding="utf-8").splitlines()[0])
    assert job.session_id == header["sessionId"]
    assert google.of_kind("outside") == []


def test_a_gemini_session_without_session_end_is_backfilled(
    tmp_path: Path, gemini_bin: Path, google: MockGemini, hold: list[int]
) -> None:
    """As for Codex: the chat file is found through the ``projects.json`` the CLI wrote."""
    box = gemini_box(tmp_path, gemini_bin, google.url, True)
    settings = json.loads((box.gemini_dir / "settings.json").read_text(encoding="utf-8"))
    del settings["hooks"]["SessionEnd"]
    box.write_settings({"hooks": settings["hooks"]})
    project = box.project()
    (project / "sessions").mkdir()
    store = lock_runner(project, hold)
    assert box.prompt("first", project).returncode == 0
    assert queued(store) == []
    registry = json.loads((box.gemini_dir / "projects.json").read_text(encoding="utf-8"))
    assert os.path.realpath(next(iter(registry["projects"]))) == os.path.realpath(project)
    [first] = (box.gemini_dir / "tmp").glob("*/chats/session-*.jsonl")
    stamp = time.time() - 3600
    os.utime(first, (stamp, stamp))
    assert box.prompt("second", project).returncode == 0
    [job] = queued(store)
    assert (job.agent, job.source, job.transcript_path) == ("gemini", "backfill", str(first))
    header = json.loads(first.read_text(encoding="utf-8").splitlines()[0])
    assert job.session_id == header["sessionId"]


# --- what the finished rule relies on ----------------------------------------------------------

PROBE = Path(__file__).with_name("writer_probe.py")


def _probe_rows(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_codex_holds_its_rollout_open_while_it_runs(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI
) -> None:
    """Every hook, from SessionStart to SessionEnd, sees Codex holding the rollout open for
    writing: a rollout nobody holds open belongs to a Codex that has exited."""
    require_program("git")
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("open files are listed through /proc (Linux)")
    box = CodexSandbox(tmp_path, codex_bin, openai.url)
    box.write_hooks(
        hook_groups(f"{sys.executable} {PROBE}", ("SessionStart", "Stop", "SessionEnd"), 10)
    )
    out = tmp_path / "probe.jsonl"
    run = box.exec("hi", box.project(), BYPASS, extra_env={"E2E_PROBE_OUT": str(out)})
    assert run.returncode == 0, run.stderr
    rows = _probe_rows(out)
    assert [r["event"] for r in rows] == ["SessionStart", "Stop", "SessionEnd"]
    [rollout] = (box.codex_home / "sessions").glob("*/*/*/rollout-*.jsonl")
    assert all(r["exists"] and r["writers"] == [os.path.realpath(rollout)] for r in rows), rows
    [facts] = finished.observe([str(rollout)], time.time() + 5, "codex")
    assert (facts.closed, facts.written, facts.finished) == (True, False, True)


def test_gemini_never_holds_its_chat_file_open(
    tmp_path: Path, gemini_bin: Path, google: MockGemini
) -> None:
    """So for Gemini only the last-resort silence proves a session over."""
    require_program("git")
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("open files are listed through /proc (Linux)")
    box = GeminiSandbox(tmp_path, gemini_bin, google.url)
    box.write_settings(
        hook_groups(f"{sys.executable} {PROBE}", ("SessionStart", "SessionEnd"), 10_000)
    )
    out = tmp_path / "probe.jsonl"
    run = box.prompt("hi", box.project(), extra_env={"E2E_PROBE_OUT": str(out)})
    assert run.returncode == 0, run.stderr
    rows = _probe_rows(out)
    assert [r["event"] for r in rows] == ["SessionStart", "SessionEnd"]
    assert all(r["exists"] and r["writers"] == [] for r in rows), rows


# --- one memory, several agents (the worker distils; offline backend) ---------------------------


def test_codex_then_gemini_then_codex_each_start_with_the_previous_handoff(
    tmp_path: Path,
    codex_bin: Path,
    gemini_bin: Path,
    openai: MockOpenAI,
    google: MockGemini,
) -> None:
    """In one project: a Codex session is archived and distilled (``agent: codex``); the next
    Gemini session's first request carries that handoff and is distilled in turn (``agent:
    gemini``); the next Codex session's first request carries Gemini's."""
    cbox = codex_box(tmp_path / "c", codex_bin, openai.url, True)
    gbox = gemini_box(tmp_path / "g", gemini_bin, google.url, True)
    project = cbox.project()
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    store = Store(project / "sessions")

    assert cbox.exec("Write the streaming parser", project, BYPASS).returncode == 0
    [codex_sid] = jobs_done_or_queued(store)
    first = wait_distilled(store, codex_sid)
    assert frontmatter(first.summary)["agent"] == "codex"
    assert oct(first.raw.stat().st_mode & 0o777) == "0o600"

    assert gbox.prompt("Test the streaming parser", project).returncode == 0
    texts = user_texts(google.of_kind("agent")[0].body)
    assert any(first.summary.name in t and "<hook_context>" in t for t in texts), texts
    gemini_sid = next(s for s in jobs_done_or_queued(store) if s != codex_sid)
    second = wait_distilled(store, gemini_sid)
    assert frontmatter(second.summary)["agent"] == "gemini"

    before = len(openai.of_kind("agent"))
    assert cbox.exec("Ship the streaming parser", project, BYPASS).returncode == 0
    injected = [t for t in developer_texts(openai, before) if t.startswith("## vaultkit")]
    assert len(injected) == 1 and second.summary.name in injected[0], injected


def jobs_done_or_queued(store: Store, timeout: float = 30) -> list[str]:
    """Session ids that ended in this store (queued, running or done), once there is one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        folders = (store.queue, store.state / "running", store.state / "done")
        found = sorted({p.stem for f in folders if f.is_dir() for p in f.glob("*.json")})
        if found:
            return found
        time.sleep(0.1)
    return []
