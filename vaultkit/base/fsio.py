"""Crash-safe file writes: temp file in the same folder, fsync, then atomic rename.

Lean (``os`` only, no tempfile or contextlib): the hooks write their job files through this.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType
    from typing import BinaryIO

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _mode_for(path: str) -> int:
    """The existing file's permission bits, else the process default (0666 minus umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _open_temp(folder: str, prefix: str) -> tuple[int, str]:
    """A new, empty, private file in ``folder`` named ``<prefix><random>.tmp``."""
    while True:
        tmp = os.path.join(folder, f"{prefix}{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _FLAGS, 0o600), tmp
        except FileExistsError:
            continue


class atomic_file:  # used like a function: ``with atomic_file(path) as handle``
    """A binary handle on a temp file beside ``path`` that replaces ``path`` (fsync, then rename)
    when the block ends without an exception; on any exception the temp file is removed.

    The existing file's permission bits are kept unless ``mode`` is given; a new file gets
    ``mode`` or the process default (0666 minus umask). ``prefix`` names the temp file
    (default ``.<name>.``) so that callers can find leftovers of a killed process.
    ``durable=False`` skips the fsync: the replacement is still atomic for every reader and
    survives the writer being killed, but not a power cut (for small disposable state such as a
    queued job, where a burst of hooks would otherwise wait on the disk).
    """

    __slots__ = ("_durable", "_handle", "_mode", "_path", "_prefix", "_tmp")

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        mode: int | None = None,
        prefix: str | None = None,
        durable: bool = True,
    ) -> None:
        self._path = os.fspath(path)
        self._mode = mode
        self._prefix = prefix
        self._durable = durable
        self._tmp = ""

    def __enter__(self) -> BinaryIO:
        folder = os.path.dirname(self._path) or "."
        os.makedirs(folder, exist_ok=True)
        if self._mode is None:
            self._mode = _mode_for(self._path)
        prefix = self._prefix or f".{os.path.basename(self._path)}."
        fd, self._tmp = _open_temp(folder, prefix)
        try:
            self._handle: BinaryIO = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            self._discard()
            raise
        return self._handle

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            with self._handle:
                if kind is None:
                    self._handle.flush()
                    if self._durable:
                        os.fsync(self._handle.fileno())
            if kind is None:
                assert self._mode is not None
                os.chmod(self._tmp, self._mode)
                os.replace(self._tmp, self._path)
                return
        except BaseException:
            self._discard()
            raise
        self._discard()

    def _discard(self) -> None:
        try:  # noqa: SIM105  (contextlib costs a hook more than this line)
            os.unlink(self._tmp)
        except OSError:
            pass


def atomic_write_bytes(
    path: str | os.PathLike[str], data: bytes, *, mode: int | None = None, durable: bool = True
) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a part.
    Permission bits and ``durable`` as in :class:`atomic_file`."""
    with atomic_file(path, mode=mode, durable=durable) as handle:
        handle.write(data)


def publish_bytes(path: str, data: bytes, *, mode: int = 0o600) -> None:
    """Create ``path`` holding ``data``, visible only once whole: never a part, never a leftover
    of a writer killed mid-way. On Linux an unnamed file (``O_TMPFILE``) is written, then linked
    in; elsewhere a temp file beside it is renamed. Not fsynced (for a hook's small spool entry:
    it must survive its writer being killed, not a power cut). ``FileExistsError`` when
    ``path`` exists (on Linux)."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    unnamed = getattr(os, "O_TMPFILE", 0)
    if unnamed and os.path.isdir("/proc/self/fd"):
        try:
            fd = os.open(folder, unnamed | os.O_WRONLY, mode)
        except OSError:  # a filesystem without unnamed files: the temp file below
            fd = -1
        if fd >= 0:
            try:
                _write_all(fd, data)
                _link_in(fd, folder, os.path.basename(path))
            finally:
                os.close(fd)
            return
    atomic_write_bytes(path, data, mode=mode, durable=False)


def _link_in(fd: int, folder: str, name: str) -> None:
    """Give the unnamed file ``fd`` the name ``folder/name`` (``linkat`` following the
    ``/proc/self/fd`` link: a plain ``link`` would try to link that symlink itself)."""
    at = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=at, follow_symlinks=True)
    finally:
        os.close(at)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def atomic_write_text(
    path: str | os.PathLike[str], text: str, *, mode: int | None = None, durable: bool = True
) -> None:
    """UTF-8, ``\\n`` line endings, atomic. See :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode, durable=durable)


def write_if_changed(path: str | os.PathLike[str], text: str) -> bool:
    """Atomically write ``text`` unless the file already holds exactly these bytes.

    Returns True when the file was written.
    """
    data = text.encode("utf-8")
    try:
        with open(path, "rb") as handle:
            if handle.read() == data:
                return False
    except (FileNotFoundError, IsADirectoryError):
        pass
    atomic_write_bytes(path, data)
    return True
