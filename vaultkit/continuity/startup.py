"""The SessionStart composition: the status line, the latest summary, wiki note, INDEX head.

Lean (stdlib + lean vaultkit modules). Reads only what it shows: the names in ``summary/``, the
heads of the newest few summaries, the chosen summary and wiki note, INDEX.md, and for the status
line (:func:`status_first`) the queue folder and ``vaultkit.toml``.
"""

from __future__ import annotations

import json
import os
import re
import time

from vaultkit.agents.known import DEFAULT
from vaultkit.agents.payload import payload_cwd
from vaultkit.base import pulled
from vaultkit.base.config import Config, store_config
from vaultkit.base.leanmeta import meta_str, read_meta
from vaultkit.base.log import append_log
from vaultkit.base.store import Store, current_branch, find_store, read_problem
from vaultkit.continuity import inject
from vaultkit.continuity.summaries import (
    CANDIDATES,
    HEAD_BYTES,
    WRITTEN_SKEW,
    Choice,
    Summary,
    is_mine,
    latest,
    me,
    note_files,
    read_safe,
    read_shared,
    recent_summaries,
    safe_name,
    written_here,
)
from vaultkit.errors import VaultkitError
from vaultkit.session.queue import backfill, health, jobs, recover

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Spawner = Callable[[Store], object]

NOTE_MAX_BYTES = 256 * 1024
INDEX_MAX_BYTES = 1024 * 1024
INDEX_HEAD = 12
INDEX_START = "<!-- vaultkit:index:start"
INDEX_END = "<!-- vaultkit:index:end"

_ENTRY = re.compile(r"^\s{0,3}[-*+]\s+.*\[\[")


def envelope(text: str) -> str:
    """The ``additionalContext`` JSON form of the injection."""
    output = {"hookEventName": "SessionStart", "additionalContext": text}
    return json.dumps({"hookSpecificOutput": output}, ensure_ascii=False)


def compose(
    payload: Mapping[str, object],
    env: Mapping[str, str],
    *,
    spawn: Spawner | None,
    agent: str = DEFAULT,
) -> str:
    """The injection text for ``agent``'s payload; ``spawn=None`` means look only (no backfill).
    Nothing here depends on the agent but backfill's search: the store is the project's."""
    source = _field(payload, "source") or "startup"
    if spawn is not None:
        _recover(env, spawn)
    if source in ("resume", "fork"):
        return ""
    store = find_store(payload_cwd(payload), env=env)
    if not os.path.isdir(store.top):
        return ""
    config = _config(store)
    if source == "clear" and not config.inject.on_clear:
        return ""
    if source == "compact":
        return compact_text(store, config, _field(payload, "session_id"))
    started = _backfill(store, payload, env, config, spawn, agent) if spawn is not None else 0
    if spawn is not None and not started:
        _after_pull(store, spawn)
    return startup_text(store, config, payload_cwd(payload), backfilled=started)


def _after_pull(store: Store, spawn: Spawner) -> None:
    """A teammate's notes arrived (git changed INDEX.md or the notes' folders): start the
    runner, which regenerates INDEX.md and the search index. Never fails the hook."""
    try:
        if pulled.changed(store) and spawn(store) is None:
            append_log(store.at("log"), "session-start: notes pulled, but no worker could start")
    except OSError as exc:
        append_log(store.at("log"), f"session-start: no refresh after a pull: {exc}")


def _field(payload: Mapping[str, object], key: str) -> str:
    value = payload.get(key)
    return value.strip() if isinstance(value, str) else ""


def status_first(payload: Mapping[str, object], env: Mapping[str, str], text: str) -> str:
    """``text`` (the whole injection) with the status line on top when distillation is broken,
    failing or waiting; the result stays within ``[inject] budget``. Only where a new session
    starts with the memory: ``startup`` (and ``clear`` with ``inject.on_clear``), not on
    ``resume``, ``fork`` or ``compact``."""
    source = _field(payload, "source") or "startup"
    if source in ("resume", "fork", "compact"):
        return text
    store = find_store(payload_cwd(payload), env=env)
    if not os.path.isdir(store.top):
        return text
    try:
        config, problem = store_config(store), ""
    except VaultkitError as exc:
        config, problem = Config(), exc.message
    if source == "clear" and not config.inject.on_clear:
        return text
    line = inject.status_line(store_health(store, problem), korean=inject.has_hangul(text))
    return inject.with_status(line, text, config.inject.budget)


