"""SessionEnd: queue the session and start the detached worker — nothing slow happens here.

Claude Code gives all SessionEnd hooks 1.5 s together, so this handler only writes one small job
file and spawns the worker; copying, parsing and the LLM call all happen in the worker.
The job is written (atomically) before anything else, so a hook killed at any point has queued
its session fully or not at all (then the next SessionStart's backfill finds it). When a queue
runner is alive (it holds ``locks/runner.lock``) the job is all this hook writes; otherwise the hook
takes the lock and hands it to the runner it starts (:mod:`vaultkit.session.queue.runlock`).

Codex CLI and Gemini CLI sessions are queued the same way, with the job naming the agent: the
transcript must be where that agent keeps its own (Codex's ``reason`` is always ``other``; Gemini's
SessionEnd names the chat file that holds the conversation, also after a resume).
"""

from __future__ import annotations

import os

from vaultkit.agents import known
from vaultkit.agents.transcripts import path_problem
from vaultkit.continuity import activity
from vaultkit.hooks import common
from vaultkit.session.forget.tombstones import is_forgotten
from vaultkit.session.queue import jobs
from vaultkit.session.queue.spawn import start_runner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from vaultkit.base.store import Store


def id_from_name(path: str, agent: str) -> str:
    """The session id a transcript's name gives (Claude's ``<id>.jsonl``, the UUID that ends a
    Codex ``rollout-<time>-<id>.jsonl``; ``""`` for Gemini, whose names carry 8 characters)."""
    return known.lean(agent).session_id_from_name(path)


def end_reason(fields: common.HookFields, agent: str) -> str:
    """``reason`` when ``agent`` sends it (Gemini's ``exit``) or it is one of Claude Code's,
    else ``other``."""
    if fields.reason in known.get(agent).end_reasons:
        return fields.reason
    return fields.end_reason


def transcript_of(fields: common.HookFields) -> str:
    """The payload's transcript path, made absolute against its ``cwd`` (an absolute one wins)."""
    return os.path.join(fields.cwd or os.getcwd(), fields.transcript_path)


def queue_session(store: Store, fields: common.HookFields, agent: str = known.DEFAULT) -> jobs.Job:
    """Write (or rewrite) the session's job; attempts and the last error of a queued job survive."""
    job = jobs.Job(
        session_id=fields.session_id,
        transcript_path=transcript_of(fields),
        cwd=fields.cwd,
        reason=end_reason(fields, agent),
        ended_at=common.now_iso(),
        agent=agent,
    )
    existing = jobs.read_job(jobs.job_file(store, fields.session_id))
    if existing is not None:
        job = job.replace(attempts=existing.attempts, last_error=existing.last_error)
    jobs.write_job(store, job)
    return job


def run(
    payload: common.Payload, env: Mapping[str, str], *, agent: str = known.DEFAULT
) -> str | None:
    """Queue the ended session of ``agent`` and spawn its worker; prints nothing."""
    fields = common.HookFields.of(payload)
    store = common.store_for(payload, env)
    if fields.transcript_path and not fields.session_id:
        fields = fields.replace(session_id=id_from_name(fields.transcript_path, agent))
    if not fields.session_id or not fields.transcript_path:
        common.log(store, "SessionEnd: no session_id or transcript_path in payload; nothing queued")
        return None
    reason = end_reason(fields, agent)
    if fields.reason != reason:
        common.log(store, f"SessionEnd: unknown reason {fields.reason!r} read as 'other'")
    transcript = transcript_of(fields)
    refused = path_problem(transcript, env, agent)
    if refused is not None:  # /etc/passwd, a folder, a symlink out of the agent's folder, …
        common.log(store, f"SessionEnd {fields.session_id}: {transcript} refused: {refused}")
        return None
    if is_forgotten(store, fields.session_id):  # `vaultkit forget`: it stays forgotten
        common.log(store, f"SessionEnd {fields.session_id}: forgotten; not queued")
        return None
    queue_session(store, fields, agent)
    started = start_runner(store).describe()
    tag = known.get(agent).tag
    who = f", {tag}" if tag else ""
    common.log(store, f"SessionEnd {fields.session_id} ({reason}{who}): queued, {started}")
    activity.record(store, f"agent: session end ({reason}{who}) {fields.session_id[:8]}")
    return None
