"""Append timestamped lines to a store's bounded ``vaultkit.log`` (rotated, never unbounded).

Lean (``os`` and ``time`` only): every hook logs through this.
"""

from __future__ import annotations

import os
import time

from vaultkit.base.statedir import ensure_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

MAX_LOG_BYTES = 1_000_000
KEEP_ROTATED = 3


def iso_now(seconds: float | None = None) -> str:
    """Local time with its UTC offset, to the second: ``2026-11-30T10:36:25+01:00``.

    The same text as ``datetime.now().astimezone().isoformat(timespec="seconds")``, without
    importing :mod:`datetime`.
    """
    local = time.localtime(seconds)
    offset = local.tm_gmtoff or 0
    sign = "-" if offset < 0 else "+"
    hours, rest = divmod(abs(offset), 3600)
    minutes, secs = divmod(rest, 60)
    zone = f"{sign}{hours:02d}:{minutes:02d}" + (f":{secs:02d}" if secs else "")
    return time.strftime("%Y-%m-%dT%H:%M:%S", local) + zone


def _rotate(path: str) -> None:
    for index in range(KEEP_ROTATED - 1, 0, -1):
        older = f"{path}.{index}"
        if os.path.exists(older):
            os.replace(older, f"{path}.{index + 1}")
    os.replace(path, f"{path}.1")


def append_log(path: str | os.PathLike[str], message: str, *, now: datetime | None = None) -> None:
    """Append ``[ISO timestamp] message`` to ``path``; rotate past ``MAX_LOG_BYTES``.

    Never raises: logging must not break the caller (hooks log their own errors through this).
    """
    stamp = now.isoformat(timespec="seconds") if now is not None else iso_now()
    line = f"[{stamp}] {message.rstrip()}\n".encode()
    where = os.fspath(path)
    try:
        ensure_folder(os.path.dirname(where))
        try:
            if os.stat(where).st_size + len(line) > MAX_LOG_BYTES:
                _rotate(where)
        except FileNotFoundError:
            pass
        fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        pass
