"""A SessionEnd payload becomes a queued job: what is checked first and the job written (lean).

The SessionEnd hook and the spool's recovery (:mod:`vaultkit.session.queue.recover`, for a hook
killed before it queued) go through the same two steps: :func:`decide` (which store, which
session, and whether the file is that agent's transcript of that session: a file named
``<uuid>.jsonl`` under Claude Code's ``projects/`` that is not a transcript, or is another
session's, is refused here, before any job, lock or worker) and :func:`enqueue`.
"""

from __future__ import annotations

import os

from vaultkit.agents import known
from vaultkit.agents.payload import HookFields, Payload
from vaultkit.agents.transcripts import hook_problem, own_ids, read_head
from vaultkit.base.log import iso_now
from vaultkit.base.record import Record
from vaultkit.base.store import Store, find_store
from vaultkit.session.forget.tombstones import is_forgotten
from vaultkit.session.queue import jobs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


class Decision(Record):
    """What one SessionEnd payload asks for: its store, its fields (the session id filled in),
    the reason read, the lines to log first, and why nothing is queued (``""``: queue it)."""

    store: Store
    fields: HookFields
    reason: str
    notes: tuple[str, ...] = ()
    refused: str = ""


def end_reason(fields: HookFields, agent: str) -> str:
    """``reason`` when ``agent`` sends it (Gemini's ``exit``) or it is one of Claude Code's,
    else ``other``."""
    if fields.reason in known.get(agent).end_reasons:
        return fields.reason
    return fields.end_reason


def transcript_of(fields: HookFields, cwd: str) -> str:
    """The payload's transcript path, made absolute against its ``cwd`` (else ``cwd``)."""
    return os.path.join(fields.cwd or cwd, fields.transcript_path)


def own_session_id(path: str, agent: str) -> str:
    """The session id a transcript gives itself (its name, else its first records), or ``""``."""
    named = known.lean(agent).session_id_from_name(path)
    if named or not os.path.isfile(path):
        return named
    head = read_head(path)[0]
    found = own_ids(path, head, agent) if head else ()
    return found[0] if found else ""


def store_of(payload: Payload, cwd: str, env: Mapping[str, str]) -> Store:
    """The store of the payload's ``cwd`` when it is an existing folder, else of ``cwd``."""
    given = HookFields.of(payload).cwd
    return find_store(given if given and os.path.isdir(given) else cwd, env=env)


def decide(payload: Payload, env: Mapping[str, str], agent: str, cwd: str = "") -> Decision:
    """Read one SessionEnd payload of ``agent`` (``cwd``: the hook's working folder, the default
    of a payload without one). Reads the transcript's first lines; writes nothing."""
    cwd = cwd or os.getcwd()
    fields = HookFields.of(payload)
    store = store_of(payload, cwd, env)
    if fields.transcript_path and not fields.session_id:
        own = own_session_id(transcript_of(fields, cwd), agent)
        fields = fields.replace(session_id=own)
    reason = end_reason(fields, agent)
    decision = Decision(store, fields, reason)
    if not fields.session_id or not fields.transcript_path:
        missing = "SessionEnd: no session_id or transcript_path in payload; nothing queued"
        return decision.replace(refused=missing)
    if fields.reason != reason:
        unknown = f"SessionEnd: unknown reason {fields.reason!r} read as 'other'"
        decision = decision.replace(notes=(unknown,))
    transcript = transcript_of(fields, cwd)
    problem = hook_problem(transcript, env, fields.session_id, agent)
    if problem is not None:  # /etc/passwd, a folder, a symlink out, not a transcript, another's
        line = f"SessionEnd {fields.session_id}: {transcript} refused: {problem}"
        return decision.replace(refused=line)
    if is_forgotten(store, fields.session_id):  # `vaultkit forget`: it stays forgotten
        return decision.replace(refused=f"SessionEnd {fields.session_id}: forgotten; not queued")
    return decision.replace(fields=fields.replace(transcript_path=transcript))


def enqueue(decision: Decision, agent: str, ended_at: str = "") -> jobs.Job:
    """Write (or rewrite) the session's job; attempts and the last error of a queued job
    survive."""
    fields = decision.fields
    job = jobs.Job(
        session_id=fields.session_id,
        transcript_path=fields.transcript_path,
        cwd=fields.cwd,
        reason=decision.reason,
        ended_at=ended_at or iso_now(),
        agent=agent,
    )
    existing = jobs.read_job(jobs.job_file(decision.store, fields.session_id))
    if existing is not None:
        job = job.replace(attempts=existing.attempts, last_error=existing.last_error)
    jobs.write_job(decision.store, job)
    return job
