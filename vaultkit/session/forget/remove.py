"""Forget sessions: every file the store holds for them, their INDEX.md lines, and derived state.

:func:`plan_forget` only looks and returns a :class:`Plan` (a value naming every path, INDEX line
and log line that goes); :func:`apply_forget` deletes it, regenerates INDEX.md under the store
lock the worker uses, and leaves a tombstone in ``.vaultkit/forgotten/`` so that a forgotten session
is never distilled again: not by backfill, nor when it is resumed and ends again (SessionEnd and
the worker check :func:`vaultkit.session.forget.tombstones.is_forgotten`).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from vaultkit.base import pulled
from vaultkit.base.fsio import atomic_write_text
from vaultkit.base.store import Store, read_problem
from vaultkit.errors import VaultkitError
from vaultkit.session.distill import costs
from vaultkit.session.forget.tombstones import tombstone_file
from vaultkit.session.notes.naming import parse_name
from vaultkit.session.notes.write import find_session_notes, read_frontmatter
from vaultkit.session.queue import jobs
from vaultkit.session.transcripts.renderings import renderings_of
from vaultkit.vault.indexer import regenerate_index

if TYPE_CHECKING:
    from filelock import BaseFileLock

MIN_PREFIX = 8
LOCK_WAIT = 30.0  # seconds forget waits for the store lock before it gives up
# The top-level .vaultkit/ files that are not derived: the log and the cost log (its sums are
# the daily budget's; a forgotten session's lines lose their id instead, see costs.forget), and
# the folder's own .gitignore (base.statedir) and the shared stamp (base.pulled: how a pull is
# told from vaultkit's own writes), which mention no session.
KEPT_STATE = frozenset({"vaultkit.log", costs.COST_LOG, ".gitignore", pulled.STAMP_NAME})
_RAW_NAME = re.compile(r"^(?:(\d{4})-(\d{2})-(\d{2})_(\d{2})(\d{2})_)?(.+)\.jsonl$")


@dataclass(frozen=True, slots=True)
class Known:
    """One session the store knows of, and when it ended (naive local time) when known."""

    session_id: str
    ended: datetime | None


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything :func:`apply_forget` deletes; paths are absolute and sorted."""

    store: Store
    sessions: tuple[Known, ...]
    files: tuple[Path, ...]  # the sessions' own files
    derived: tuple[Path, ...]  # caches and search indexes under .vaultkit/ (rebuilt on use)
    index_lines: tuple[str, ...]  # INDEX.md lines that link to the wiki notes that go
    log_lines: int  # lines of .vaultkit/vaultkit.log that name the sessions or their notes
    note_stems: tuple[str, ...]
    activity_lines: int = 0  # lines of logs/*.log (the activity log) that name the sessions


def _local(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value.astimezone().replace(tzinfo=None) if value.tzinfo else value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return _local(datetime.fromisoformat(value))
    return None


def _files(folder: Path, suffix: str) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.name.endswith(suffix) and p.is_file())
    except OSError:
        return []


def _shared_files(store: Store, folder: Path, suffix: str) -> list[Path]:
    """:func:`_files` of a shared folder without the links the store may not follow."""
    if read_problem(store, folder):
        return []
    files = _files(folder, suffix)
    return [p for p in files if not (p.is_symlink() and read_problem(store, p))]


def _raw_sessions(store: Store) -> dict[str, datetime | None]:
    found: dict[str, datetime | None] = {}
    for path in _files(store.raw, ".jsonl"):
        match = _RAW_NAME.match(path.name)
        if match is None or path.name.startswith("."):
            continue
        year, month, day, hour, minute = (int(g) if g else 0 for g in match.groups()[:5])
        found[match.group(6)] = datetime(year, month, day, hour, minute) if year else None
    return found


def _note_sessions(store: Store) -> dict[str, datetime | None]:
    found: dict[str, datetime | None] = {}
    for folder in (store.summary, store.summary_archive, store.wiki):
        for path in _shared_files(store, folder, ".md"):
            name = parse_name(path.name)
            if name is None:
                continue
            meta = read_frontmatter(path)
            sid = str(meta.get("session_id") or (name.session if name.seed else ""))
            if sid:
                found[sid] = _local(meta.get("date")) or found.get(sid) or name.when
    return found