def store_health(store: Store, config_problem: str = "") -> inject.Health:
    """The status line's facts: the queue's counts and ``vaultkit.toml``'s error, if any."""
    facts = health.queue_facts(store, time.time())
    where = store.at("config_file")
    detail = config_problem.removeprefix(f"{where}: ")
    return inject.Health(
        store_path=_rel(store, store.top) + "/",
        readonly=_unwritable(store),
        config_path=_rel(store, where) if config_problem else "",
        config_error=health.one_line(detail),
        waiting=facts.waiting,
        retrying=facts.retrying,
        gave_up=facts.gave_up,
        budget=facts.budget,
        reason=facts.reason,
    )


def _unwritable(store: Store) -> str:
    """Why the store cannot be written (a read-only file system, permissions), else ``""``."""
    folder = store.at("state") if os.path.isdir(store.at("state")) else store.top
    if os.access(folder, os.W_OK):
        return ""
    try:  # access() says no; the error a write gets says why
        os.close(os.open(os.path.join(folder, ".vaultkit-probe"), os.O_WRONLY | os.O_CREAT, 0o600))
        os.unlink(os.path.join(folder, ".vaultkit-probe"))
    except OSError as exc:
        return (exc.strerror or "not writable").lower()
    return ""


def _config(store: Store) -> Config:
    try:
        return store_config(store)
    except VaultkitError as exc:
        append_log(store.at("log"), f"session-start: {exc.message}; using default settings")
        return Config()


def _recover(env: Mapping[str, str], spawn: Spawner) -> None:
    """Queue the sessions of SessionEnd hooks killed after they spooled, whichever project's,
    and start each such store's runner."""
    try:  # noqa: SIM105  (contextlib would cost the hook an import)
        recover.drain_and_start(env, time.time(), None, spawn)
    except OSError:
        pass  # an unreadable spool: the next SessionStart or runner tries again


def _backfill(
    store: Store,
    payload: Mapping[str, object],
    env: Mapping[str, str],
    config: Config,
    spawn: Spawner,
    agent: str,
) -> int:
    try:
        found = backfill.plan(
            store,
            _field(payload, "transcript_path"),
            _field(payload, "session_id"),
            max_attempts=config.distill.max_attempts,
            now=time.time(),
            env=env,
            agent=agent,
        )
        started = backfill.apply(store, found, spawn)
    except OSError as exc:
        append_log(store.at("log"), f"session-start: backfill failed: {exc}")
        return 0
    if found.count:
        ids = ", ".join(j.session_id for j in (*found.orphaned, *found.missed))
        outcome = "started a worker" if started else "queued them, but no worker could start"
        append_log(store.at("log"), f"session-start: backfill {outcome} for {ids}")
    return started


# --- reading the store -------------------------------------------------------------------------


def _rel(store: Store, path: str) -> str:
    """``path`` relative to the project folder, with ``/`` separators (else as it is)."""
    project = os.path.dirname(store.top)
    prefix = project if project.endswith(os.sep) else project + os.sep
    rel = path[len(prefix) :] if path.startswith(prefix) else path
    return rel.replace(os.sep, "/")


def _note(store: Store, path: str) -> inject.NoteText | None:
    text = read_shared(store, path, NOTE_MAX_BYTES)
    if not text:
        return None
    meta, body = read_meta(text)
    here = written_here(store, path, meta_str(meta, "session_id")) is not None
    return inject.NoteText(path=_rel(store, path), body=body if here else read_safe(body))


