"""``<private>…</private>`` reaches neither the LLM nor the readable transcript; ``redact_raw``."""

from __future__ import annotations

import difflib
import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from worker_support import hook_env, make_project

from vaultkit.session.transcripts.condense import condense
from vaultkit.session.transcripts.rawcopy import copy_transcript, redact_line
from vaultkit.session.transcripts.redact import strip_private
from vaultkit.session.transcripts.render import export

pytestmark = pytest.mark.timeout(60)

SID = "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
SECRET_WORDS = "my landlord is Kim Minsoo at 010-5555-1234"
KEY = "sk-ant-api03-" + "Q" * 40
# Echoes the whole prompt into the wiki part: whatever reaches the LLM lands in the note.
ECHO_LLM = """\
import sys
prompt = sys.stdin.read()
open(sys.argv[1], "w", encoding="utf-8").write(prompt)
print("@@@TITLE@@@\\nLease notes\\n@@@HANDOFF@@@\\nDone.\\n@@@WIKI@@@")
print(prompt)
"""


def test_spans_are_dropped_in_any_case_over_lines_and_to_the_end_when_unclosed() -> None:
    assert strip_private("a <private>x</private> b") == "a  b"
    assert strip_private("a <PRIVATE>x\ny\n</Private>b <private>z</private>c") == "a b c"
    assert strip_private("keep <private>the rest\nof it") == "keep "
    # A close without an opening ends a span that began in an earlier message or JSON string.
    assert strip_private("the rest of a span</private> visible") == " visible"
    assert strip_private("") == ""


@pytest.mark.timeout(60)  # a hang guard: a quadratic scan would not finish; speed is benchmarked
def test_stripping_is_linear() -> None:
    text = "<private>x" * 200_000 + "</private>" * 200_000
    assert strip_private(text + "end") == "end"


def _user(content: Any) -> dict[str, Any]:
    return {"type": "user", "sessionId": SID, "cwd": "/p", "message": {"content": content}}


def _assistant(text: str, n: int) -> dict[str, Any]:
    return {
        "type": "assistant",
        "sessionId": SID,
        "message": {"id": f"m{n}", "content": [{"type": "text", "text": text}]},
    }


