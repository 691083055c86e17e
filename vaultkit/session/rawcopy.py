"""Verbatim transcript copies in ``raw/``: streamed, mode 0600, atomic, one file per session.

A copy is named ``<YYYY-MM-DD_HHMM>_<session-id>.jsonl`` (local time). When the same session ends
again with a longer transcript the copy is refreshed in place (same name); a shorter or equal
transcript leaves it alone. Temp files are ``.<session-id>.<random>.tmp`` in ``raw/`` and are
removed by the next worker that holds the session's lock.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from vaultkit.base.fsio import atomic_file
from vaultkit.session.jobs import safe_id

CHUNK = 1 << 20
RAW_MODE = 0o600
SUFFIX = ".jsonl"


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


def copy_transcript(source: Path, raw_dir: Path, session_id: str, when: datetime) -> RawCopy:
    """Copy ``source`` into ``raw_dir`` unless the session's existing copy is at least as long."""
    existing = find_raw(raw_dir, session_id)
    if existing is not None:
        kept = existing.stat().st_size
        if kept >= source.stat().st_size:
            return RawCopy(existing, kept, written=False)
    target = existing or raw_dir / f"{stamp(when)}_{safe_id(session_id)}{SUFFIX}"
    return RawCopy(target, _stream_copy(source, target, session_id), written=True)
