"""The project's activity log: ``sessions/logs/YYYY-MM-DD.log``, one ``[HH:MM:SS] text`` per line.

Fed by the shell hook (``vaultkit shell-init``) and by the agent hooks. Lean (stdlib only): the
hooks append here. Entries are read back in order (file date, then line order) to count how much
happened since a handoff was written (SPEC §6, staleness by activity).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path

from vaultkit.config import load_config
from vaultkit.errors import VaultkitError
from vaultkit.store import Store

IGNORE_FILE = ".gitignore"
IGNORE_TEXT = "# written by vaultkit: the activity log stays out of git\n*\n"
MAX_ENTRY_CHARS = 500

_FILE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.log$")
_LINE = re.compile(r"^\[(\d{2}):(\d{2}):(\d{2})\] ?(.*)$")


@dataclass(frozen=True, slots=True)
class Entry:
    """One activity line: when (naive local time) and what."""

    when: datetime
    text: str

    def render(self) -> str:
        return f"[{self.when:%H:%M:%S}] {self.text}"


def one_line(text: str, limit: int = MAX_ENTRY_CHARS) -> str:
    """``text`` on one line (newlines become `` ⏎ ``), at most ``limit`` characters."""
    flat = " ⏎ ".join(part.strip() for part in text.strip().splitlines() if part.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def ensure_folder(store: Store) -> Path:
    """Create ``sessions/logs/`` with its own ``.gitignore`` (``*``): the log never enters git,
    and no global git configuration is touched."""
    folder = store.activity_logs
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / IGNORE_FILE
    if not ignore.exists():
        with contextlib.suppress(OSError):
            ignore.write_text(IGNORE_TEXT, encoding="utf-8")
    return folder


def log_path(store: Store, day: date) -> Path:
    return store.activity_logs / f"{day:%Y-%m-%d}.log"


def append(store: Store, text: str, *, now: datetime | None = None) -> bool:
    """Append one entry; never raises (a hook or a shell must not fail). True when written."""
    when = now or datetime.now()
    when = when.astimezone().replace(tzinfo=None) if when.tzinfo is not None else when
    line = f"{Entry(when, one_line(text)).render()}\n".encode()
    try:
        ensure_folder(store)
        fd = os.open(log_path(store, when.date()), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        return False
    return True


def log_days(store: Store) -> list[tuple[date, Path]]:
    """The daily log files, oldest first."""
    try:
        names = os.listdir(store.activity_logs)
    except OSError:
        return []
    found = []
    for name in names:
        match = _FILE.match(name)
        if match is None:
            continue
        with contextlib.suppress(ValueError):
            found.append((date(*(int(g) for g in match.groups())), store.activity_logs / name))
    return sorted(found)


def _parse(day: date, line: str) -> Entry | None:
    match = _LINE.match(line.rstrip("\r\n"))
    if match is None:
        return None
    hour, minute, second = (int(g) for g in match.groups()[:3])
    try:
        return Entry(datetime.combine(day, time(hour, minute, second)), match.group(4))
    except ValueError:
        return None


def _read(day: date, path: Path) -> Iterator[Entry]:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                entry = _parse(day, line)
                if entry is not None:
                    yield entry
    except OSError:
        return


def entries(store: Store, *, since: datetime | None = None) -> Iterator[Entry]:
    """Every entry in order; with ``since``, only those strictly after it (naive local time)."""
    cutoff = since.replace(tzinfo=None) if since is not None else None
    for day, path in log_days(store):
        if cutoff is not None and day < cutoff.date():
            continue
        for entry in _read(day, path):
            if cutoff is None or entry.when > cutoff:
                yield entry


def count_since(store: Store, since: datetime) -> int:
    """How many entries were recorded after ``since``."""
    return sum(1 for _ in entries(store, since=since))


def latest(store: Store, count: int, *, since: datetime | None = None) -> list[Entry]:
    """The newest ``count`` entries (after ``since`` when given), oldest first."""
    if count <= 0:
        return []
    tail: deque[Entry] = deque(maxlen=count)
    days = log_days(store)
    # Read only as many days back as needed: newest files first, stop once the tail is full.
    chunks: list[list[Entry]] = []
    have = 0
    cutoff = since.replace(tzinfo=None) if since is not None else None
    for day, path in reversed(days):
        if cutoff is not None and day < cutoff.date():
            break
        chunk = [e for e in _read(day, path) if cutoff is None or e.when > cutoff]
        chunks.append(chunk)
        have += len(chunk)
        if have >= count:
            break
    for chunk in reversed(chunks):
        tail.extend(chunk)
    return list(tail)


def record(store: Store, text: str) -> bool:
    """Append ``text`` when the project's ``[activity] enabled`` allows it (hooks call this)."""
    if not store.root.is_dir():
        return False
    try:
        enabled = load_config(store.config_file).activity.enabled
    except VaultkitError:  # a broken vaultkit.toml must not stop the log (the hook reports it)
        enabled = True
    return append(store, text) if enabled else False
