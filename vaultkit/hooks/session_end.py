"""SessionEnd: queue the session and start the detached worker — nothing slow happens here.

Claude Code gives all SessionEnd hooks 1.5 s together, so this handler only writes one small job
file and spawns the worker; copying, parsing and the LLM call all happen in the worker. Before
this handler runs, the hook command has already spooled its stdin (:mod:`vaultkit.base.spool`,
its first act), so a hook killed at any point after that loses nothing: the spool's recovery
queues the job later. The checks and the job are :mod:`vaultkit.session.queue.intake`'s (a file
that is not the agent's transcript of this session is refused there: no job, no lock, no
worker). When a queue runner is alive (it holds ``locks/runner.lock``) the job is all this hook
writes; otherwise the hook takes the lock and hands it to the runner it starts
(:mod:`vaultkit.session.queue.runlock`).

Codex CLI and Gemini CLI sessions are queued the same way, with the job naming the agent: the
transcript must be where that agent keeps its own (Codex's ``reason`` is always ``other``; Gemini's
SessionEnd names the chat file that holds the conversation, also after a resume).
"""

from __future__ import annotations

from vaultkit.agents import known
from vaultkit.continuity import activity
from vaultkit.hooks import common
from vaultkit.session.queue import intake
from vaultkit.session.queue.spawn import start_runner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def run(
    payload: common.Payload, env: Mapping[str, str], *, agent: str = known.DEFAULT
) -> str | None:
    """Queue the ended session of ``agent`` and spawn its worker; prints nothing."""
    decision = intake.decide(payload, env, agent)
    store = decision.store
    for note in decision.notes:
        common.log(store, note)
    if decision.refused:
        common.log(store, decision.refused)
        return None
    intake.enqueue(decision, agent)
    started = start_runner(store).describe()
    tag = known.get(agent).tag
    who = f", {tag}" if tag else ""
    sid, reason = decision.fields.session_id, decision.reason
    common.log(store, f"SessionEnd {sid} ({reason}{who}): queued, {started}")
    activity.record(store, f"agent: session end ({reason}{who}) {sid[:8]}")
    return None
