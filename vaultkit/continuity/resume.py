"""Handoff-first resume with staleness by activity (README, "Continuity"): paths A, B and C.

A handoff is stale once the activity log has gained ``stale_after`` entries since it was written,
however little time passed. Path A: fresh handoff plus the entries after it. Path B: stale
handoff as reference only, restore led by the latest entries. Path C: no handoff, the latest
entries. Handoffs the agent wrote on request (``auto_saved: false``) beat automatic ones of similar
age. Lean (stdlib only): SessionStart may inject this text, and it takes the baton here too.
"""

from __future__ import annotations

import os
import re
import time

from vaultkit.base.config import Config, store_config
from vaultkit.base.leanmeta import meta_str, read_meta
from vaultkit.base.log import append_log
from vaultkit.base.record import Record
from vaultkit.base.store import Store, find_store, read_problem
from vaultkit.continuity import activity, baton, pinning
from vaultkit.errors import VaultkitError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime, timedelta
    from pathlib import Path

HEAD_BYTES = 4096
BODY_MAX_BYTES = 256 * 1024
SCAN_LIMIT = 40
REFERENCE_CHARS = 2_500

_STAMP = r"^(\d{4})[-_](\d{2})[-_](\d{2})__?(\d{2})\.?(\d{2})_"  # compiled on first use


class Handoff(Record):
    """A handoff note: where, when (naive local time), and who wrote it."""

    path: Path
    when: datetime
    auto_saved: bool
    session_id: str


class Resume(Record):
    """The chosen path and everything its text shows."""

    path: str  # "A" | "B" | "C"
    reason: str
    handoff: Handoff | None
    body: str
    since_count: int
    entries: tuple[activity.Entry, ...]


def _local(value: datetime) -> datetime:
    return value.astimezone().replace(tzinfo=None) if value.tzinfo is not None else value


def _when(meta_date: str, name: str, path: Path) -> datetime:
    from datetime import datetime

    try:
        return _local(datetime.fromisoformat(meta_date.strip()))
    except ValueError:
        pass
    match = re.match(_STAMP, name)
    if match is not None:
        try:
            year, month, day, hour, minute = (int(g) for g in match.groups())
            return datetime(year, month, day, hour, minute)
        except ValueError:
            pass
    return datetime.fromtimestamp(path.stat().st_mtime)


