"""Session id and end time read cheaply from a transcript's head and tail."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from vaultkit.session.transcripts import facts
from vaultkit.session.transcripts.facts import transcript_facts

SID = "9e3b7c55-2a6d-4c18-8f4e-7b1d0c9a2e66"


def _line(stamp: str, **extra: object) -> str:
    return json.dumps({"type": "user", "sessionId": SID, "timestamp": stamp, **extra}) + "\n"


def test_reads_session_id_and_last_timestamp(tmp_path: Path) -> None:
    path = tmp_path / "copy-with-another-name.jsonl"
    path.write_text(
        '{"type":"summary"}\nnot json\n'
        + _line("2026-11-12T10:20:00.000Z")
        + _line("2026-11-12T10:41:30.500Z"),
        encoding="utf-8",
    )
    got = transcript_facts(path)
    assert got.session_id == SID
    assert got.ended_at == datetime(2026, 11, 12, 10, 41, 30, 500000, tzinfo=UTC)
    assert got.ended_at is not None and got.ended_at.tzinfo is not None


def test_huge_transcript_reads_only_head_and_tail(tmp_path: Path, monkeypatch: object) -> None:
    path = tmp_path / "big.jsonl"
    filler = _line("2026-01-01T00:00:00Z", text="x" * 1000)
    with path.open("w", encoding="utf-8") as handle:
        handle.write(_line("2026-01-01T00:00:00Z"))
        for _ in range(2000):
            handle.write(filler)
        handle.write(_line("2026-03-04T05:06:07Z"))
    assert path.stat().st_size > 4 * facts.TAIL_BYTES
    got = transcript_facts(path)
    assert got.session_id == SID
    assert got.ended_at == datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)


def test_missing_fields_and_garbage_give_none(tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_bytes(b'\xff\xfe garbage\n[1, 2]\n{"timestamp": "yesterday"}\n')
    assert transcript_facts(path) == facts.TranscriptFacts(session_id=None, ended_at=None)


def test_ingest_names_the_session_by_its_own_id_and_end_time(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "sessions").mkdir(parents=True)
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    source = tmp_path / "renamed.jsonl"
    prompt = {"role": "user", "content": "Add a category column"}
    source.write_text(
        _line("2026-11-12T10:20:00Z", message=prompt) + _line("2026-11-12T10:41:00Z"),
        encoding="utf-8",
    )
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "vaultkit",
            "ingest",
            str(source),
            "--store",
            str(project),
            "--settle",
            "0",
            "--format",
            "json",
            "-q",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    local = datetime(2026, 11, 12, 10, 41, tzinfo=UTC).astimezone().strftime("%Y-%m-%d_%H%M")
    assert Path(result["raw_path"]).name == f"{local}_{SID}.jsonl"
    assert Path(result["wiki_path"]).name.startswith(f"{local}_9e3b7c55_")
