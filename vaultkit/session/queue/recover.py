"""Queue the sessions of SessionEnd hooks that stopped after their first write (lean: stdlib).

A SessionEnd hook spools its stdin first (:mod:`vaultkit.base.spool`) and removes the entry once
its job is queued. An entry whose hook is gone (its pid is dead, or it is older than
:data:`STALE_SECONDS`) is a hook that was killed in between: :func:`drain` queues its job the
way the hook would have (:mod:`vaultkit.session.queue.intake`: the same checks and refusals),
logs it in that store's log and removes the entry. A temp file left by a hook killed in the
middle of its first write is taken too when it holds a whole entry. The queue runner drains
the spool before each pass, and every SessionStart before its backfill.
"""

from __future__ import annotations

import os

from vaultkit.agents import known
from vaultkit.agents.payload import agent_for, decode_payload
from vaultkit.base import spool
from vaultkit.base.log import append_log, iso_now
from vaultkit.base.record import Record
from vaultkit.base.store import Store
from vaultkit.session.queue import intake, jobs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

STALE_SECONDS = 60.0  # no live hook takes this long; an entry this old is a stuck one's
MAX_PER_DRAIN = 100  # a burst of fifty hooks all killed is recovered in one drain
AGENT_FLAG = "--agent"


class Recovered(Record):
    """One spool entry handled: the store it belongs to and whether a job was queued."""

    store: Store | None
    session_id: str
    queued: bool


def _writer(name: str) -> tuple[int, int] | None:
    """``(time_ns, pid)`` of an entry (``<ns>.<pid>.end``) or of its temp file
    (``.<ns>.<pid>.end.<random>.tmp``), else ``None``."""
    parts = name.lstrip(".").split(".")
    if len(parts) < 3 or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    if name.endswith(spool.SUFFIX) and len(parts) == 3:
        return int(parts[0]), int(parts[1])
    if name.startswith(".") and name.endswith(".tmp") and parts[2] == spool.SUFFIX[1:]:
        return int(parts[0]), int(parts[1])
    return None


def pending(env: Mapping[str, str], now: float) -> list[str]:
    """Entries (and whole-looking temp files) whose hook is gone, oldest first."""
    folder = spool.spool_dir(env)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in names:
        writer = _writer(name)
        if writer is None:
            continue
        born, pid = writer
        if jobs.pid_alive(pid) and now - born / 1e9 < STALE_SECONDS:
            continue  # its hook is still at work: it removes the entry itself
        found.append((born, os.path.join(folder, name)))
    return [path for _, path in sorted(found)][:MAX_PER_DRAIN]


def _read(path: str) -> spool.Entry | None:
    try:
        with open(path, "rb") as handle:
            return spool.decode(handle.read(spool.MAX_STDIN + 65536))
    except OSError:
        return None


def _agent_flag(argv: tuple[str, ...]) -> str | None:
    words = list(argv)
    for number, word in enumerate(words):
        if word == AGENT_FLAG:
            return words[number + 1] if number + 1 < len(words) else ""
        if word.startswith(AGENT_FLAG + "="):
            return word[len(AGENT_FLAG) + 1 :]
    return None


def _already(store: Store, session_id: str, born_ns: int) -> bool:
    """The hook queued it before it died (a job is queued, running, or done since)."""
    if os.path.exists(jobs.job_file(store, session_id)):
        return True
    if any(m.session_id == session_id for m in jobs.live_running(store)):
        return True
    done = os.path.join(store.at("state"), "done", f"{jobs.safe_id(session_id)}.json")
    try:
        return os.stat(done).st_mtime_ns >= born_ns
    except OSError:
        return False


def recover_one(path: str, env: Mapping[str, str]) -> Recovered | None:
    """Queue the job of the spool entry at ``path`` (``None``: not a SessionEnd's, or cut
    short); the caller removes the entry."""
    entry = _read(path)
    writer = _writer(os.path.basename(path))
    if entry is None or writer is None:
        return None
    payload, _ = decode_payload(entry.raw)
    event = spool.event_word(entry.argv) or str(payload.get("hook_event_name", ""))
    agent = agent_for(_agent_flag(entry.argv), payload, env)
    if event != "SessionEnd" or agent is None:
        return None
    decision = intake.decide(payload, env, agent, entry.cwd)
    sid, store = decision.fields.session_id, decision.store
    if decision.refused:
        append_log(store.at("log"), f"{decision.refused} (from the spool)")
        return Recovered(store, sid, False)
    if _already(store, sid, writer[0]):
        return Recovered(store, sid, False)
    intake.enqueue(decision, agent, ended_at=iso_now(writer[0] / 1e9))
    tag = known.get(agent).tag
    who = f", {tag}" if tag else ""
    line = f"SessionEnd {sid} ({decision.reason}{who}): queued from the spool (its hook stopped)"
    append_log(store.at("log"), line)
    return Recovered(store, sid, True)


def drain(env: Mapping[str, str], now: float) -> list[Recovered]:
    """Queue the job of every entry whose hook is gone, then remove the entry. An entry whose
    job cannot be written (a read-only store) stays for the next drain, for a week."""
    done = []
    for path in pending(env, now):
        try:
            found = recover_one(path, env)
        except OSError:
            writer = _writer(os.path.basename(path))
            if writer is not None and now - writer[0] / 1e9 < 7 * 24 * 3600:
                continue
            found = None
        except Exception:  # a broken entry must not stop the drain (or the runner)
            found = None
        spool.remove(path)
        if found is not None:
            done.append(found)
    return done


def drain_and_start(
    env: Mapping[str, str], now: float, own: Store | None, spawn: Callable[[Store], object]
) -> list[Recovered]:
    """:func:`drain`, then ``spawn`` a runner for every store it queued into but ``own`` (whose
    jobs are the caller's to run)."""
    found = drain(env, now)
    others = {r.store for r in found if r.queued and r.store is not None and r.store != own}
    for other in sorted(others, key=lambda s: s.top):
        spawn(other)
    return found
