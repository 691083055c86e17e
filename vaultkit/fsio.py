"""Crash-safe file writes: temp file in the same folder, fsync, then atomic rename."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_file(
    path: Path, *, mode: int | None = None, prefix: str | None = None
) -> Iterator[BinaryIO]:
    """A binary handle on a temp file beside ``path`` that replaces ``path`` (fsync, then rename)
    when the block ends without an exception; on any exception the temp file is removed.

    The existing file's permission bits are kept unless ``mode`` is given; a new file gets
    ``mode`` or the process default (0666 minus umask). ``prefix`` names the temp file
    (default ``.<name>.``) so that callers can find leftovers of a killed process.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=prefix or f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a part.
    Permission bits as in :func:`atomic_file`."""
    with atomic_file(path, mode=mode) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """UTF-8, ``\\n`` line endings, atomic. See :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def write_if_changed(path: Path, text: str) -> bool:
    """Atomically write ``text`` unless the file already holds exactly these bytes.

    Returns True when the file was written.
    """
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except (FileNotFoundError, IsADirectoryError):
        pass
    atomic_write_bytes(path, data)
    return True
