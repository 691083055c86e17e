"""``vaultkit ingest TRANSCRIPT``: run the worker's steps in the foreground, with progress."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable
from dataclasses import asdict, replace
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.agents import known, readers
from vaultkit.base.log import append_log
from vaultkit.base.store import Store, find_store
from vaultkit.cli.app import command
from vaultkit.cli.common import check_transcript, unwritable
from vaultkit.errors import VaultkitError
from vaultkit.session.queue import jobs
from vaultkit.session.transcripts.facts import transcript_facts
from vaultkit.session.transcripts.rawcopy import Settle
from vaultkit.session.worker.job import process_job
from vaultkit.session.worker.outcome import Result, Status


class IngestFormat(StrEnum):
    text = "text"
    json = "json"


def _store(arg: Path | None) -> Store:
    if arg is None:
        return find_store()
    folder = arg.expanduser()
    if not folder.is_dir():
        raise VaultkitError(
            f"{folder}: not a folder", hint="pass the project folder or its sessions/ folder"
        )
    return find_store(folder.resolve())


def _queue(
    store: Store, transcript: Path, session_id: str, ended: datetime | None, agent: str
) -> None:
    if ended is None:
        ended = datetime.fromtimestamp(transcript.stat().st_mtime).astimezone()
    job = jobs.Job(
        session_id=session_id,
        transcript_path=str(transcript),
        cwd=str(store.project),
        ended_at=ended.isoformat(timespec="seconds"),
        source="ingest",
        agent=agent,
    )
    existing = jobs.read_job(jobs.queue_dir(store) / f"{jobs.safe_id(session_id)}.json")
    if existing is not None:
        job = replace(job, attempts=existing.attempts)
    jobs.write_job(store, job)


def _reporter(store: Store, quiet: bool) -> Callable[[str], None]:
    def say(message: str) -> None:
        append_log(store.log, f"ingest[{os.getpid()}] {message}")
        if not quiet:
            typer.echo(f"vaultkit: {message}", err=True)

    return say


def _check(result: Result, store: Store) -> None:
    if result.status in (Status.DONE, Status.SUPERSEDED, Status.DEFERRED):
        return
    if result.status is Status.LOCKED:
        raise VaultkitError(
            f"session {result.session_id} is being distilled by a background worker right now",
            hint="wait for it to finish, then look in sessions/summary/",
        )
    raise VaultkitError(
        f"session {result.session_id} was not distilled ({result.status}): {result.message}",
        hint=f"read {store.log}, fix the cause, then run vaultkit ingest again",
    )


def _print(result: Result, fmt: IngestFormat) -> None:
    if fmt is IngestFormat.json:
        typer.echo(json.dumps(asdict(result), ensure_ascii=False, indent=2))
        return
    typer.echo(f"raw      {result.raw_path}")
    typer.echo(f"summary  {result.summary_path}")
    typer.echo(f"wiki     {result.wiki_path}")
    quality = result.quality + (f" ({result.message})" if result.message else "")
    typer.echo(f"quality  {quality}")


@command("ingest")
def ingest(
    transcript: Annotated[
        Path, typer.Argument(help="A Claude Code, Codex or Gemini CLI transcript (.jsonl).")
    ],
    session_id: Annotated[
        str | None,
        typer.Option(
            "--session-id", help="Default: the transcript's own session id, else its file name."
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent", help="claude, codex or gemini (default: told by the file's content)."
        ),
    ] = None,
    store_dir: Annotated[
        Path | None,
        typer.Option("--store", help="Project or sessions/ folder (default: this project)."),
    ] = None,
    fmt: Annotated[IngestFormat, typer.Option("--format", "-f", help="Output format.")] = (
        IngestFormat.text
    ),
    settle: Annotated[
        float, typer.Option(help="Seconds the transcript's size must stay unchanged first.")
    ] = 1.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")] = False,
) -> None:
    """\b
    Examples:
      vaultkit ingest ~/.claude/projects/-home-me-proj/4f6a2c1e-….jsonl
      vaultkit ingest ~/.codex/sessions/2026/12/01/rollout-2026-12-01T07-30-38-01a2….jsonl
      vaultkit ingest old.jsonl --session-id 4f6a2c1e --store ~/proj --format json
    """
    source = transcript.expanduser()
    found = check_transcript(source, agent)
    facts = transcript_facts(source)
    sid = (session_id or readers.session_id(source, found) or source.stem).strip()
    if not sid:
        raise VaultkitError("empty session id", hint="pass --session-id ID")
    store = _store(store_dir)
    try:
        _queue(store, source.resolve(), sid, facts.ended_at, found)
        say = _reporter(store, quiet)
        say(f"{sid}: queued {known.get(found).display} transcript {source} for store {store.root}")
        window = max(0.0, settle)
        result = process_job(
            store, sid, settle=Settle(window=window, max_wait=max(30.0, window)), progress=say
        )
    except OSError as exc:
        again = f"vaultkit ingest {shlex.quote(str(source))}"
        raise unwritable(store.root, exc, "the transcript was not ingested", again) from exc
    _check(result, store)
    _print(result, fmt)
