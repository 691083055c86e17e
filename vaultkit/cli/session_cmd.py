"""``vaultkit restore`` (what SessionStart would inject) and ``vaultkit doctor`` (setup check)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal

import typer

from vaultkit import __version__
from vaultkit.agents import doctor as agent_doctor
from vaultkit.agents import known
from vaultkit.base import dist, gitignore, storelinks
from vaultkit.base.config import Config, load_config
from vaultkit.base.store import (
    Store,
    current_branch,
    find_git_root,
    find_store,
    is_project_store,
)
from vaultkit.cli.app import command
from vaultkit.cli.common import project_dir
from vaultkit.cli.options import FormatOpt, OutputFormat, ProjectOpt
from vaultkit.continuity import startup, summaries
from vaultkit.errors import VaultkitError
from vaultkit.session.distill import costs
from vaultkit.session.notes import quality
from vaultkit.session.queue import health, jobs

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


@command("restore")
def restore(
    source: SourceOpt = Source.startup,
    project: ProjectOpt = None,
    session: SessionOpt = "",
    fmt: FormatOpt = OutputFormat.text,
) -> None:
    payload: dict[str, object] = {
        "source": source.value,
        "cwd": str(project_dir(project)),
        "session_id": session,
    }
    text = startup.status_first(
        payload, os.environ, startup.compose(payload, os.environ, spawn=None)
    )
    if source is Source.startup:
        for line in _choice_lines(find_store(project_dir(project)), project_dir(project)):
            typer.echo(line, err=True)  # stdout stays exactly what would be injected
    if not text:
        typer.echo(f"nothing would be injected for source {source.value!r}", err=True)
        return
    typer.echo(startup.envelope(text) if fmt is OutputFormat.json else text)


def _choice(store: Store, folder: Path) -> tuple[str, list[tuple[str, str]]]:
    now = time.time()
    found = summaries.recent_summaries(store, summaries.CANDIDATES, now)
    branch = current_branch(folder)
    return summaries.explain(summaries.latest(store, found, branch, now), branch)


def _choice_lines(store: Store, folder: Path) -> list[str]:
    if not store.summary.is_dir():
        return []
    chosen, passed = _choice(store, folder)
    future = [
        (n, "its file name is dated in the future")
        for n in summaries.future_named(store, time.time())
    ]
    lines = [f"vaultkit: latest session: {chosen}"]
    return lines + [f"vaultkit: passed over: {name}: {why}" for name, why in [*passed, *future]]


@command("doctor")
def doctor(project: ProjectOpt = None, fmt: FormatOpt = OutputFormat.text) -> None:
    folder = project_dir(project)
    store = find_store(folder)
    config, config_check = _check_config(store)
    checks = [config_check, _check_install(), *_check_hooks(folder)]
    for name, probe in (
        (f"{known.DEFAULT} CLI", lambda: [_check_default_cli(config)]),
        ("store", lambda: [_check_store(store), _check_location(store, folder)]),
        ("git", lambda: _check_git(store, config)),
        ("shared links", lambda: _check_links(store)),
        ("latest session", lambda: _check_latest(store, folder)),
        ("queue", lambda: _check_queue(store, config)),
        ("worker results", lambda: _check_results(store)),
        ("distillation", lambda: _check_held(store)),
        ("distillation cost", lambda: [_check_costs(store, config)]),
        ("note quality", lambda: [_check_quality(store)]),
    ):
        checks += _guarded(name, probe)
    failed = sum(c.status == "fail" for c in checks)
    warned = sum(c.status == "warn" for c in checks)
    ok = len(checks) - failed - warned
    if fmt is OutputFormat.json:
        summary = {"failed": failed, "warnings": warned, "ok": ok}
        report = {"checks": [asdict(c) for c in checks], **summary}
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        typer.echo("\n".join(c.render() for c in checks))
        typer.echo(f"{failed} failed, {warned} warning(s), {ok} ok")
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


def _check_install() -> Check:
    """This environment's vaultkit, and a distribution named ``vaultkit`` beside it: another
    project on PyPI (or this one before its rename) that writes the same import package."""

    where = Path(__file__).resolve().parents[1]
    try:
        other = importlib.metadata.distribution("vaultkit")
    except importlib.metadata.PackageNotFoundError:
        return Check("install", "ok", f"{dist.DISTRIBUTION} {__version__} in {where}")
    return Check(
        "install",
        "fail",
        f"a distribution named 'vaultkit' ({other.version}) is installed in this environment"
        f" too: it is another project on PyPI (or vaultkit before its rename to"
        f" {dist.DISTRIBUTION}) and shares the import package {where}",
        f"pip uninstall vaultkit && pip install --force-reinstall {dist.DISTRIBUTION}; or give"
        f" vaultkit an environment of its own: {dist.INSTALL}",
    )


def _check_hooks(folder: Path) -> list[Check]:
    """Every agent's CLI, vaultkit's hooks and their trust (:mod:`vaultkit.agents.doctor`)."""
    return [Check(f.name, f.status, f.detail, f.fix) for f in agent_doctor.findings(folder)]


def _check_default_cli(config: Config) -> Check:
    """The default agent's CLI, the backend ``auto`` falls back to (Claude Code's ``claude``)."""
    agent = known.get(known.DEFAULT)
    spec = known.distill(agent.name)
    if spec is None:
        return Check(f"{agent.name} CLI", "ok", "no distillation CLI")
    name = spec.program(config.distill)
    found = shutil.which(name)
    if found:
        return Check(f"{agent.name} CLI", "ok", found)
    backend = config.distill.backend
    status: Status = "warn" if backend in (agent.name, "auto") else "ok"
    fallback = f": {agent.display} sessions get offline notes" if backend == "auto" else ""
    return Check(
        f"{agent.name} CLI",
        status,
        f"{name!r} is not on PATH (distill backend: {backend}{fallback})",
        spec.INSTALL,
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


def _check_location(store: Store, folder: Path) -> Check:
    if is_project_store(store):
        return Check("store location", "ok", f"the project's own, {store.root}")
    return Check(
        "store location",
        "ok",
        f"{folder} is not a project (no git root, no sessions/ folder): its store is {store.root}",
    )


def _check_git(store: Store, config: Config) -> list[Check]:
    root = find_git_root(store.top)
    if root is None:
        return [Check("git", "ok", f"{store.root} is not in a git repository: nothing is shared")]
    if not shutil.which("git"):
        return [Check("git", "warn", "git is not on PATH, tracking not checked", "install git")]
    return [
        _check_ignore_file(store, config),
        _check_merge(store, Path(root)),
        _check_tracked(store, Path(root), config),
    ]


def _check_ignore_file(store: Store, config: Config) -> Check:
    path = Path(store.at("gitignore"))
    if not store.root.is_dir():
        return Check("gitignore", "ok", f"{path} is written when the store is created")
    try:
        text = path.read_bytes().decode("utf-8", errors="surrogateescape")
    except FileNotFoundError:
        text = None
    wanted = gitignore.merged(text, gitignore.private_parts(config.git.share))
    if text == wanted:
        shared = ", ".join(f"{p}/" for p in config.git.share) or "nothing"
        private = ", ".join(f"{p}/" for p in gitignore.private_parts(config.git.share))
        return Check("gitignore", "ok", f"{path} shares {shared}; {private} stay private")
    state = "missing" if text is None else "not what [git] share says"
    return Check(
        "gitignore",
        "warn",
        f"{path} is {state}",
        "the next worker run writes it (end a session here, or vaultkit ingest TRANSCRIPT)",
    )


def _check_merge(store: Store, root: Path) -> Check:
    """What git itself says about merging INDEX.md here (``git check-attr``), so a user's own
    ``.gitattributes`` that overrides the store's is seen too."""
    index = Path(os.path.relpath(store.at("index"), root)).as_posix()
    done = subprocess.run(
        ["git", "-C", str(root), "check-attr", "merge", "--", index],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    value = done.stdout.strip().rsplit(": ", 1)[-1] if done.returncode == 0 else ""
    if value == "union":
        return Check("git merge", "ok", f"{index} merges as a union: two clones never conflict")
    if not os.path.exists(store.at("gitattributes")) and not store.root.is_dir():
        return Check("git merge", "ok", f"{store.at('gitattributes')} is written with the store")
    return Check(
        "git merge",
        "warn",
        f"git merges {index} with {value or 'an unknown driver'}, not as a union: "
        "two clones that record sessions will conflict in it",
        f"the next worker run writes {store.at('gitattributes')}; remove any line of your own"
        " that sets merge for it",
    )


def _check_tracked(store: Store, root: Path, config: Config) -> Check:
    """Private parts already in git's index (``.gitignore`` does not untrack them)."""
    base = Path(os.path.relpath(store.top, root)).as_posix()
    private = [f"{base}/{part}" for part in gitignore.private_parts(config.git.share)]
    done = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--", *private],
        capture_output=True,
        timeout=60,
        check=False,
    )
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()[:1]
        return Check("git tracked", "warn", f"git ls-files failed in {root}: {''.join(why)}")
    files = [f for f in done.stdout.decode(errors="replace").split("\0") if f]
    parts = sorted({p for p in private for f in files if f.startswith(p + "/")})
    if not parts:
        return Check("git tracked", "ok", f"no private part of {base}/ is tracked by git")
    command = " ".join(["git", "-C", shlex.quote(str(root)), "rm", "-r", "--cached", "--"])
    return Check(
        "git tracked",
        "fail",
        f"{len(files)} private file(s) tracked by git in {', '.join(p + '/' for p in parts)}",
        f"{command} {' '.join(shlex.quote(p) for p in parts)}  (then commit)",
    )


