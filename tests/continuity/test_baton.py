"""The explicit baton: dropped with a memo, inherited once within its lifetime, never stolen."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta
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

from vaultkit.agents.claude.window import encode_cwd
from vaultkit.base.store import Store
from vaultkit.continuity import baton, resume

HOUR = timedelta(hours=1)
NOW = datetime(2026, 11, 30, 10, 0, 0).astimezone()


def drop(
    store: Store,
    memo: str = "## Next move\nrun it",
    *,
    sid: str = "old-session",
    pid: int = 0,
    now: datetime | None = None,
) -> Path:
    path, _ = baton.drop(store, memo, session_id=sid, pid=pid, now=now)
    return path


def test_the_next_session_takes_the_baton_exactly_once(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    path = drop(store, now=NOW)
    taken = baton.take(store, "new-session", lifetime=HOUR, now=NOW + timedelta(minutes=59))
    assert taken is not None and taken.memo == "## Next move\nrun it"
    assert taken.taken_by == "new-session" and taken.session_id == "old-session"
    assert not path.exists()
    record = json.loads((path.parent / "taken" / path.name).read_text())
    assert record["taken_by"] == "new-session"
    assert baton.take(store, "third", lifetime=HOUR, now=NOW + timedelta(minutes=59)) is None


def test_no_baton_or_an_expired_one_gives_nothing(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    assert baton.take(store, "s", lifetime=HOUR, now=NOW) is None
    path = drop(store, now=NOW)
    late = NOW + HOUR + timedelta(seconds=1)
    assert baton.take(store, "s", lifetime=HOUR, now=late) is None
    assert (path.parent / "expired" / path.name).exists()


def test_a_session_never_inherits_its_own_baton(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    drop(store, sid="same", now=NOW)
    assert baton.take(store, "same", lifetime=HOUR, now=NOW) is None
    assert baton.take(store, "other", lifetime=HOUR, now=NOW) is not None


def test_the_newest_live_baton_wins(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    drop(store, "older memo", sid="a", now=NOW - timedelta(minutes=10))
    drop(store, "newer memo", sid="b", now=NOW)
    first = baton.take(store, "x", lifetime=HOUR, now=NOW)
    second = baton.take(store, "y", lifetime=HOUR, now=NOW)
    assert first is not None and first.memo == "newer memo"
    assert second is not None and second.memo == "older memo"


TAKER = textwrap.dedent(
    """
    import sys, time
    from datetime import timedelta
    from pathlib import Path
    from vaultkit.continuity import baton
    from vaultkit.base.store import Store
    go = float(sys.argv[3])
    while time.time() < go:
        time.sleep(0.001)
    got = baton.take(Store(Path(sys.argv[1])), sys.argv[2], lifetime=timedelta(hours=1))
    print("TOOK" if got is not None else "none")
    """
)


def test_sessions_starting_at_once_inherit_the_baton_exactly_once(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    baton.drop(store, "only one may have this", session_id="dropper")
    go = str(time.time() + 1.5)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", TAKER, str(store.root), f"s{n}", go],
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(6)
    ]
    outputs = [p.communicate(timeout=60)[0].strip() for p in procs]
    assert sorted(outputs) == ["TOOK"] + ["none"] * 5
    assert len(list((store.root / ".vaultkit" / "batons" / "taken").iterdir())) == 1


def test_a_parallel_window_never_steals_a_live_windows_baton(tmp_path: Path) -> None:
    _, store = project(tmp_path / "p")
    window_a = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    window_b = os.getpid()
    try:
        drop(store, pid=window_a.pid, now=NOW)
        # Window B starts a session while window A (which dropped the baton) still runs.
        assert baton.take(store, "b-session", lifetime=HOUR, starter_pid=window_b, now=NOW) is None
        # Window A's next session (after /clear: same agent process) inherits it.
        got = baton.take(store, "a-next", lifetime=HOUR, starter_pid=window_a.pid, now=NOW)
        assert got is not None and got.taken_by == "a-next"
        # A baton whose window has exited goes to whichever session starts next.
        drop(store, "after exit", pid=window_a.pid, now=NOW)
    finally:
        window_a.kill()
        window_a.wait()
    got = baton.take(store, "restarted", lifetime=HOUR, starter_pid=window_b, now=NOW)
    assert got is not None and got.memo == "after exit"


def test_agent_pid_finds_the_claude_process_above_a_shell(tmp_path: Path) -> None:
    """A stand-in ``claude`` runs a shell that runs Python, as the agent's Bash tool does."""
    agent = tmp_path / "bin" / "claude"
    agent.parent.mkdir()
    probe = "from vaultkit.continuity.baton import agent_pid; print(agent_pid())"
    agent.write_text(
        f"#!{sys.executable}\nimport os, subprocess, sys\nprint(os.getpid())\nsys.stdout.flush()\n"
        f"subprocess.run(['sh', '-c', {json.dumps(sys.executable)} + ' -c \"{probe}\"'])\n"
    )
    agent.chmod(agent.stat().st_mode | stat.S_IXUSR)
    out = subprocess.run([str(agent)], capture_output=True, text=True, timeout=60, check=True)
    own, found = out.stdout.split()
    assert found == own and int(found) > 1
    plain = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert plain.stdout.strip() == "0"


