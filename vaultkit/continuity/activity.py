"""The project's activity log: ``sessions/logs/YYYY-MM-DD.log``, one ``[HH:MM:SS] text`` per line.

Fed by the shell hook (``vaultkit shell-init``) and by the agent hooks. Lean (stdlib only): the
hooks append here. Entries are read back in order (file date, then line order) to count how much
happened since a handoff was written (README, "Continuity": staleness by activity).
"""

from __future__ import annotations

import os
import time

from vaultkit.base.config import store_config
from vaultkit.base.record import Record
from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from datetime import date, datetime
    from pathlib import Path

IGNORE_FILE = ".gitignore"
IGNORE_TEXT = "# written by vaultkit: the activity log stays out of git\n*\n"
MAX_ENTRY_CHARS = 500

# Compiled on first use (re caches it); ``re`` itself is imported only by the readers: the hooks
# only append, and importing ``re`` (with ``enum``) would cost each of them milliseconds.
_FILE = r"^(\d{4})-(\d{2})-(\d{2})\.log$"
_LINE = r"^\[(\d{2}):(\d{2}):(\d{2})\] ?(.*)$"


class Entry(Record):
    """One activity line: when (naive local time) and what."""

    when: datetime
    text: str

    def render(self) -> str:
        return f"[{self.when:%H:%M:%S}] {self.text}"


def one_line(text: str, limit: int = MAX_ENTRY_CHARS) -> str:
    """``text`` on one line (newlines become `` ⏎ ``), at most ``limit`` characters."""
    flat = " ⏎ ".join(part.strip() for part in text.strip().splitlines() if part.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _ensure(store: Store) -> str:
    folder = store.at("activity_logs")
    os.makedirs(folder, exist_ok=True)
    ignore = os.path.join(folder, IGNORE_FILE)
    if not os.path.exists(ignore):
        try:
            with open(ignore, "w", encoding="utf-8") as handle:
                handle.write(IGNORE_TEXT)
        except OSError:
            pass
    return folder


def ensure_folder(store: Store) -> Path:
    """Create ``sessions/logs/`` with its own ``.gitignore`` (``*``): the log never enters git,
    and no global git configuration is touched."""
    _ensure(store)
    return store.activity_logs


def log_path(store: Store, day: date) -> Path:
    return store.activity_logs / f"{day:%Y-%m-%d}.log"


def append(store: Store, text: str, *, now: datetime | None = None) -> bool:
    """Append one entry; never raises (a hook or a shell must not fail). True when written."""
    if now is None:  # the hooks: local time from ``time`` (no datetime import)
        local = time.localtime()
        day, clock = time.strftime("%Y-%m-%d", local), time.strftime("%H:%M:%S", local)
    else:
        when = now.astimezone().replace(tzinfo=None) if now.tzinfo is not None else now
        day, clock = f"{when:%Y-%m-%d}", f"{when:%H:%M:%S}"
    line = f"[{clock}] {one_line(text)}\n".encode()
    try:
        folder = _ensure(store)
        where = os.path.join(folder, f"{day}.log")
        fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        return False
    return True


def log_days(store: Store) -> list[tuple[date, Path]]:
    """The daily log files, oldest first."""
    import re
    from datetime import date

    try:
        names = os.listdir(store.activity_logs)
    except OSError:
        return []
    found = []
    for name in names:
        match = re.match(_FILE, name)
        if match is None:
            continue
        try:
            found.append((date(*(int(g) for g in match.groups())), store.activity_logs / name))
        except ValueError:
            continue
    return sorted(found)


def _parse(day: date, line: str) -> Entry | None:
    import datetime as dt
    import re

    match = re.match(_LINE, line.rstrip("\r\n"))
    if match is None:
        return None
    hour, minute, second = (int(g) for g in match.groups()[:3])
    try:
        return Entry(dt.datetime.combine(day, dt.time(hour, minute, second)), match.group(4))
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
    from collections import deque

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
    if not os.path.isdir(store.top):
        return False
    try:
        enabled = store_config(store).activity.enabled
    except VaultkitError:  # a broken vaultkit.toml must not stop the log (the hook reports it)
        enabled = True
    return append(store, text) if enabled else False