def _auto_saved(value: object) -> bool:
    """``auto_saved`` from frontmatter; missing means automatic (only explicit false is manual)."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() not in ("false", "no", "off")


def _head(path: Path, limit: int) -> str:
    with path.open("rb") as handle:
        return handle.read(limit).decode("utf-8", errors="replace")


def _name_key(name: str) -> str:
    match = re.match(_STAMP, name)
    return "".join(match.groups()) if match is not None else ""


def handoffs(store: Store) -> list[Handoff]:
    """Handoff notes in ``summary/`` (newest names first, at most ``SCAN_LIMIT`` read), newest
    first by date. Links the store may not follow are left out (``read_problem``)."""
    if read_problem(store, store.summary):
        return []
    try:
        names = sorted(
            (
                e.name
                for e in os.scandir(store.summary)
                if e.name.endswith(".md")
                and e.is_file()
                and not (e.is_symlink() and read_problem(store, e.path))
            ),
            reverse=True,
        )
    except OSError:
        return []
    found = []
    now = time.time()
    for name in names[:SCAN_LIMIT]:
        path = store.summary / name
        try:
            meta, _ = read_meta(_head(path, HEAD_BYTES))
            when = _when(meta_str(meta, "date"), name, path)
        except OSError:
            continue
        if pinning.pinned_reason(meta_str(meta, "date"), _name_key(name), now):
            continue  # a future or self-contradicting date may not pin a note as the newest
        auto = _auto_saved(meta.get("auto_saved", True))
        found.append(Handoff(path, when, auto, meta_str(meta, "session_id")))
    return sorted(found, key=lambda h: (h.when, h.path.name), reverse=True)


def choose(found: list[Handoff], window: timedelta) -> Handoff | None:
    """The newest handoff, except that a manual one wins over a newer automatic one when both
    describe the same session or were written within ``window`` of each other."""
    if not found:
        return None
    newest = found[0]
    manual = next((h for h in found if not h.auto_saved), None)
    if manual is None or not newest.auto_saved:
        return newest
    same_session = bool(manual.session_id) and manual.session_id == newest.session_id
    return manual if same_session or newest.when - manual.when <= window else newest


def _rel(store: Store, path: Path) -> str:
    try:
        return path.relative_to(store.project).as_posix()
    except ValueError:
        return path.as_posix()


def _body(path: Path) -> str:
    try:
        return read_meta(_head(path, BODY_MAX_BYTES))[1].strip()
    except OSError:
        return ""


def _entries(count: int) -> str:
    return f"{count} activity {'entry' if count == 1 else 'entries'}"


def _kind(handoff: Handoff) -> str:
    return "automatic, auto_saved: true" if handoff.auto_saved else "manual, auto_saved: false"


def build(store: Store, config: Config) -> Resume:
    """Decide the resume path for this store now."""
    from datetime import timedelta

    settings = config.resume
    window = timedelta(minutes=settings.manual_window_minutes)
    chosen = choose(handoffs(store), window)
    recent = max(1, settings.recent_entries)
    if chosen is None:
        entries = activity.latest(store, recent)
        reason = f"no handoff in {_rel(store, store.summary)}/; restoring from the latest "
        reason += _entries(len(entries))
        return Resume("C", reason, None, "", 0, tuple(entries))
    since = activity.count_since(store, chosen.when)
    where = f"{_rel(store, chosen.path)} ({_kind(chosen)}, written {chosen.when:%Y-%m-%d %H:%M})"
    if since < settings.stale_after:
        entries = activity.latest(store, max(1, settings.since_entries), since=chosen.when)
        reason = f"handoff {where} is fresh: {_entries(since)} since it "
        reason += f"(stale at {settings.stale_after})"
        return Resume("A", reason, chosen, _body(chosen.path), since, tuple(entries))
    entries = activity.latest(store, recent)
    reason = f"handoff {where} is stale: {_entries(since)} since it "
    reason += f"(stale at {settings.stale_after}); it is kept as reference only"
    return Resume("B", reason, chosen, _body(chosen.path), since, tuple(entries))


TITLES = {
    "A": "## vaultkit resume: path A (fresh handoff + activity since it)",
    "B": "## vaultkit resume: path B (stale handoff as reference + restore from the activity log)",
    "C": "## vaultkit resume: path C (no handoff; restore from the latest activity)",
}


def _entry_lines(entries: tuple[activity.Entry, ...]) -> list[str]:
    lines: list[str] = []
    day = None
    for entry in entries:
        if entry.when.date() != day:
            day = entry.when.date()
            lines.append(f"{day:%Y-%m-%d}:")
        lines.append(entry.render())
    return lines or ["(no activity recorded)"]


def _cut(text: str, room: int) -> str:
    if len(text) <= room:
        return text
    marker = "… (trimmed)"
    cut = text[: max(0, room - len(marker) - 1)]
    newline = cut.rfind("\n")
    return f"{cut[:newline] if newline > len(cut) // 2 else cut}\n{marker}"


def render(resume: Resume, store: Store, budget: int = 9_000) -> str:
    """The resume text: which path and why, then the handoff and the activity, in ``budget``."""
    head = f"{TITLES[resume.path]}\nWhy: {resume.reason}."
    log = "\n".join(_entry_lines(resume.entries))
    if resume.path == "A":
        assert resume.handoff is not None
        label = f"### Activity since the handoff ({_entries(resume.since_count)})"
        if resume.since_count > len(resume.entries):
            label += f", newest {len(resume.entries)} shown"
        tail = f"{label}\n{log}"
        room = budget - len(head) - len(tail) - 80
        handoff = f"### Handoff ({_rel(store, resume.handoff.path)})\n{_cut(resume.body, room)}"
        return f"{head}\n\n{handoff}\n\n{tail}"[:budget]
    label = f"### Latest activity ({_entries(len(resume.entries))})"
    text = f"{head}\n\n{label}\n{log}"
    if resume.path == "B":
        assert resume.handoff is not None
        room = min(REFERENCE_CHARS, budget - len(text) - 120)
        ref = f"### Handoff, for reference only ({_rel(store, resume.handoff.path)})"
        if room > 200:
            text += f"\n\n{ref}\n{_cut(resume.body, room)}"
    return text[:budget]


# --- SessionStart -----------------------------------------------------------------------------


def _text(payload: Mapping[str, object], key: str) -> str:
    value = payload.get(key)
    return value.strip() if isinstance(value, str) else ""


def _config(store: Store) -> Config:
    try:
        return store_config(store)
    except VaultkitError:
        return Config()


def continuity_start(payload: Mapping[str, object], env: Mapping[str, str], usual: str) -> str:
    """SessionStart additions: an activity line, the resume text when configured, and the baton
    (memo first) when one is waiting for this session. ``usual`` is the regular injection."""
    cwd = _text(payload, "cwd")
    store = find_store(cwd if cwd and os.path.isdir(cwd) else os.getcwd(), env=env)
    if not os.path.isdir(store.top):
        return usual
    config = _config(store)
    source = _text(payload, "source") or "startup"
    session_id = _text(payload, "session_id")
    if config.activity.enabled:
        activity.append(store, f"agent: session start ({source}) {session_id[:8]}")
    budget = min(config.inject.budget, 9_000)
    text = usual
    if config.resume.on_session_start and source == "startup":
        text = render(build(store, config), store, budget)
    if not baton.has_pending(store):  # the usual case: nothing more to read or to import
        return text
    from datetime import timedelta

    lifetime = timedelta(minutes=config.baton.lifetime_minutes)
    taken = baton.take(store, session_id, lifetime=lifetime, starter_pid=baton.agent_pid())
    if taken is None:
        return text
    message = f"session-start: {session_id} inherited the baton of {taken.session_id}"
    append_log(store.at("log"), message)
    return baton.render(taken, text, budget)