def _check_links(store: Store) -> list[Check]:
    """Links in the shared folders that vaultkit refuses to follow (a teammate's or a broken
    commit): each with its target and the command that removes it."""
    if not store.root.is_dir():
        return []
    checks = []
    linked = storelinks.linked_store(store)
    if linked is not None:  # a committed link is a teammate's doing; the user's own may be meant
        link, tracked = linked
        status: Status = "fail" if tracked else "warn"
        checks.append(Check("store link", status, f"{link.path} {link.reason}", link.fix))
    refused = storelinks.refused_links(store)
    if not refused:
        fine = "no link in wiki/, summary/ or transcripts/ leaves the store"
        return [*checks, Check("shared links", "ok", fine)]
    return checks + [
        Check("shared link", "fail", f"{r.path} {r.reason}; vaultkit does not read it", r.fix)
        for r in refused
    ]


def _check_latest(store: Store, folder: Path) -> list[Check]:
    """Which summary SessionStart leads with and why; each summary passed over (a date in the
    future, or one at odds with its name or its session) and what to do about it."""
    if not store.summary.is_dir():
        return []
    chosen, passed = _choice(store, folder)
    checks = [Check("latest session", "ok", chosen)]
    future = summaries.future_named(store, time.time())
    for name, why in [*passed, *((n, "its file name is dated in the future") for n in future)]:
        fix = (
            f"correct the date of {store.summary / name}, or remove it (it is not shown as latest)"
        )
        checks.append(Check("passed over", "warn", f"{name}: {why}", fix))
    return checks


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
    checks.extend(_check_junk(store))
    if failed:
        names = ", ".join(p.stem for p in failed[:5])
        checks.append(
            Check(
                "failed jobs",
                "warn",
                f"{len(failed)} session(s) used up their "
                f"{config.distill.max_attempts} attempts: {names}",
                f"read {store.log}, fix the cause, then {_ingest_commands(failed)}",
            )
        )
    return checks


