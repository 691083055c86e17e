"""Readable Markdown transcripts: user words verbatim, visible assistant text, no tool noise."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
from baton_support import (
    assistant,
    project,
    text,
    thinking,
    tool_result,
    tool_use,
    user,
    vk,
    write_jsonl,
)
from conftest import FIXTURES
from worker_support import claude_projects

from vaultkit.session.queue import jobs
from vaultkit.session.transcripts import render

TRANSCRIPTS = FIXTURES / "claude" / "transcripts"
CODE = "Use this:\n\n```python\ndef f(x):\n    return x * 2\n```\n\nDone."


def conversation(path: Path) -> Path:
    return write_jsonl(
        path,
        [
            {"type": "queue-operation", "timestamp": "2026-11-30T09:30:00Z", "content": "x"},
            user("  Why is   the test *flaky*?\n\nSee `a.py`.  ", timestamp="2026-11-30T09:30:01Z"),
            assistant("m1", thinking("SECRET THOUGHT"), text("Let me look.")),
            assistant("m1", tool_use("Read", file_path="/p/a.py")),
            tool_result("TOOL OUTPUT BODY"),
            assistant("m2", text(CODE)),
            {"type": "attachment", "attachment": {"type": "hook_additional_context"}},
            user("<system-reminder>HARNESS</system-reminder>", isMeta=True),
            user([{"type": "text", "text": "thanks <command-name>/x</command-name>"}]),
            {**assistant("side", text("SIDECHAIN TEXT")), "isSidechain": True},
            assistant("m3", text("You're welcome.")),
        ],
    )


def rendered(path: Path) -> str:
    out = io.StringIO()
    render.write_markdown(path, out, session_id="sid-1")
    return out.getvalue()


def test_user_words_verbatim_and_visible_assistant_text_only(tmp_path: Path) -> None:
    md = rendered(conversation(tmp_path / "c.jsonl"))
    assert md.startswith("# Conversation — 2026-11-30 ")
    assert "session: `sid-1`" in md
    assert "## User\n\nWhy is   the test *flaky*?\n\nSee `a.py`.\n" in md
    assert f"## Claude\n\nLet me look.\n\n{CODE}\n" in md
    assert "## User\n\nthanks\n" in md and "## Claude\n\nYou're welcome.\n" in md
    for noise in ("SECRET THOUGHT", "TOOL OUTPUT", "Read", "HARNESS", "SIDECHAIN", "/x"):
        assert noise not in md
    assert [line for line in md.splitlines() if line.startswith("## ")] == [
        "## User",
        "## Claude",
        "## User",
        "## Claude",
    ]


def test_korean_conversations_get_the_seeds_labels(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "k.jsonl", [user("이거 왜 안 돼?"), assistant("m", text("확인"))])
    md = rendered(path)
    assert md.startswith("# 대화 기록") and "## 나\n\n이거 왜 안 돼?\n" in md


def test_secrets_are_redacted(tmp_path: Path) -> None:
    key = "sk-ant-api03-" + "A" * 40
    path = write_jsonl(tmp_path / "s.jsonl", [user(f"my key is {key}"), assistant("m", text("ok"))])
    assert key not in rendered(path)


def test_real_claude_transcript_fixture_renders_without_tool_noise(tmp_path: Path) -> None:
    md = rendered(TRANSCRIPTS / "tool-use.jsonl")
    assert "## User\n\nWrite hi into out.txt\n" in md
    assert "system-reminder" not in md and "tool_use" not in md
    assert md.count("## Claude") >= 1


def test_cli_export_names_the_file_after_the_transcripts_own_session_id(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    done = vk("transcript", "export", str(TRANSCRIPTS / "tool-use.jsonl"), cwd=root)
    assert done.returncode == 0, done.stderr
    [out] = list(store.transcripts.glob("*_24fa4203.md"))
    assert "session: `24fa4203-1778-4884-b005-9a9da545628d`" in out.read_text(encoding="utf-8")


@pytest.mark.slow
def test_cli_export_writes_into_the_project_store_by_default(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    source = conversation(tmp_path / "0b1e2c3d-aaaa.jsonl")
    records = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    write_jsonl(source, [{**r, "sessionId": "0b1e2c3d-aaaa"} for r in records])  # as Claude does
    done = vk("transcript", "export", str(source), cwd=root)
    assert done.returncode == 0, done.stderr
    [out] = list(store.transcripts.glob("*_0b1e2c3d.md"))
    assert done.stdout.strip() == f"wrote {out} (4 turns)"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert out.read_text(encoding="utf-8") == rendered(source).replace("sid-1", "0b1e2c3d-aaaa")
    again = vk("transcript", "export", str(source), cwd=root)
    assert again.returncode == 0 and len(list(store.transcripts.glob("*.md"))) == 1
    stdout = vk("transcript", "export", str(source), "-o", "-", cwd=root)
    assert stdout.stdout.startswith("# Conversation") and "4 turn(s)" in stdout.stderr
    missing = vk("transcript", "export", str(tmp_path / "nope.jsonl"), cwd=root)
    assert missing.returncode == 2 and "nope.jsonl: no such transcript" in missing.stderr


def test_the_worker_step_rewrites_a_sessions_rendering_in_place(tmp_path: Path) -> None:
    folder = tmp_path / "transcripts"
    source = conversation(tmp_path / "raw.jsonl")
    first = render.for_worker(folder, source, "abcdef12-9999", datetime(2026, 11, 30, 9, 30))
    assert first.name == "2026-11-30_0930_abcdef12.md"
    later = render.for_worker(folder, source, "abcdef12-9999", datetime(2026, 11, 30, 11, 0))
    assert later == first and [p.name for p in folder.iterdir()] == [first.name]
    other = render.for_worker(folder, source, "99999999-0000", datetime(2026, 11, 30, 11, 0))
    assert other.name == "2026-11-30_1100_99999999.md"


def test_the_worker_writes_the_readable_transcript_and_the_hooks_log_activity(
    tmp_path: Path,
) -> None:
    root, store = project(tmp_path / "p")
    (store.root / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    sid = "0b1e2c3d-aaaa-bbbb-cccc-000000000000"
    source = conversation(claude_projects() / f"{sid}.jsonl")  # only there is it archived
    record = {"type": "summary", "summary": "s", "leafUuid": "u", "sessionId": sid}
    source.write_text(json.dumps(record) + "\n" + source.read_text("utf-8"), encoding="utf-8")
    payload = {
        "session_id": sid,
        "transcript_path": str(source),
        "cwd": str(root),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    env = {**os.environ, "VAULTKIT_SETTLE_SECONDS": "0.05", "VAULTKIT_SETTLE_MAX_SECONDS": "5"}
    hook = [sys.executable, "-m", "vaultkit.hookentry", "SessionEnd"]
    subprocess.run(hook, input=json.dumps(payload).encode(), env=env, check=True, timeout=60)
    out = wait_for_file(store.transcripts, "*_0b1e2c3d.md")
    assert out.read_text(encoding="utf-8") == rendered(source).replace("sid-1", sid)
    logs = "".join(p.read_text() for p in (store.root / "logs").glob("*.log"))
    assert "agent: session end (prompt_input_exit) 0b1e2c3d" in logs
    (store.root / "vaultkit.toml").write_text(
        '[distill]\nbackend = "offline"\n[transcripts]\nenabled = false\n'
    )
    out_time = (store.root / ".vaultkit" / "done" / f"{sid}.json").stat().st_mtime_ns
    out.unlink()
    subprocess.run(hook, input=json.dumps(payload).encode(), env=env, check=True, timeout=60)
    wait_for_file(store.root / ".vaultkit" / "done", "*.json", newer_than=out_time)
    end = time.monotonic() + 30
    while jobs.live_running(store) and time.monotonic() < end:  # the worker's last step is over
        time.sleep(0.05)
    assert not out.exists()


def wait_for_file(folder: Path, pattern: str, newer_than: int = 0) -> Path:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        for path in folder.glob(pattern):
            if path.stat().st_mtime_ns > newer_than:
                time.sleep(0.2)
                return path
        time.sleep(0.1)
    raise AssertionError(f"no {pattern} in {folder}")


@pytest.mark.parametrize(
    "body",
    [b'{"name": "my-app", "version": "1.0.0"}\n', b"\x00garbage\n", b"[]\n", b"plain notes\n"],
)
def test_cli_export_refuses_a_file_that_is_no_transcript_as_ingest_does(
    tmp_path: Path, body: bytes
) -> None:
    root, store = project(tmp_path / "p")
    source = tmp_path / "0b1e2c3d-bbbb.jsonl"
    source.write_bytes(body)
    for command in (("transcript", "export", str(source)), ("ingest", str(source))):
        done = vk(*command, cwd=root)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert "not an agent's transcript" in done.stderr and "Traceback" not in done.stderr
        assert "hint: pass a transcript an agent wrote" in done.stderr
    assert not list(store.root.rglob("*.md"))