def _json(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _job_sessions(store: Store) -> dict[str, datetime | None]:
    """Sessions with a queued, failed or done record; ``ended_at`` of a queued job."""
    folders = (jobs.queue_dir(store), jobs.queue_dir(store) / "failed", jobs.done_dir(store))
    found: dict[str, datetime | None] = {}
    for folder in folders:
        for path in _files(folder, ".json"):
            data = _json(path)
            sid = data.get("session_id")
            key = sid if isinstance(sid, str) and sid else path.stem
            found[key] = found.get(key) or _local(data.get("ended_at"))
    return found


def known_sessions(store: Store) -> tuple[Known, ...]:
    """Every session with a raw copy, a note or a queue record, by id, with its end time:
    the notes' ``date``, else the raw copy's stamp, else the queued job's ``ended_at``."""
    notes, raw, queued = _note_sessions(store), _raw_sessions(store), _job_sessions(store)
    ids = sorted(set(notes) | set(raw) | set(queued))
    return tuple(Known(sid, notes.get(sid) or raw.get(sid) or queued.get(sid)) for sid in ids)


def select(
    sessions: tuple[Known, ...], session_id: str | None, before: date | None
) -> tuple[Known, ...]:
    """The sessions to forget: one id (or an unambiguous prefix of at least 8 characters), or
    every session that ended before ``before`` (midnight, local time)."""
    if before is not None:
        limit = datetime(before.year, before.month, before.day)
        return tuple(k for k in sessions if k.ended is not None and k.ended < limit)
    wanted = (session_id or "").strip()
    exact = [k for k in sessions if k.session_id == wanted]
    if exact:
        return tuple(exact)
    if len(wanted) < MIN_PREFIX:
        raise VaultkitError(
            f"no session {wanted!r} in this store",
            hint=f"pass a full session id or its first {MIN_PREFIX} characters",
        )
    matches = tuple(k for k in sessions if k.session_id.startswith(wanted))
    if len(matches) > 1:
        raise VaultkitError(
            f"{wanted!r} matches {len(matches)} sessions: "
            + ", ".join(k.session_id for k in matches),
            hint="pass more characters of the session id",
        )
    if not matches:
        raise VaultkitError(f"no session {wanted!r} in this store", hint="vaultkit forget --help")
    return matches


def _raw_files(store: Store, session_id: str) -> list[Path]:
    safe = jobs.safe_id(session_id)
    named = [p for p in _files(store.raw, ".jsonl") if _raw_id(p.name) == safe]
    return named + sorted(store.raw.glob(f".{safe}.*.tmp"))


def _raw_id(name: str) -> str:
    match = _RAW_NAME.match(name)
    return "" if match is None or name.startswith(".") else match.group(6)


def _transcript_files(store: Store, session_id: str) -> list[Path]:
    return renderings_of(store.transcripts, session_id)


def _baton_files(store: Store, session_id: str) -> list[Path]:
    found = []
    for path in sorted((store.state / "batons").rglob("*.json")):
        if _json(path).get("session_id") == session_id:
            found.append(path)
    return found


def _state_files(store: Store, session_id: str) -> list[Path]:
    safe = jobs.safe_id(session_id)
    queue = jobs.queue_dir(store)
    records = [
        queue / f"{safe}.json",
        queue / "failed" / f"{safe}.json",
        jobs.running_dir(store) / f"{safe}.json",
        jobs.done_dir(store) / f"{safe}.json",
        store.locks / f"{safe}.lock",
    ]
    return [p for p in records if p.is_file()] + sorted(queue.glob(f".{safe}.json.*.claimed"))


def session_files(store: Store, session_id: str) -> list[Path]:
    """Every file of one session: raw copy, notes (archive too), readable transcript, queue,
    done and running records, its lock and its batons."""
    notes = [
        path
        for folder in (store.summary, store.summary_archive, store.wiki)
        for path in find_session_notes(folder, session_id, store)
    ]
    return [
        *_raw_files(store, session_id),
        *notes,
        *_transcript_files(store, session_id),
        *_state_files(store, session_id),
        *_baton_files(store, session_id),
    ]


def derived_files(store: Store) -> list[Path]:
    """Caches and search indexes: every top-level file of ``.vaultkit/`` but the log."""
    return [p for p in _files(store.state, "") if p.name not in KEPT_STATE]


def _index_lines(store: Store, stems: tuple[str, ...]) -> tuple[str, ...]:
    if read_problem(store, store.index):
        return ()
    try:
        lines = store.index.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        return ()
    links = tuple(f"[[{stem}{end}" for stem in stems for end in ("]]", "|", "#"))
    return tuple(line for line in lines if any(link in line for link in links))


def _log_lines(store: Store, needles: tuple[str, ...]) -> list[str]:
    """Lines of the store's log that name one of ``needles``."""
    try:
        text = store.log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if any(n in line for n in needles)]


def _names_session(line: str, session_id: str) -> bool:
    """An activity line of the session: its whole id anywhere, or the 8 characters the hooks
    write (``agent: prompt 4f6a2c1e: …``) as a word of an ``agent:`` line."""
    if session_id in line:
        return True
    short = session_id[:8]
    if "agent:" not in line or short not in line:
        return False
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(short)}(?![A-Za-z0-9-])", line) is not None


def _activity_lines(store: Store, ids: tuple[str, ...]) -> dict[Path, list[str]]:
    """The activity log's lines (``logs/*.log``) that name one of the sessions, by file."""
    found: dict[Path, list[str]] = {}
    for path in _files(store.activity_logs, ".log"):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        lines = [ln for ln in text.splitlines() if any(_names_session(ln, i) for i in ids)]
        if lines:
            found[path] = lines
    return found


