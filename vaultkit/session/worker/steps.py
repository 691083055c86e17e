"""The steps of one job, in order: check the transcript is its agent's own, wait for it to
settle, copy it into ``raw/``, distil it (or, past the daily budget, write the offline note and
defer), record the cost, write the readable rendering."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from vaultkit.agents import known, transcripts
from vaultkit.base.config import Config
from vaultkit.base.store import Store, current_branch
from vaultkit.session.distill import costs
from vaultkit.session.distill.agentcli import command_model
from vaultkit.session.queue import health, jobs
from vaultkit.session.transcripts import rawcopy
from vaultkit.session.worker.finish import finish_store
from vaultkit.session.worker.outcome import (
    DistillFn,
    Progress,
    Result,
    Status,
    ended_at,
    job_path,
    now,
    write_done,
)

if TYPE_CHECKING:
    from vaultkit.session.distill.pipeline import DistillOutcome, SessionInfo

# The distiller (YAML, markdown-it) is imported where it is used: a worker that finds its
# session locked or its job gone exits without paying for it.


class Refused(Exception):
    """The job's file is not the agent's transcript (or is empty); it is never copied."""


def _check_transcript(job: jobs.Job, *, content: bool) -> None:
    """Raise :class:`Refused` unless the job's file may be archived. A file the user named with
    ``vaultkit ingest`` may live anywhere; every other one must be in the agent's own folder."""
    anywhere = job.source == "ingest"
    if content:
        problem = transcripts.file_problem(
            job.transcript_path, os.environ, anywhere=anywhere, agent=job.agent
        )
    elif not anywhere:
        problem = transcripts.path_problem(job.transcript_path, os.environ, agent=job.agent)
    else:
        problem = None
    if problem is not None:
        raise Refused(f"{job.transcript_path}: {problem}")


def refuse(store: Store, job: jobs.Job, exc: Refused, say: Progress) -> Result:
    jobs.remove_job(store, job.session_id)
    say(f"{job.session_id}: refused {exc}; not archived, job removed")
    return Result(job.session_id, Status.REFUSED, message=str(exc))


def copy_raw(
    store: Store, job: jobs.Job, settle: rawcopy.Settle, say: Progress, *, redacted: bool = False
) -> Path | None:
    source = Path(job.transcript_path)
    rawcopy.clean_temps(store.raw, job.session_id)
    _check_transcript(job, content=False)  # a folder or /etc/passwd is not waited for
    say(f"{job.session_id}: waiting for {source.name} to stop growing")
    size = rawcopy.wait_settled(source, settle)
    existing = rawcopy.find_raw(store.raw, job.session_id)
    if size is None:
        if existing is not None:
            say(f"{job.session_id}: transcript {source} is gone; using raw copy {existing.name}")
        return existing
    _check_transcript(job, content=True)  # again, on the file as it is now, right before copying
    copy = rawcopy.copy_transcript(
        source, store.raw, job.session_id, ended_at(job), redacted=redacted
    )
    verb = "copied" if copy.written else "kept existing copy"
    say(f"{job.session_id}: {verb} raw/{copy.path.name} ({copy.size} bytes)")
    return copy.path


def distil(
    store: Store, job: jobs.Job, raw: Path, config: Config, distill: DistillFn, say: Progress
) -> Result:
    from vaultkit.session.distill.pipeline import NoUserTurn, SessionInfo

    info = SessionInfo(
        session_id=job.session_id,
        transcript=raw,
        project=store.project.name,
        cwd=job.cwd,
        git_branch=_branch(job, raw),
        ended_at=ended_at(job),
        reason=job.reason,
        agent=job.agent,
    )
    try:
        over = budget_spent(store, config)
        if over:
            return _defer(store, job, info, config, over, say)
        say(f"{job.session_id}: distilling with backend {config.distill.backend!r}")
        outcome = distill(store, info, config)
    except NoUserTurn:
        say(f"{job.session_id}: no user turn; no note written (raw/{raw.name} kept)")
        return Result(job.session_id, Status.DONE, raw_path=str(raw), message="no user turn")
    say(f"{job.session_id}: wrote {outcome.summary_path} and {outcome.wiki_path}")
    _record_cost(store, job.session_id, config, outcome, say)
    finish_store(store, config, say, (Path(outcome.summary_path), Path(outcome.wiki_path)))
    return Result(
        job.session_id,
        Status.DONE,
        raw_path=str(raw),
        summary_path=str(outcome.summary_path),
        wiki_path=str(outcome.wiki_path),
        quality=outcome.quality,
        message=outcome.degraded_reason or "",
    )


