"""Verbatim transcript copies in ``raw/``: streamed, mode 0600, atomic, one file per session.

A copy is named ``<YYYY-MM-DD_HHMM>_<session-id>.jsonl`` (local time). When the same session ends
again with a longer transcript the copy is refreshed in place (same name); a shorter or equal
transcript leaves it alone. Temp files are ``.<session-id>.<random>.tmp`` in ``raw/`` and are
removed by the next worker that holds the session's lock.

With ``[privacy] redact_raw = true`` the copy is written line by line through the prompt's
redaction: every string of every JSON line is redacted and loses its ``<private>…</private>``
spans (the prompt text also travels in ``last-prompt``, ``queue-operation`` and
``api-request-blob`` lines, so every string, not only the user's messages); the copy stays valid
JSONL, and a refresh replaces it only when the new redacted copy is longer.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from vaultkit.base.fsio import atomic_file
from vaultkit.session.queue.jobs import safe_id
from vaultkit.session.transcripts.condense import iter_lines
from vaultkit.session.transcripts.redact import redact, strip_private

CHUNK = 1 << 20
RAW_MODE = 0o600
SUFFIX = ".jsonl"
DROPPED_LINE = b'{"type":"vaultkit-dropped","reason":"line too long to redact"}\n'


@dataclass(frozen=True, slots=True)
class RawCopy:
    """Where a session's raw copy is, its size, and whether this call (re)wrote it."""

    path: Path
    size: int
    written: bool


@dataclass(frozen=True, slots=True)
class Settle:
    """How long to wait for a transcript that is still being written (seconds)."""

    window: float = 1.0
    max_wait: float = 30.0

    @property
    def poll(self) -> float:
        return max(0.02, self.window / 5)


def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%d_%H%M")


def find_raw(raw_dir: Path, session_id: str) -> Path | None:
    """The existing copy of a session (the largest, should a hand-made duplicate exist)."""
    sid = safe_id(session_id)
    try:
        found = [
            p
            for p in raw_dir.iterdir()
            if p.is_file()
            and not p.name.startswith(".")
            and (p.name.endswith(f"_{sid}{SUFFIX}") or p.name == f"{sid}{SUFFIX}")
        ]
    except FileNotFoundError:
        return None
    return max(found, key=lambda p: (p.stat().st_size, p.name), default=None)


def clean_temps(raw_dir: Path, session_id: str) -> int:
    """Remove leftover temp files of this session (call only while holding its lock)."""
    removed = 0
    for leftover in raw_dir.glob(f".{safe_id(session_id)}.*.tmp"):
        with contextlib.suppress(OSError):
            leftover.unlink()
            removed += 1
    return removed


def wait_settled(path: Path, settle: Settle) -> int | None:
    """Poll ``path`` until its size has not changed for ``settle.window`` seconds (bounded by
    ``settle.max_wait``); return the size, or ``None`` when the file does not exist."""
    deadline = time.monotonic() + settle.max_wait
    last: int | None = None
    stable_since = time.monotonic()
    while True:
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            return None
        now = time.monotonic()
        if size != last:
            last, stable_since = size, now
        if now - stable_since >= settle.window or now >= deadline:
            return size
        time.sleep(settle.poll)


def _stream_copy(source: Path, target: Path, session_id: str) -> int:
    copied = 0
    prefix = f".{safe_id(session_id)}."  # what clean_temps looks for
    with (
        open(source, "rb", buffering=0) as src,
        atomic_file(target, mode=RAW_MODE, prefix=prefix) as dst,
    ):
        while chunk := src.read(CHUNK):
            dst.write(chunk)
            copied += len(chunk)
    return copied


def _clean(value: object) -> object:
    if isinstance(value, str):
        return redact(strip_private(value))
    if isinstance(value, list):
        return [_clean(item) for item in value]
    if isinstance(value, dict):
        return {key: _clean(item) for key, item in value.items()}
    return value


def redact_line(line: bytes) -> bytes:
    """One JSONL line with every string redacted and stripped of ``<private>`` spans; a line
    that needs no change is returned as it is (byte-for-byte)."""
    try:
        record = json.loads(line)
    except ValueError:  # not JSON: redact it as text
        text = line.decode("utf-8", errors="replace").rstrip("\n")
        plain = redact(strip_private(text))
        return line if plain == text else (plain + "\n").encode("utf-8")
    cleaned = _clean(record)
    if cleaned == record:
        return line
    return json.dumps(cleaned, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class _Shorter(Exception):
    """The new redacted copy is not longer than the kept one (the temp file is discarded)."""


def _redacted_copy(source: Path, target: Path, session_id: str, keep: int) -> int | None:
    """Write the redacted copy; None when it is not longer than ``keep`` bytes (kept as is)."""
    written = 0
    prefix = f".{safe_id(session_id)}."
    try:
        with atomic_file(target, mode=RAW_MODE, prefix=prefix) as dst:
            for line in iter_lines(source):
                out = DROPPED_LINE if line is None else redact_line(line)
                dst.write(out)
                written += len(out)
            if written <= keep:
                raise _Shorter
    except _Shorter:
        return None
    return written


def copy_transcript(
    source: Path, raw_dir: Path, session_id: str, when: datetime, *, redacted: bool = False
) -> RawCopy:
    """Copy ``source`` into ``raw_dir`` unless the session's existing copy is at least as long;
    ``redacted``: through :func:`redact_line` (``[privacy] redact_raw``)."""
    existing = find_raw(raw_dir, session_id)
    kept = existing.stat().st_size if existing is not None else -1
    target = existing or raw_dir / f"{stamp(when)}_{safe_id(session_id)}{SUFFIX}"
    if redacted:
        size = _redacted_copy(source, target, session_id, kept)
        if size is None:  # only when a copy exists: ``kept`` is then its size
            return RawCopy(target, kept, written=False)
        return RawCopy(target, size, written=True)
    if existing is not None and kept >= source.stat().st_size:
        return RawCopy(existing, kept, written=False)
    return RawCopy(target, _stream_copy(source, target, session_id), written=True)