def _scrub_activity(store: Store, ids: tuple[str, ...]) -> None:
    for path, lines in _activity_lines(store, ids).items():
        gone = set(lines)
        text = path.read_text(encoding="utf-8", errors="replace")
        kept = [ln for ln in text.splitlines(keepends=True) if ln.rstrip("\r\n") not in gone]
        atomic_write_text(path, "".join(kept), mode=0o600)


def _refuse_running(store: Store, sessions: tuple[Known, ...]) -> None:
    ids = {k.session_id for k in sessions}
    for marker in jobs.live_running(store):
        if marker.session_id in ids:
            raise VaultkitError(
                f"session {marker.session_id} is being distilled right now (pid {marker.pid})",
                hint="wait for the worker to finish, then run vaultkit forget again",
            )


def plan_forget(store: Store, session_id: str | None = None, *, before: date | None = None) -> Plan:
    """What forgetting ``session_id`` (or every session that ended before ``before``) deletes."""
    chosen = select(known_sessions(store), session_id, before)
    _refuse_running(store, chosen)
    files = sorted({p for k in chosen for p in session_files(store, k.session_id)})
    stems = tuple(sorted(p.stem for p in files if p.parent == store.wiki and p.suffix == ".md"))
    ids = tuple(k.session_id for k in chosen)
    needles = ids + stems
    return Plan(
        store=store,
        sessions=chosen,
        files=tuple(files),
        derived=tuple(derived_files(store)) if chosen else (),
        index_lines=_index_lines(store, stems),
        log_lines=len(_log_lines(store, needles)) if chosen else 0,
        note_stems=stems,
        activity_lines=sum(len(v) for v in _activity_lines(store, ids).values()) if chosen else 0,
    )


def _unlink(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _tombstone(store: Store, session_id: str) -> None:
    """``.vaultkit/forgotten/<id>.json``: backfill, SessionEnd and the worker skip the session
    from now on (:mod:`vaultkit.session.forget.tombstones`)."""
    record = {"session_id": session_id, "forgotten_at": datetime.now().astimezone().isoformat()}
    atomic_write_text(Path(tombstone_file(store, session_id)), json.dumps(record) + "\n")


def _scrub_log(store: Store, needles: tuple[str, ...]) -> None:
    gone = set(_log_lines(store, needles))
    if not gone:
        return
    text = store.log.read_text(encoding="utf-8", errors="replace")
    kept = [line for line in text.splitlines(keepends=True) if line.rstrip("\r\n") not in gone]
    atomic_write_text(store.log, "".join(kept))


def _drop_index_lines(store: Store, stems: tuple[str, ...]) -> None:
    """Hand-written INDEX.md lines that still link to a forgotten note (regeneration prunes
    only ghost list items)."""
    gone = set(_index_lines(store, stems))
    if gone:
        text = store.index.read_text(encoding="utf-8")
        kept = [ln for ln in text.splitlines(keepends=True) if ln.rstrip("\r\n") not in gone]
        atomic_write_text(store.index, "".join(kept))


def _store_lock(store: Store, wait: float, say: Callable[[str], None]) -> BaseFileLock:
    """The store lock, held: at once when it is free, else after saying so and waiting at most
    ``wait`` seconds (a worker holds it while it writes INDEX.md); a VaultkitError past that."""

    store.locks.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(store.locks / "store.lock"))
    try:
        lock.acquire(timeout=0)
        return lock
    except Timeout:
        say(f"waiting up to {wait:g} s for the store lock (a worker is updating INDEX.md)...")
    try:
        lock.acquire(timeout=wait)
    except Timeout:
        raise VaultkitError(
            f"gave up after {wait:g} s: {store.locks / 'store.lock'} is still held, "
            "nothing was deleted",
            hint="run `vaultkit doctor` to see the running worker, then forget again "
            "(or pass --wait SECONDS)",
        ) from None
    return lock


def apply_forget(
    plan: Plan, *, wait: float = LOCK_WAIT, say: Callable[[str], None] = lambda _m: None
) -> None:
    """Delete what ``plan`` lists, then, under the store lock, regenerate INDEX.md (and drop
    the hand-written lines that link to the notes that went) and remove the log lines that
    name the sessions or their notes, the activity log's included."""

    store = plan.store
    _refuse_running(store, plan.sessions)
    ids = tuple(k.session_id for k in plan.sessions)
    with _store_lock(store, wait, say):
        for path in (*plan.files, *plan.derived):
            _unlink(path)
        for known in plan.sessions:
            _tombstone(store, known.session_id)
        if plan.note_stems and store.wiki.is_dir():
            regenerate_index(store.wiki)
            _drop_index_lines(store, plan.note_stems)
        _scrub_log(store, ids + plan.note_stems)
        _scrub_activity(store, ids)
        costs.forget(store, ids)