def _branch(job: jobs.Job, raw: Path) -> str | None:
    """The session's git branch: the one its transcript records (its agent's reader says:
    Claude Code's by a byte scan, the others' in their first session facts), else — for a
    session that has just ended — the branch checked out in its folder (a Gemini chat records
    none)."""
    found = known.reader(job.agent).git_branch(raw)
    if found is None and job.source == "session-end" and job.cwd:
        found = current_branch(job.cwd) or None
    return found


def _today() -> str:
    return now().date().isoformat()


def budget_spent(store: Store, config: Config) -> str:
    """Why no LLM call may be made today (``""`` when one may): today's recorded cost has
    reached ``[distill] daily_budget``. The offline backend costs nothing and is never capped."""
    cap = config.distill.daily_budget
    if cap <= 0 or config.distill.backend == "offline":
        return ""
    spent = costs.totals(store, _today()).cost_usd
    if spent < cap:
        return ""
    return f"daily budget reached (${spent:.2f} of ${cap:.2f} spent today)"


def _defer(
    store: Store, job: jobs.Job, info: SessionInfo, config: Config, why: str, say: Progress
) -> Result:
    """Past the budget: the offline note now (once; an earlier clean note of the session is kept),
    and the job stays queued for tomorrow's LLM call."""
    from vaultkit.session.distill.pipeline import offline_session

    current = jobs.read_job(job_path(store, job.session_id)) or job
    jobs.write_job(store, replace(current, last_error=health.tag(health.BUDGET, why)))
    deferred = Result(job.session_id, Status.DEFERRED, raw_path=str(info.transcript), message=why)
    done = jobs.read_done(store, job.session_id)
    if done is not None and (done.quality == "ok" or done.degraded_reason == health.BUDGET):
        say(f"{job.session_id}: {why}; its notes are already written, kept as they are")
        return replace(
            deferred, summary_path=done.summary_path, wiki_path=done.wiki_path, quality=done.quality
        )
    outcome = offline_session(store, info, config, health.BUDGET)
    say(f"{job.session_id}: {why}; wrote offline {outcome.summary_path.name}")
    finish_store(store, config, say, (outcome.summary_path, outcome.wiki_path))
    written = replace(
        deferred,
        summary_path=str(outcome.summary_path),
        wiki_path=str(outcome.wiki_path),
        quality="degraded",
    )
    write_done(store, replace(written, message=health.BUDGET))  # the done record's reason
    return written


def _record_cost(
    store: Store, session_id: str, config: Config, outcome: DistillOutcome, say: Progress
) -> None:
    """One cost-log line for this distillation (the offline backend records zero)."""
    usage = outcome.usage
    entry = costs.Entry(
        date=_today(),
        session_id=session_id,
        backend=outcome.backend or config.distill.backend,  # what "auto" chose
        model=usage.model or command_model(outcome.backend, config),
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cost_usd=round(usage.cost_usd, 6),
    )
    try:
        costs.record(store, entry)
    except OSError as exc:
        say(f"{session_id}: cost not recorded in {costs.COST_LOG}: {exc}")
        return
    say(
        f"{session_id}: cost {usage.input_tokens} input + {usage.output_tokens} output tokens, "
        f"${usage.cost_usd:.6f}"
    )


def write_readable(store: Store, config: Config, job: jobs.Job, raw: Path, say: Progress) -> None:
    """The readable Markdown rendering in ``transcripts/``; never fails the job."""
    if not config.transcripts.enabled:
        return
    from vaultkit.session.transcripts.render import for_worker

    try:
        path = for_worker(store.transcripts, raw, job.session_id, ended_at(job), job.agent)
    except (OSError, UnicodeError) as exc:
        say(f"{job.session_id}: readable transcript not written: {exc}")
        return
    say(f"{job.session_id}: readable transcript transcripts/{path.name}")
