"""Two sessions of the same agent ending in the same minute with the same title keep their own
notes, whatever the id scheme: Codex's UUIDv7 ids share their first 8 characters (a timestamp)
for about a minute, so the short id alone cannot tell them apart."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from agent_fixtures import CHAT, FIXTURES, GEMINI_SID, codex_rollout, fill
from worker_support import FAST_SETTLE, claude_projects, make_project, write_transcript

from vaultkit.agents import known
from vaultkit.base.store import Store
from vaultkit.session.notes.naming import parse_name
from vaultkit.session.notes.write import NoteMeta, read_frontmatter, write_session_notes
from vaultkit.session.queue import jobs


def uuid7_pair() -> tuple[str, str]:
    """Two UUIDv7 ids minted in the same millisecond, as two sessions started together get."""
    ms = int(time.time() * 1000)

    def one() -> str:
        value = (ms << 80) | (0x7 << 76) | (secrets.randbits(12) << 64)
        value |= (0b10 << 62) | secrets.randbits(62)
        text = f"{value:032x}"
        return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"

    first, second = one(), one()
    assert first[:8] == second[:8] and first != second
    return first, second


def _claude(project: Path, sid: str, n: int) -> Path:
    return write_transcript(claude_projects() / f"{sid}.jsonl", sid)


def _codex(project: Path, sid: str, n: int) -> Path:
    return codex_rollout(project, session_id=sid, age=None)


def _gemini(project: Path, sid: str, n: int) -> Path:
    """Gemini names a chat with 8 characters of its id: two such chats live in two folders."""
    folder = Path(os.environ["HOME"]) / ".gemini" / "tmp" / f"proj{n}" / "chats"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CHAT.replace(GEMINI_SID[:8], sid[:8])
    text = fill((FIXTURES / "gemini" / "chat.jsonl").read_text(encoding="utf-8"), project)
    path.write_text(text.replace(GEMINI_SID, sid), encoding="utf-8")
    return path


TRANSCRIPTS: dict[str, Callable[[Path, str, int], Path]] = {
    "claude": _claude,
    "codex": _codex,
    "gemini": _gemini,
}


def test_every_registered_agent_has_a_transcript_here() -> None:
    assert set(known.names()) <= set(TRANSCRIPTS)


@pytest.mark.slow
@pytest.mark.parametrize("agent", known.names())
def test_two_sessions_started_in_the_same_second_keep_their_own_notes(
    tmp_path: Path, agent: str
) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    store.root.mkdir(parents=True)
    store.config_file.write_text('[distill]\nbackend = "offline"\n', encoding="utf-8")
    ids = uuid7_pair()
    for n, sid in enumerate(ids):
        transcript = TRANSCRIPTS[agent](project, sid, n)
        job = jobs.Job(
            session_id=sid,
            transcript_path=str(transcript),
            cwd=str(project),
            ended_at="2026-12-01T16:31:00+09:00",
            agent=agent,
        )
        jobs.write_job(store, job)
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.session.worker", "--store", str(store.root), "--once"],
        env={**os.environ, **FAST_SETTLE}, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, (done.stderr, store.log.read_text(encoding="utf-8"))
    for folder in (store.summary, store.wiki):
        notes = sorted(p for p in folder.glob("*.md") if p.name != "INDEX.md")
        owners = sorted(str(read_frontmatter(p)["session_id"]) for p in notes)
        assert owners == sorted(ids), (folder.name, [p.name for p in notes])
        titles = {read_frontmatter(p)["title"] for p in notes}
        assert len(titles) == 1  # the same title: only the id part tells the names apart


def test_a_rewrite_keeps_each_session_on_its_own_file(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    store.summary.mkdir(parents=True)
    store.wiki.mkdir(parents=True)
    first, second = uuid7_pair()
    when = datetime(2026, 12, 1, 16, 31)

    def write(sid: str, handoff: str) -> tuple[Path, Path]:
        meta = NoteMeta(sid, "proj", when, "raw/x.jsonl", "main")
        return write_session_notes(store, meta, "Same title", handoff, "wiki")

    one = write(first, "first")
    two = write(second, "second")
    assert one[0] != two[0] and one[0].name.startswith("2026-12-01_1631_" + first[:8] + "_")
    parsed = parse_name(two[0].name)
    assert parsed is not None and parsed.session == second
    assert write(second, "second again") == two  # a retry lands on the same long name
    assert write(first, "first again") == one
    texts = sorted(p.read_text(encoding="utf-8") for p in store.summary.glob("*.md"))
    assert ["first again" in t for t in texts].count(True) == 1
    assert ["second again" in t for t in texts].count(True) == 1
    assert len(list(store.summary.glob("*.md"))) == 2