def test_the_last_turn_with_thinking_is_captured(tmp_path: Path) -> None:
    transcript = write_jsonl(
        tmp_path / "t.jsonl",
        [
            user("first task"),
            assistant("m1", thinking("early idea"), text("ok")),
            user("fix the parser"),
            assistant("m2", thinking("the bug is in the tokenizer"), tool_use("Read", path="a")),
            tool_result("file body"),
            assistant("m3", thinking("confirmed: off by one"), text("found it")),
            user("/handoff"),
            assistant("m4", tool_use("Bash", command="vaultkit baton")),
        ],
    )
    got = baton.last_thinking(transcript, 3_000)
    assert got == "the bug is in the tokenizer\n\nconfirmed: off by one"
    command = "<command-message>handoff</command-message>\n<command-name>/handoff</command-name>"
    with_command = write_jsonl(
        tmp_path / "c.jsonl",
        [
            user("fix the parser"),
            assistant("m1", thinking("suspect the lexer"), text("looking")),
            user([{"type": "text", "text": command}]),
            assistant("m2", thinking("I should write the memo now"), tool_use("Bash")),
        ],
    )
    assert baton.last_thinking(with_command, 3_000) == "suspect the lexer"
    only_command = write_jsonl(
        tmp_path / "o.jsonl",
        [user([{"type": "text", "text": command}]), assistant("m", thinking("memo plan"))],
    )
    assert baton.last_thinking(only_command, 3_000) == "memo plan"
    assert baton.last_thinking(transcript, 12) == "… off by one"
    assert baton.last_thinking(tmp_path / "missing.jsonl", 100) == ""


def test_render_puts_memo_then_thinking_then_the_usual_text_within_budget() -> None:
    item = baton.Baton(
        session_id="abcdef12-3456",
        created_at=NOW.isoformat(),
        memo="MEMO: next run pytest",
        thinking="THINK: tokenizer",
    )
    text_ = baton.render(item, "USUAL SUMMARY", 9_000)
    assert text_.startswith("## vaultkit: baton from the previous session")
    assert "Session abcdef12 left this baton" in text_
    assert text_.index("MEMO") < text_.index("THINK") < text_.index("USUAL SUMMARY")
    long_rest = "summary line\n" * 2_000
    fitted = baton.render(item, long_rest, 3_000)
    assert len(fitted) <= 3_000 and "MEMO" in fitted and "THINK" in fitted
    assert "summary line" in fitted and "… (trimmed)" in fitted
    huge = baton.render(baton.Baton("s", NOW.isoformat(), "m" * 20_000), long_rest, 2_000)
    assert len(huge) <= 2_000 and huge.count("m") > 1_000


@pytest.mark.parametrize("source", ["startup", "clear", "compact", "resume"])
def test_session_start_inherits_whatever_the_source(tmp_path: Path, source: str) -> None:
    root, store = project(tmp_path / "p")
    baton.drop(store, "## Next move\nwrite the test for X", session_id="old")
    payload = {"session_id": "new", "cwd": str(root), "source": source}
    got = resume.continuity_start(payload, {}, "USUAL")
    assert got.index("write the test for X") < got.index("USUAL")
    assert resume.continuity_start({**payload, "session_id": "newer"}, {}, "USUAL") == "USUAL"
    lines = (store.root / "logs").glob("*.log")
    assert any(f"session start ({source}) new" in p.read_text() for p in lines)


@pytest.mark.slow
def test_cli_drops_a_baton_with_the_transcripts_thinking(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    transcript = write_jsonl(
        tmp_path / "sess.jsonl", [user("go"), assistant("m", thinking("hypothesis H"), text("x"))]
    )
    memo = "## Next move\n- check H\n"
    done = vk("baton", "--session", "sess-1", "--transcript", str(transcript), cwd=root, stdin=memo)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("baton left: sessions/.vaultkit/batons/")
    assert "thinking 12 chars" in done.stdout and "within 60 minutes" in done.stdout
    [(_, item)] = baton.pending(store)
    assert item.memo == memo.strip() and item.thinking == "hypothesis H"
    assert item.session_id == "sess-1"
    listed = vk("baton", "--list", cwd=root)
    assert "sess-1" in listed.stdout and "waiting" in listed.stdout
    empty = vk("baton", cwd=root, stdin="")
    assert empty.returncode == 2 and "memo" in empty.stderr


def test_cli_finds_the_transcript_from_the_session_id(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    config_dir = tmp_path / "claude-config"
    folder = config_dir / "projects" / encode_cwd(root)
    write_jsonl(folder / "abc-123.jsonl", [user("q"), assistant("m", thinking("deep thought"))])
    env = {"CLAUDE_CONFIG_DIR": str(config_dir), "CLAUDE_CODE_SESSION_ID": "abc-123"}
    done = vk("baton", cwd=root, stdin="memo", env=env)
    assert done.returncode == 0, done.stderr
    [(_, item)] = baton.pending(store)
    assert item.session_id == "abc-123" and item.thinking == "deep thought"