def wiki_for(store: Store, summary: str) -> str | None:
    """The same session's wiki note (same stem; seed ``_요약`` → ``_위키``), else the newest."""
    stem = os.path.splitext(os.path.basename(summary))[0]
    names = [stem, stem[: -len("_요약")] + "_위키"] if stem.endswith("_요약") else [stem]
    wiki = store.at("wiki")
    for name in names:
        candidate = os.path.join(wiki, f"{name}.md")
        if os.path.isfile(candidate) and not read_problem(store, candidate):
            return candidate
    notes = note_files(store, wiki, 1)
    return notes[0] if notes else None


def _index_here(store: Store, chosen: Summary | None) -> bool:
    """True when INDEX.md is as this machine's worker left it when it finished the chosen
    session (no pull or edit since), so its lines were redacted as their notes were written."""
    finished = written_here(store, chosen.path, chosen.session_id) if chosen else None
    try:
        mtime = os.stat(store.at("index")).st_mtime
    except OSError:
        return False
    return finished is not None and mtime <= finished + WRITTEN_SKEW


def index_head(store: Store, *, own: bool = False) -> tuple[tuple[str, ...], int]:
    """The first entry lines of INDEX.md's generated region (whole file for old indexes)."""
    text = read_shared(store, store.at("index"), INDEX_MAX_BYTES)
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(INDEX_START)), -1)
    if start >= 0:
        end = next((i for i, ln in enumerate(lines) if ln.startswith(INDEX_END)), len(lines))
        lines = lines[start + 1 : end]
    entries = [line.strip() for line in lines if _ENTRY.match(line)]
    head = entries[:INDEX_HEAD]
    return tuple(head if own else (read_safe(e) for e in head)), len(entries)


def _newest_mtime(folder: str, suffix: str) -> float:
    try:
        with os.scandir(folder) as found:
            times = [e.stat().st_mtime for e in found if e.name.endswith(suffix)]
    except OSError:
        return 0.0
    return max(times, default=0.0)


def is_stale(store: Store) -> bool:
    """True when the newest raw copy is newer than the newest summary."""
    raw = _newest_mtime(store.at("raw"), ".jsonl")
    return raw > 0 and raw > _newest_mtime(store.at("summary"), ".md")


def raw_path_for(store: Store, session_id: str) -> str:
    """Where the raw transcript of a session is (done record, else a name match in raw/)."""
    if not session_id:
        return ""
    done = jobs.read_done(store, session_id)
    if done is not None and done.raw_path:
        return _rel(store, os.path.normpath(done.raw_path))
    safe, raw = jobs.safe_id(session_id), store.at("raw")
    try:
        names = os.listdir(raw)
    except OSError:
        return ""
    matches = sorted(n for n in names if n.endswith(".jsonl") and safe in n[: -len(".jsonl")])
    return _rel(store, os.path.join(raw, matches[-1])) if matches else ""


def _title(store: Store, summary: Summary) -> str:
    title = meta_str(summary.meta, "title")
    if not title:  # the name's title, for notes without one in their frontmatter
        from vaultkit.session.notes.naming import parse_name

        parsed = parse_name(summary.name)
        title = parsed.title if parsed is not None else ""
    if not title:
        title = _first_line(read_meta(summary.head)[1]) or os.path.splitext(summary.name)[0]
    here = written_here(store, summary.path, summary.session_id) is not None
    title = title if here else read_safe(title)
    return " ".join(title.split())[:120]


def _first_line(body: str) -> str:
    """The first line of content that is not a heading (seed notes have no title)."""
    for line in body.splitlines():
        text = line.strip().lstrip("-*+ ").strip()
        if text and not line.lstrip().startswith("#"):
            return text
    return ""


def _stamp(key: str) -> str:
    return f"{key[:4]}-{key[4:6]}-{key[6:8]} {key[8:10]}:{key[10:12]}" if key else "?"


def _recent_rows(
    store: Store, others: list[Summary], count: int, user: str
) -> tuple[inject.Recent, ...]:
    rows = []
    for s in others[: max(0, count)]:
        author = "" if is_mine(s, user) else s.author
        rows.append(inject.Recent(_stamp(s.key), _title(store, s), s.degraded, author))
    return tuple(rows)


