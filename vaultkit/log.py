"""Append timestamped lines to a store's bounded ``vaultkit.log`` (rotated, never unbounded)."""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

MAX_LOG_BYTES = 1_000_000
KEEP_ROTATED = 3


def _rotate(path: Path) -> None:
    for index in range(KEEP_ROTATED - 1, 0, -1):
        older = path.with_name(f"{path.name}.{index}")
        if older.exists():
            os.replace(older, path.with_name(f"{path.name}.{index + 1}"))
    os.replace(path, path.with_name(f"{path.name}.1"))


def append_log(path: Path, message: str, *, now: datetime | None = None) -> None:
    """Append ``[ISO timestamp] message`` to ``path``; rotate past ``MAX_LOG_BYTES``.

    Never raises: logging must not break the caller (hooks log their own errors through this).
    """
    stamp = (now or datetime.now().astimezone()).isoformat(timespec="seconds")
    line = f"[{stamp}] {message.rstrip()}\n".encode()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if path.stat().st_size + len(line) > MAX_LOG_BYTES:
                _rotate(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