def _check_junk(store: Store) -> list[Check]:
    """Queue files that hold no job: set aside by the runner, or waiting for its next pass."""

    folder = jobs.queue_dir(store) / jobs.JUNK
    aside, waiting = jobs.junk_count(store), len(jobs.unreadable(store))
    if not aside and not waiting:
        return []
    detail = f"{aside} file(s) that held no job set aside in {folder}"
    if waiting:
        detail += f"; {waiting} more in the queue (the next worker sets them aside)"
    fix = f"read them, then remove them: rm -r {shlex.quote(str(folder))}"
    return [Check("queue junk", "warn", detail, fix)]


def _ingest_commands(failed: list[Path]) -> str:
    """``vaultkit ingest PATH`` for the first set-aside jobs (their transcripts, quoted)."""

    found = [jobs.read_job(path) for path in failed[:3]]
    paths = [shlex.quote(job.transcript_path) for job in found if job is not None]
    commands = [f"vaultkit ingest {path}" for path in paths] or ["vaultkit ingest TRANSCRIPT"]
    return "; ".join(commands)


def _check_held(store: Store) -> list[Check]:
    """Sessions queued again after a failure, or kept queued for the config or the budget."""
    facts = health.queue_facts(store, time.time())
    checks = []
    if facts.retrying:
        checks.append(
            Check(
                "distillation",
                "warn",
                f"{facts.retrying} session(s) queued again after failing: {facts.reason}",
                "fix the cause (`claude` login or quota, distill.* in vaultkit.toml); "
                "the next session start retries them",
            )
        )
    if facts.config:
        checks.append(
            Check(
                "distillation",
                "warn",
                f"{facts.config} session(s) archived but waiting for vaultkit.toml to be fixed",
                f"fix {store.config_file} (see the config line above)",
            )
        )
    return checks


def _check_costs(store: Store, config: Config) -> Check:
    """Sessions distilled, tokens and cost today and this month, from the cost log."""
    today = datetime.now().astimezone().date().isoformat()
    day, month = costs.totals(store, today), costs.totals(store, today[:7])
    cap = config.distill.daily_budget
    detail = costs.cost_line(day, month, cap)
    if cap > 0 and day.cost_usd >= cap:
        return Check(
            "distillation cost",
            "warn",
            f"{detail}: reached, sessions get offline notes until tomorrow",
            "raise [distill] daily_budget in vaultkit.toml, or wait for tomorrow",
        )
    return Check("distillation cost", "ok", detail)


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


def _check_quality(store: Store) -> Check:
    """The share of this week's session notes written degraded, and why (:mod:`quality`)."""
    week = quality.week_quality(store, datetime.now())
    if not week.notes:
        return Check("note quality", "ok", "no session notes in the last 7 days")
    share = f"{week.degraded} of {week.notes} session notes of the last 7 days are degraded"
    if not week.degraded:
        return Check("note quality", "ok", f"{share}")
    why = ", ".join(f"{reason} {n}" for reason, n in week.reasons.items())
    detail = f"{share} ({week.share:.0%}): {why}"
    if not week.unexpected:  # the offline backend by choice, or transcripts with nothing in them
        return Check("note quality", "ok", detail)
    return Check(
        "note quality",
        "warn",
        detail,
        f"see degraded_reason in the notes and {store.log}; echoed-template or"
        " instruction-title means the backend answered with its prompt: check [distill] in"
        " vaultkit.toml (backend, command, model)",
    )


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
