"""Continuity commands: ``baton``, ``save``, ``resume``, ``shell-init``, ``transcript export``,
``loop`` (README, "Continuity")."""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.agents.claude.window import session_transcript
from vaultkit.base.config import Config, load_config
from vaultkit.base.store import Store, find_store
from vaultkit.cli.app import command, group
from vaultkit.cli.common import check_transcript
from vaultkit.continuity import activity, baton, loop, resume, shellinit
from vaultkit.continuity.handoff import save_handoff
from vaultkit.errors import VaultkitError
from vaultkit.session.transcripts import render
from vaultkit.session.transcripts.redact import redact

ProjectOpt = Annotated[
    Path | None, typer.Option("--project", help="Project folder (default: the current folder).")
]
SessionOpt = Annotated[
    str,
    typer.Option(
        "--session", help="Session id (default: $CLAUDE_CODE_SESSION_ID, else newest transcript)."
    ),
]
TranscriptOpt = Annotated[
    Path | None, typer.Option("--transcript", help="The session's transcript (.jsonl).")
]


def _store(project: Path | None) -> Store:
    return find_store((project or Path.cwd()).expanduser().resolve())


def _config(store: Store) -> Config:
    return load_config(store.config_file)


def _stdin_text(what: str, command: str) -> str:
    if sys.stdin is None or sys.stdin.isatty():
        raise VaultkitError(
            f"no {what} on stdin", hint=f"pipe it in: {command} <<'EOF' … EOF (or < file.md)"
        )
    text = sys.stdin.buffer.read().decode("utf-8", errors="replace").lstrip("\ufeff")
    if not text.strip():
        raise VaultkitError(f"the {what} on stdin is empty", hint=f"pipe the {what} to {command}")
    return text


def _session(store: Store, session: str, transcript: Path | None) -> tuple[str, Path | None]:
    """The session id and transcript from options, the environment or the newest transcript."""
    session = session.strip() or os.environ.get("CLAUDE_CODE_SESSION_ID", "").strip()
    if transcript is None:
        transcript = session_transcript(store.project, session, os.environ)
    if not session and transcript is not None:
        session = transcript.stem
    return session, transcript


@command("baton")
def baton_cmd(
    project: ProjectOpt = None,
    session: SessionOpt = "",
    transcript: TranscriptOpt = None,
    show: Annotated[bool, typer.Option("--list", help="List waiting batons instead.")] = False,
) -> None:
    store = _store(project)
    config = _config(store)
    if show:
        _list_batons(store, config)
        return
    memo = _stdin_text("memo", "vaultkit baton")
    sid, path = _session(store, session, transcript)
    where, left = baton.drop(
        store,
        redact(memo),
        session_id=sid,
        transcript=path,
        thinking_chars=config.baton.thinking_chars,
        pid=baton.agent_pid(),
    )
    if config.activity.enabled:
        activity.append(store, f"agent: baton left by {sid[:8]}")
    lifetime = config.baton.lifetime_minutes
    thinking = f", thinking {len(left.thinking)} chars" if left.thinking else ", no thinking found"
    typer.echo(f"baton left: {_rel(store, where)} (memo {len(left.memo)} chars{thinking})")
    typer.echo(
        f"the next session of this project that starts within {lifetime} minutes inherits it"
    )


def _list_batons(store: Store, config: Config) -> None:
    now = datetime.now().astimezone()
    lifetime = timedelta(minutes=config.baton.lifetime_minutes)
    found = baton.pending(store)
    if not found:
        typer.echo("no baton is waiting")
    for path, item in found:
        state = "expired" if now - item.created > lifetime else "waiting"
        line = item.memo.splitlines()[0] if item.memo else ""
        typer.echo(f"{item.created_at}  {item.session_id[:8]}  {state}  {path.name}  {line}")


def _rel(store: Store, path: Path) -> str:
    try:
        return path.relative_to(store.project).as_posix()
    except ValueError:
        return str(path)


@command("save")
def save_cmd(
    project: ProjectOpt = None,
    session: SessionOpt = "",
    title: Annotated[str, typer.Option("--title", help="Title (default: the # heading).")] = "",
) -> None:
    store = _store(project)
    text = _stdin_text("handoff", "vaultkit save")
    sid, _ = _session(store, session, None)
    saved = save_handoff(store, text, session_id=sid, title=title, config=_config(store))
    typer.echo(f"handoff saved: {_rel(store, saved.path)} (auto_saved: false)")
    if saved.missing:
        typer.echo(
            f"note: sections missing from the resume contract: {', '.join(saved.missing)}",
            err=True,
        )


@command("resume")
def resume_cmd(
    project: ProjectOpt = None,
    budget: Annotated[int, typer.Option("--budget", help="Characters at most.")] = 9_000,
) -> None:
    store = _store(project)
    chosen = resume.build(store, _config(store))
    typer.echo(resume.render(chosen, store, max(400, budget)))


@command("shell-init")
def shell_init_cmd(
    shell: Annotated[str, typer.Argument(help="bash, zsh or pwsh.")],
) -> None:
    typer.echo(shellinit.snippet(shell.strip().lower()), nl=False)


transcript_app = group("transcript", no_args_is_help=True)


@transcript_app.command("export")
def transcript_export_cmd(
    file: Annotated[
        Path, typer.Argument(help="A Claude Code, Codex or Gemini CLI transcript (.jsonl).")
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Output file, or - for stdout (default: the project's sessions/transcripts/).",
        ),
    ] = None,
    project: ProjectOpt = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent", help="claude, codex or gemini (default: told by the file's content)."
        ),
    ] = None,
) -> None:
    """Render a transcript as Markdown: user words verbatim, the assistant's visible text.
    A file that is no agent's transcript is refused, as `vaultkit ingest` refuses it."""

    if file.exists() and not file.is_file():
        raise VaultkitError(f"{file}: not a file", hint="pass the path of a .jsonl transcript")
    who = check_transcript(file, agent)
    session = render.session_id_of(file, who)
    if output is not None and str(output) == "-":
        count = render.write_markdown(file, sys.stdout, session_id=session, agent=who)
        typer.echo(f"{count} turn(s)", err=True)
        return
    if output is None:
        store = _store(project)
        when = datetime.fromtimestamp(file.stat().st_mtime).astimezone()
        output = render.target_for(store.transcripts, session, when)
    count = render.export(file, output, session_id=session, agent=who)
    typer.echo(f"wrote {output} ({count} turns)")


@command(
    "loop",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def loop_cmd(
    ctx: typer.Context,
    delay: Annotated[int, typer.Option("--delay", help="Countdown seconds before a restart.")] = 5,
    wait: Annotated[
        float, typer.Option("--wait", help="Wait at most this long for the distillation.")
    ] = 120.0,
    wait_only: Annotated[
        bool, typer.Option("--wait-only", help="Only wait for the distillation (for shell loops).")
    ] = False,
    since: Annotated[
        float, typer.Option("--since", help="With --wait-only: the agent's start (epoch s).")
    ] = 0.0,
) -> None:
    store = find_store(Path.cwd())
    if wait_only:
        start = since or time.time() - 60
        left = loop.wait_distilled(loop.Watch(store, start), wait, can_read=False)
        if left:
            typer.echo(f"vaultkit loop: distillation still running for {', '.join(left)}", err=True)
        return
    code = loop.run_loop(list(ctx.args), store, delay=delay, wait=wait)
    raise typer.Exit(code)