def write_session(path: Path, *, extra: int = 0) -> Path:
    lines = [
        _user(f"Fix the lease parser. <private>{SECRET_WORDS}</private> Use {KEY} for the API."),
        _assistant("Parser fixed.", 1),
        _user([{"type": "text", "text": "Now the report."}, {"type": "text", "text": "<Private>"}]),
        _user(
            [{"type": "text", "text": f"<private>{SECRET_WORDS}"}, {"type": "text", "text": "x"}]
        ),
        {
            "type": "last-prompt",
            "lastPrompt": f"<private>{SECRET_WORDS}</private>",
            "sessionId": SID,
        },
        _assistant("Report done.", 2),
        *[_assistant(f"more {n}", 10 + n) for n in range(extra)],
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_the_condensed_prompt_and_the_readable_transcript_drop_private_spans(
    tmp_path: Path,
) -> None:
    transcript = write_session(tmp_path / f"{SID}.jsonl")
    digest = condense(transcript, 60_000)
    assert "Fix the lease parser." in digest.text and "Use [REDACTED:anthropic]" in digest.text
    assert "Now the report." in digest.text
    assert "Kim Minsoo" not in digest.text + digest.first_prompt + "".join(digest.recent_prompts)
    target = tmp_path / "out.md"
    export(transcript, target, session_id=SID)
    text = target.read_text(encoding="utf-8")
    assert "Fix the lease parser." in text and "Now the report." in text
    assert "Kim Minsoo" not in text and "<private>" not in text.lower()


def test_redact_line_keeps_clean_lines_byte_for_byte() -> None:
    clean = b'{"type":"user","message":{"content":"hello"}}\n'
    assert redact_line(clean) is clean
    dirty = json.dumps(_user(f"a <private>b</private> {KEY}")).encode() + b"\n"
    out = redact_line(dirty)
    assert json.loads(out)["message"]["content"] == "a  [REDACTED:anthropic]"
    assert redact_line(b"not json " + KEY.encode() + b"\n") == b"not json [REDACTED:anthropic]\n"


def test_a_redacted_raw_copy_is_valid_jsonl_and_refreshed_only_when_longer(
    tmp_path: Path,
) -> None:
    source = write_session(tmp_path / "t.jsonl")
    raw = tmp_path / "raw"
    first = copy_transcript(source, raw, SID, datetime(2026, 12, 1), redacted=True)
    text = first.path.read_text(encoding="utf-8")
    assert first.written and oct(first.path.stat().st_mode & 0o777) == "0o600"
    assert "Kim Minsoo" not in text and KEY not in text
    assert len([json.loads(line) for line in text.splitlines()]) == 6
    again = copy_transcript(source, raw, SID, datetime(2026, 12, 1), redacted=True)
    assert not again.written and again.path == first.path
    write_session(source, extra=2)
    longer = copy_transcript(source, raw, SID, datetime(2026, 12, 1), redacted=True)
    assert longer.written and longer.size > first.size
    assert [p.name for p in raw.iterdir()] == [first.path.name]


def ingest(project: Path, transcript: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "ingest", str(transcript), "--settle", "0.05", "-q"],
        cwd=project,
        env=hook_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("redact_raw", [False, True])
def test_a_session_with_private_spans_through_the_real_pipeline(
    tmp_path: Path, redact_raw: bool
) -> None:
    project = make_project(tmp_path / "proj")
    (project / "sessions").mkdir()
    script, seen = tmp_path / "echo_llm.py", tmp_path / "prompt.txt"
    script.write_text(ECHO_LLM, encoding="utf-8")
    command = json.dumps([sys.executable, str(script), str(seen)])
    (project / "sessions" / "vaultkit.toml").write_text(
        f'[distill]\nbackend = "command"\ncommand = {command}\n'
        f"[privacy]\nredact_raw = {str(redact_raw).lower()}\n",
        encoding="utf-8",
    )
    transcript = write_session(tmp_path / "claude" / f"{SID}.jsonl")
    done = ingest(project, transcript)
    assert done.returncode == 0, done.stderr
    assert "Fix the lease parser." in seen.read_text(encoding="utf-8")
    assert "Kim Minsoo" not in seen.read_text(encoding="utf-8")
    store = project / "sessions"
    for part in ("summary", "wiki", "transcripts"):
        for note in (store / part).glob("*.md"):
            assert "Kim Minsoo" not in note.read_text(encoding="utf-8"), note
    (raw,) = (store / "raw").glob("*.jsonl")
    raw_text = raw.read_text(encoding="utf-8")
    assert ("Kim Minsoo" in raw_text) is not redact_raw
    assert (raw.read_bytes() == transcript.read_bytes()) is not redact_raw
    assert all(json.loads(line) for line in raw_text.splitlines())


def write_everywhere(path: Path) -> Path:
    """Private spans in the user's prompt, the assistant's text (one split over two content
    blocks), a command and a tool's output."""
    secret = f"<private>{SECRET_WORDS}</private>"
    tool = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": f"echo {secret}"}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": f"printed {secret} ok"}
    split = [
        {"type": "text", "text": f"Noted. <private>{SECRET_WORDS}"},
        {"type": "text", "text": f"{SECRET_WORDS}</private> Moving on."},
    ]
    lines = [
        _user(f"Fix the lease parser. {secret}"),
        _assistant(f"I will keep {secret} out of it. Parser fixed.", 1),
        {"type": "assistant", "sessionId": SID, "message": {"id": "m2", "content": [tool]}},
        {"type": "user", "sessionId": SID, "message": {"content": [result]}},
        {"type": "assistant", "sessionId": SID, "message": {"id": "m3", "content": split}},
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def _timeless(text: str) -> str:
    """``text`` without its clock times (the two runs end a few seconds apart)."""
    text = re.sub(r"\d{4}-\d{2}-\d{2}[T _]\d{2}:?\d{2}(?::\d{2})?(?:[+-]\d{2}:\d{2})?", "<t>", text)
    return re.sub(r"\b\d{1,2}:\d{2}(?::\d{2})?\b", "<t>", text)


def _session_start(project: Path) -> str:
    payload = {"session_id": "next-session", "cwd": str(project), "source": "startup",
               "hook_event_name": "SessionStart", "transcript_path": ""}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.hookentry", "SessionStart"],
        input=json.dumps(payload), cwd=project, env=hook_env(), capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def _search(project: Path, word: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "search", word, "--json"],
        cwd=project, env=hook_env(), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


@pytest.mark.slow
def test_private_anywhere_is_private_everywhere_in_both_raw_modes(tmp_path: Path) -> None:
    seen_by_mode: dict[bool, dict[str, str]] = {}
    for redact_raw in (False, True):
        project = make_project(tmp_path / f"mode-{redact_raw}" / "proj")
        store = project / "sessions"
        store.mkdir()
        script, seen = tmp_path / "echo_llm.py", tmp_path / f"prompt-{redact_raw}.txt"
        script.write_text(ECHO_LLM, encoding="utf-8")
        command = json.dumps([sys.executable, str(script), str(seen)])
        (store / "vaultkit.toml").write_text(
            f'[distill]\nbackend = "command"\ncommand = {command}\n'
            f"[privacy]\nredact_raw = {str(redact_raw).lower()}\n",
            encoding="utf-8",
        )
        transcript = write_everywhere(tmp_path / f"claude-{redact_raw}" / f"{SID}.jsonl")
        done = ingest(project, transcript)
        assert done.returncode == 0, done.stderr
        outputs = {"LLM input": seen.read_text(encoding="utf-8")}
        for part in ("summary", "wiki", "transcripts"):
            for note in sorted((store / part).glob("*.md")):
                outputs[f"{part}/{note.name}"] = note.read_text(encoding="utf-8")
        outputs["search"] = _search(project, "Minsoo")
        outputs["next SessionStart"] = _session_start(project)
        for where, text in outputs.items():
            assert "Minsoo" not in text and "010-5555" not in text, (redact_raw, where)
        assert "Fix the lease parser." in outputs["LLM input"]
        assert "Moving on." in outputs["LLM input"]
        assert "Parser fixed." in outputs["LLM input"]
        mode_dir = str(tmp_path / f"mode-{redact_raw}")
        seen_by_mode[redact_raw] = {
            _timeless(k): _timeless(v.replace(mode_dir, "M")) for k, v in outputs.items()
        }
    assert seen_by_mode[False].keys() == seen_by_mode[True].keys()
    for where, text in seen_by_mode[False].items():
        other = seen_by_mode[True][where]
        diff = difflib.unified_diff(text.splitlines(), other.splitlines(), lineterm="")
        assert text == other, (where, "\n".join(diff))
