"""UserPromptSubmit: an activity line per prompt, and the context-pressure warning once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from baton_support import assistant, project, text, user, write_jsonl

from vaultkit.agents.claude import context
from vaultkit.base.store import Store


def usage(total_input: int, output: int = 0) -> dict[str, int]:
    third = total_input // 3
    return {
        "input_tokens": total_input - 2 * third,
        "cache_creation_input_tokens": third,
        "cache_read_input_tokens": third,
        "output_tokens": output,
    }


def transcript_at(path: Path, tokens: int, *, padding: int = 0) -> Path:
    records = [user("start")]
    records += [assistant(f"pad{n}", text("x" * 1_000), usage=usage(10)) for n in range(padding)]
    records += [assistant("last", text("ok"), usage=usage(tokens))]
    records += [user("next prompt")]
    return write_jsonl(path, records)


def fire(root: Path, transcript: Path, sid: str = "sess-1", prompt: str = "hello") -> str:
    payload = {
        "session_id": sid,
        "transcript_path": str(transcript),
        "cwd": str(root),
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.hookentry", "UserPromptSubmit"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    return done.stdout.decode()


def activity_lines(store: Store) -> list[str]:
    return [
        line for p in (store.root / "logs").glob("*.log") for line in p.read_text().splitlines()
    ]


def test_context_tokens_reads_the_newest_reply_from_the_tail(tmp_path: Path) -> None:
    path = transcript_at(tmp_path / "t.jsonl", 150_000, padding=200)
    assert context.tokens(path) == 150_000
    assert context.tokens(write_jsonl(tmp_path / "none.jsonl", [user("hi")])) is None
    assert context.tokens(tmp_path / "missing.jsonl") is None


def _bytes_read() -> int:
    """Bytes this process has read through read(2) so far (Linux ``/proc/self/io``)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar line in /proc/self/io")


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs Linux /proc/self/io")
def test_the_tail_read_is_cheap_on_a_large_transcript(tmp_path: Path) -> None:
    path = transcript_at(tmp_path / "big.jsonl", 99_000, padding=12_000)  # ~13 MB
    assert path.stat().st_size > 10_000_000
    before = _bytes_read()
    assert context.tokens(path) == 99_000
    assert _bytes_read() - before < 2 * 1024 * 1024  # the tail, never the whole file


def test_warning_once_per_threshold_per_session(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    below = transcript_at(tmp_path / "below.jsonl", 139_000)
    assert fire(root, below) == ""
    above = transcript_at(tmp_path / "above.jsonl", 150_000)
    out = json.loads(fire(root, above))
    line = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert out["systemMessage"] == line
    assert "150,000 tokens, 75% of the 200,000-token window" in line
    assert "/handoff" in line and "/save-handoff" in line
    assert fire(root, above) == ""  # never twice for the same threshold and session
    assert fire(root, above, sid="other-session") != ""
    (store.root / "vaultkit.toml").write_text("[pressure]\nthreshold = 74\n")
    assert "threshold 74%" in fire(root, above)  # a new threshold warns once more
    assert len([ln for ln in activity_lines(store) if "agent: prompt sess-1" in ln]) == 4


def test_settings_turn_the_warning_and_prompt_text_on_or_off(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    above = transcript_at(tmp_path / "above.jsonl", 190_000)
    (store.root / "vaultkit.toml").write_text(
        "[pressure]\nenabled = false\n[activity]\nprompt_text = true\n"
    )
    assert fire(root, above, prompt="fix the\nparser") == ""
    assert activity_lines(store)[-1].endswith("] agent: prompt sess-1: fix the ⏎ parser")
    (store.root / "vaultkit.toml").write_text("[pressure]\nwindow = 1000000\n")
    assert fire(root, above) == ""  # 19% of a 1M window
    (store.root / "vaultkit.toml").write_text("[activity]\nenabled = false\n")
    before = len(activity_lines(store))
    fire(root, above)
    assert len(activity_lines(store)) == before


def test_recorded_prompt_text_is_redacted_and_loses_private_spans(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    (store.root / "vaultkit.toml").write_text("[activity]\nprompt_text = true\n")
    prompt = "deploy <private>to Kim's box</private> with PGPASSWORD=" + "Zq8" * 5 + " now"
    fire(root, tmp_path / "missing.jsonl", prompt=prompt)
    line = activity_lines(store)[-1]
    assert line.endswith(": deploy  with PGPASSWORD=[REDACTED:password] now"), line
    assert "Kim" not in line and "Zq8" not in line


def test_prompt_text_is_not_recorded_by_default(tmp_path: Path) -> None:
    root, store = project(tmp_path / "p")
    fire(root, tmp_path / "missing.jsonl", prompt="my secret plan")
    [line] = activity_lines(store)
    assert line.endswith("] agent: prompt sess-1") and "secret" not in line


def test_no_store_means_no_log_and_no_output(tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    (bare / ".git").mkdir(parents=True)
    assert fire(bare, transcript_at(tmp_path / "t.jsonl", 190_000)) == ""
    assert not (bare / "sessions").exists()
