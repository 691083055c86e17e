"""``vaultkit restore`` (what SessionStart would inject) and ``vaultkit doctor`` (setup check)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

import typer

from vaultkit.base.config import Config, load_config
from vaultkit.base.store import Store, find_store
from vaultkit.cli.app import app
from vaultkit.cli.hooks_cmd import (
    FormatOpt,
    OutputFormat,
    ProjectOpt,
    Scope,
    project_dir,
    scope_status,
)
from vaultkit.continuity import startup
from vaultkit.errors import VaultkitError
from vaultkit.session import jobs

Status = Literal["ok", "warn", "fail"]
LOG_TAIL_BYTES = 64 * 1024
_ERROR_WORDS = ("error", "Error", "Traceback", "failed")


@dataclass(frozen=True, slots=True)
class Check:
    """One doctor finding: what was checked, how it went, and the fix when it is not ok."""

    name: str
    status: Status
    detail: str
    fix: str = ""

    def render(self) -> str:
        line = f"{self.status:<5} {self.name}: {self.detail}"
        return f"{line}\n      fix: {self.fix}" if self.fix and self.status != "ok" else line


class Source(StrEnum):
    startup = "startup"
    clear = "clear"
    resume = "resume"
    compact = "compact"
    fork = "fork"


SourceOpt = Annotated[Source, typer.Option("--source", help="The SessionStart source.")]
SessionOpt = Annotated[str, typer.Option("--session", help="Session id (for --source compact).")]


@app.command()
def restore(
    source: SourceOpt = Source.startup,
    project: ProjectOpt = None,
    session: SessionOpt = "",
    fmt: FormatOpt = OutputFormat.text,
) -> None:
    """Print exactly what the SessionStart hook would inject now (without starting a backfill)."""
    payload: dict[str, object] = {
        "source": source.value,
        "cwd": str(project_dir(project)),
        "session_id": session,
    }
    text = startup.compose(payload, os.environ, spawn=None)
    if not text:
        typer.echo(f"nothing would be injected for source {source.value!r}", err=True)
        return
    typer.echo(startup.envelope(text) if fmt is OutputFormat.json else text)


@app.command()
def doctor(project: ProjectOpt = None) -> None:
    """Check the hooks, the claude CLI, the store, the queue and recent worker results."""
    folder = project_dir(project)
    store = find_store(folder)
    config, config_check = _check_config(store)
    checks = [config_check, *_check_hooks(folder)]
    for name, probe in (
        ("claude CLI", lambda: [_check_claude(config)]),
        ("store", lambda: [_check_store(store)]),
        ("queue", lambda: _check_queue(store, config)),
        ("worker results", lambda: _check_results(store)),
    ):
        checks += _guarded(name, probe)
    for check in checks:
        typer.echo(check.render())
    failed = sum(c.status == "fail" for c in checks)
    warned = sum(c.status == "warn" for c in checks)
    typer.echo(f"{failed} failed, {warned} warning(s), {len(checks) - failed - warned} ok")
    if failed:
        raise typer.Exit(1)


def _guarded(name: str, probe: Callable[[], list[Check]]) -> list[Check]:
    """Run one check; an unreadable file or folder is a failed check, not a crash."""
    try:
        return probe()
    except OSError as exc:
        where = exc.filename or "the store"
        return [Check(name, "fail", f"cannot read {where}: {exc.strerror}", f"repair {where}")]


def _check_config(store: Store) -> tuple[Config, Check]:
    try:
        config = load_config(store.config_file)
    except VaultkitError as exc:
        return Config(), Check(
            "config", "fail", exc.message, exc.hint or f"edit {store.config_file}"
        )
    where = store.config_file if store.config_file.exists() else "defaults (no vaultkit.toml)"
    return config, Check("config", "ok", f"valid: {where}")


def _check_hooks(folder: Path) -> list[Check]:
    rows = [scope_status(scope, folder) for scope in Scope]
    checks = [
        Check(f"hooks ({r.scope})", "fail", r.error, f"fix the JSON in {r.path}")
        for r in rows
        if r.error
    ]
    checks += [
        Check(
            f"hooks ({r.scope})",
            "fail",
            f"{r.path} points at a missing program: {', '.join(r.missing)}",
            f"vaultkit hooks install --scope {r.scope}",
        )
        for r in rows
        if r.missing
    ]
    covered = {event: [r.scope for r in rows if event in r.events] for event in _EVENTS}
    absent = [event for event, scopes in covered.items() if not scopes]
    if absent:
        checks.append(
            Check("hooks", "fail", f"not installed: {', '.join(absent)}", "vaultkit hooks install")
        )
    twice = [f"{e} ({', '.join(s)})" for e, s in covered.items() if len(s) > 1]
    if twice:
        checks.append(
            Check(
                "hooks",
                "warn",
                f"installed in several scopes, so they run twice: {'; '.join(twice)}",
                "vaultkit hooks uninstall --scope SCOPE for all but one",
            )
        )
    if not checks:
        where = ", ".join(f"{e} in {s[0]}" for e, s in covered.items())
        checks.append(Check("hooks", "ok", where))
    return checks


_EVENTS = ("SessionStart", "SessionEnd")


def _check_claude(config: Config) -> Check:
    name = config.distill.claude_path
    found = shutil.which(name)
    if found:
        return Check("claude CLI", "ok", found)
    status: Status = "warn" if config.distill.backend == "claude" else "ok"
    return Check(
        "claude CLI",
        status,
        f"{name!r} is not on PATH (distill backend: {config.distill.backend})",
        'install Claude Code, set [distill] claude_path, or backend = "offline" in vaultkit.toml',
    )


def _check_store(store: Store) -> Check:
    if not store.root.is_dir():
        return Check(
            "store",
            "warn",
            f"{store.root} does not exist yet",
            "it is created when the first session ends; nothing to do",
        )
    try:
        store.state.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=store.state, prefix=".doctor-"):
            pass
    except OSError as exc:
        return Check(
            "store",
            "fail",
            f"{store.state} is not writable: {exc.strerror}",
            f"make {store.root} writable by you (chmod u+w)",
        )
    return Check("store", "ok", f"{store.root} is writable")


def _check_queue(store: Store, config: Config) -> list[Check]:
    queued = jobs.list_jobs(store)
    live = jobs.live_running(store)
    failed_dir = jobs.queue_dir(store) / "failed"
    failed = sorted(failed_dir.glob("*.json")) if failed_dir.is_dir() else []
    checks = []
    if queued and not live:
        checks.append(
            Check(
                "queue",
                "warn",
                f"{len(queued)} session(s) waiting and no worker running",
                "start a Claude Code session here (SessionStart restarts the worker)",
            )
        )
    else:
        checks.append(Check("queue", "ok", f"{len(queued)} queued, {len(live)} worker(s) running"))
    if failed:
        names = ", ".join(p.stem for p in failed[:5])
        checks.append(
            Check(
                "failed jobs",
                "warn",
                f"{len(failed)} session(s) used up their "
                f"{config.distill.max_attempts} attempts: {names}",
                f"read {store.log}, fix the cause, then vaultkit ingest TRANSCRIPT",
            )
        )
    return checks


def _check_results(store: Store) -> list[Check]:
    records = [jobs.read_done(store, p.stem) for p in _done_files(store)[:3]]
    done = [r for r in records if r is not None]
    checks = []
    if done:
        last = done[0]
        status: Status = "ok" if last.quality == "ok" else "warn"
        reason = f" ({last.degraded_reason})" if last.degraded_reason else ""
        checks.append(
            Check(
                "last worker result",
                status,
                f"{last.finished_at} {Path(last.summary_path).name}: {last.quality}{reason}",
                f"the raw transcript is {last.raw_path}; see {store.log}",
            )
        )
    error = _last_log_error(store)
    if error:
        checks.append(Check("log", "warn", error, f"read {store.log}"))
    return checks


def _done_files(store: Store) -> list[Path]:
    folder = jobs.done_dir(store)
    files = list(folder.glob("*.json")) if folder.is_dir() else []
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)


def _last_log_error(store: Store) -> str:
    try:
        with store.log.open("rb") as handle:
            handle.seek(max(0, store.log.stat().st_size - LOG_TAIL_BYTES))
            tail = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    lines = [
        ln for ln in tail.splitlines() if ln.startswith("[") and any(w in ln for w in _ERROR_WORDS)
    ]
    return lines[-1][:300] if lines else ""
