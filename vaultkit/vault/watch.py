"""Keep a vault's INDEX.md (and its cache) current while it is edited: file events, debounced.

File events come from watchdog (inotify, FSEvents, ReadDirectoryChangesW). Events inside
dot-folders (``.obsidian/``, ``.vaultkit/``, where the cache and log live) and on dot-files
(editors' and our own temporary files) are ignored. After the last event of a burst has been
quiet for ``debounce`` seconds the vault is loaded again (through the cache, so only changed
files are read) and INDEX.md regenerated. Files renamed, deleted or half-written while this
happens are simply seen as they are; the next event brings the next update.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import (
    EVENT_TYPE_CLOSED_NO_WRITE,
    EVENT_TYPE_OPENED,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer

from vaultkit.errors import VaultkitError
from vaultkit.vault.index import INDEX_NAME
from vaultkit.vault.indexer import IndexOutcome, regenerate_index

DEBOUNCE_S = 0.5
_QUIET_TYPES = frozenset({EVENT_TYPE_OPENED, EVENT_TYPE_CLOSED_NO_WRITE})


@dataclass(frozen=True, slots=True)
class Update:
    """One regeneration: what it did, or the error that stopped it (the watch goes on)."""

    outcome: IndexOutcome | None
    error: str | None
    seconds: float


Report = Callable[[Update], None]


def vault_relative(root: Path, path: str | bytes) -> str | None:
    """``path`` as a vault-relative POSIX path, or None when it is outside ``root``."""
    text = path.decode(errors="replace") if isinstance(path, bytes) else path
    try:
        return Path(text).relative_to(root).as_posix()
    except ValueError:
        return None


def vault_paths(root: Path, paths: Iterable[str | bytes]) -> set[str]:
    """The vault-relative forms of ``paths`` that are part of the vault: inside ``root``, not
    dot-files, not in dot-folders."""
    found: set[str] = set()
    for path in paths:
        rel = vault_relative(root, path)
        if rel is None or rel == ".":
            continue
        if not any(part.startswith(".") for part in rel.split("/")):
            found.add(rel)
    return found


class _Collector(FileSystemEventHandler):
    """Remembers which vault paths changed since the last update and when the last one came."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = threading.Lock()
        self.changed: set[str] = set()
        self.last = 0.0
        self.wake = threading.Event()

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in _QUIET_TYPES:
            return
        paths = [event.src_path, *([event.dest_path] if event.dest_path else [])]
        found = vault_paths(self.root, paths)
        if not found:
            return
        with self.lock:
            self.changed.update(found)
            self.last = time.monotonic()
        self.wake.set()

    def take(self) -> set[str]:
        with self.lock:
            changed, self.changed = self.changed, set()
            self.wake.clear()
            return changed

    def quiet_for(self) -> float:
        with self.lock:
            return time.monotonic() - self.last


def update(root: Path) -> Update:
    """Regenerate INDEX.md once; a problem the user can fix is reported, not raised."""
    started = time.perf_counter()
    try:
        outcome = regenerate_index(root)
    except (VaultkitError, OSError) as exc:
        return Update(None, str(exc), time.perf_counter() - started)
    return Update(outcome, None, time.perf_counter() - started)


def _own_write_only(root: Path, changed: set[str], written: bytes | None) -> bool:
    """True when the only change is INDEX.md holding exactly what the last update wrote."""
    if written is None or changed != {INDEX_NAME}:
        return False
    try:
        return (root / INDEX_NAME).read_bytes() == written
    except OSError:
        return False


def _wait_for_quiet(collector: _Collector, debounce: float, stop: threading.Event) -> None:
    while not stop.is_set():
        remaining = debounce - collector.quiet_for()
        if remaining <= 0:
            return
        stop.wait(remaining)


def watch(
    root: Path,
    report: Report,
    *,
    debounce: float = DEBOUNCE_S,
    stop: threading.Event | None = None,
    ready: Callable[[], None] | None = None,
) -> None:
    """Update once, then after every quiet burst of changes until ``stop`` is set.

    ``ready`` is called once the watcher is running (events from then on are seen).
    """
    halt = stop or threading.Event()
    collector = _Collector(root)
    observer = Observer()
    observer.schedule(collector, str(root), recursive=True)
    observer.start()
    try:
        written = _run_update(root, report)
        if ready is not None:
            ready()
        while not halt.is_set():
            collector.wake.wait(0.5)
            if not collector.wake.is_set():
                continue
            _wait_for_quiet(collector, debounce, halt)
            changed = collector.take()
            if halt.is_set() or _own_write_only(root, changed, written):
                continue
            written = _run_update(root, report)
    finally:
        observer.stop()
        observer.join(timeout=5)


def _run_update(root: Path, report: Report) -> bytes | None:
    result = update(root)
    report(result)
    try:
        return (root / INDEX_NAME).read_bytes()
    except OSError:
        return None