def _teammates(store: Store, choice: Choice, user: str) -> tuple[str, ...]:
    """Teammates' sessions newer than the chosen one: ``author · stamp · title`` each."""
    chosen = choice.chosen
    newer = [s for s in choice.others if not is_mine(s, user) and chosen and s.key > chosen.key]
    return tuple(f"{s.author} · {_stamp(s.key)} · {_title(store, s)}" for s in newer)


def _newer_skipped(summaries: list[Summary], choice: Choice) -> str:
    """The newest handoff that could have been chosen, when it is not the chosen one."""
    eligible = [s for s in summaries if s is choice.chosen or s in choice.others]
    newest = eligible[0] if eligible else None
    return newest.name if newest is not None and newest is not choice.chosen else ""


def _degraded(store: Store, chosen: Summary | None) -> tuple[bool, str, str]:
    """(degraded, its reason, the raw transcript to read instead) of the chosen handoff."""
    if chosen is None:
        return False, "", ""
    raw = raw_path_for(store, chosen.session_id) if chosen.degraded else ""
    return chosen.degraded, meta_str(chosen.meta, "degraded_reason"), raw


def gather(
    store: Store, config: Config, cwd: str | os.PathLike[str], *, backfilled: int = 0
) -> inject.Material:
    """Read what the startup injection shows."""
    now = time.time()
    summaries = recent_summaries(store, max(CANDIDATES, config.inject.recent + 1), now)
    user = me(summaries, cwd)
    choice = latest(store, summaries, current_branch(cwd), now, user)
    chosen = choice.chosen
    note = _note(store, chosen.path) if chosen is not None else None
    wiki_path = wiki_for(store, chosen.path) if chosen is not None else None
    wiki = _note(store, wiki_path) if wiki_path is not None else None
    lines, total = index_head(store, own=_index_here(store, chosen))
    sample = "".join(
        (
            note.body[:4000] if note else "",
            wiki.body[:2000] if wiki else "",
            chosen.name if chosen else "",
        )
    )
    degraded, reason, raw = _degraded(store, chosen)
    return inject.Material(
        korean=inject.has_hangul(sample),
        running=bool(jobs.live_running(store)),
        stale=is_stale(store),
        backfilled=backfilled,
        summary=note,
        degraded=degraded,
        degraded_reason=reason,
        raw_path=raw,
        newer_skipped=_newer_skipped(summaries, choice),
        wiki=wiki,
        index_path=_rel(store, store.at("index")),
        index_lines=lines,
        index_total=total,
        recent=_recent_rows(store, list(choice.others), config.inject.recent, user),
        passed_over=tuple(f"{safe_name(s.name)} ({why})" for s, why in choice.passed),
        summary_author="" if chosen is None or is_mine(chosen, user) else chosen.author,
        teammates=_teammates(store, choice, user),
    )


def startup_text(
    store: Store, config: Config, cwd: str | os.PathLike[str], *, backfilled: int = 0
) -> str:
    """The ``startup`` injection text within ``config.inject.budget`` (never above 9,000)."""
    return inject.build(gather(store, config, cwd, backfilled=backfilled), config.inject.budget)


def compact_text(store: Store, config: Config, session_id: str) -> str:
    """After compaction: this session's own handoff, when the worker already wrote one."""
    if not session_id:
        return ""
    short = re.sub(r"[^A-Za-z0-9-]", "", session_id)[:8]
    for path in note_files(store, store.at("summary")):
        if short and short not in os.path.basename(path):
            continue
        meta, _ = read_meta(read_shared(store, path, HEAD_BYTES))
        if meta_str(meta, "session_id") in ("", session_id):
            note = _note(store, path)
            if note is not None:
                korean = inject.has_hangul(note.body[:4000] + os.path.basename(path))
                return inject.build_handoff(note, config.inject.budget, korean=korean)
    return ""
