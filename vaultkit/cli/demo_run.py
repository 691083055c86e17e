"""``vaultkit demo``'s body: one recorded session through the real hooks, offline, in a temporary
project, and what came out of it (the note, its INDEX line, what the next session is given).

Everything happens under one temporary folder: the project and its store, and a home of its own
(``HOME``, ``CLAUDE_CONFIG_DIR``, ``VAULTKIT_HOME``, the XDG folders, ``TMPDIR``) for the hook
processes and the worker they start, so nothing is written anywhere else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import vaultkit
from vaultkit.agents import hookcmd, install
from vaultkit.base import dist
from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.queue import jobs, runlock

SESSION = "e0c4b9f7-3d8a-4e6c-b5f1-8a2d9c4e7b10"  # examples/: "Currency conversion cache"
RECORDED = f"2026-11-20_0915_{SESSION}.jsonl"
RECORDED_CWD = "/home/mina/src/ledgerline"  # where it was recorded; the demo's project instead
BRANCH = "feat/fx-cache"  # the recorded session's branch, so the next session is on it too
NEXT = "0d3e5f70-0000-4000-8000-000000000001"  # the session that starts after it
WAIT_SECONDS = 60.0
# The child's own variables that would make the hooks stand down or look elsewhere.
DROPPED = ("VAULTKIT_CHILD", "CLAUDE_WIKI_CHILD", "CLAUDECODE", "CLAUDE_PROJECT_DIR")


@dataclass(frozen=True, slots=True)
class Demo:
    """What one demo run made: where, the note, its INDEX.md line, the next session's text."""

    root: Path
    project: Path
    note: Path
    note_text: str
    index_line: str
    next_session: str
    distilled_seconds: float  # from the SessionEnd hook's start to the notes being written
    seconds: float  # the whole run


def recorded_session() -> Path:
    """The recorded transcript: in the wheel (``vaultkit/_examples/``) or the repository."""
    package = Path(vaultkit.__file__).resolve().parent
    candidates = (
        package / "_examples" / RECORDED,
        package.parent / "examples/sessions/raw" / RECORDED,
    )
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise VaultkitError(
        f"the demo's recorded session is missing (looked for {candidates[0]})",
        hint=f"reinstall vaultkit: pip install --force-reinstall {dist.DISTRIBUTION}",
    )


def environment(root: Path) -> dict[str, str]:
    """The hooks' environment: this one, with a home, data and temp folders inside ``root``."""
    home = root / "home"
    env = {k: v for k, v in os.environ.items() if k not in DROPPED and not k.startswith("XDG_")}
    env.update(
        HOME=str(home),
        USERPROFILE=str(home),
        CLAUDE_CONFIG_DIR=str(home / ".claude"),
        CODEX_HOME=str(home / ".codex"),
        GEMINI_CLI_HOME=str(home),
        VAULTKIT_HOME=str(root / "data"),
        XDG_DATA_HOME=str(home / ".local/share"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local/state"),
        TMPDIR=str(root / "tmp"),
        VAULTKIT_SETTLE_SECONDS="0.2",  # the transcript is complete: no need to wait for writes
    )
    for folder in (home, root / "data", root / "tmp"):
        folder.mkdir(parents=True, exist_ok=True)
    return env


def make_project(project: Path, env: dict[str, str]) -> Store:
    """A git project on the recorded branch, with a store set to the offline distiller."""
    project.mkdir(parents=True)
    git = shutil.which("git", path=env.get("PATH"))
    made = git is not None and _run([git, "init", "-q", "-b", BRANCH], project, env).returncode == 0
    if not made:  # no git here: the folder still reads as a git root on that branch
        (project / ".git").mkdir(exist_ok=True)
        (project / ".git" / "HEAD").write_text(f"ref: refs/heads/{BRANCH}\n", encoding="utf-8")
    store = Store(project / "sessions")
    store.root.mkdir()
    store.config_file.write_text('[distill]\nbackend = "offline"\n', encoding="utf-8")
    return store


def place_transcript(project: Path, env: dict[str, str]) -> Path:
    """The recorded transcript where Claude Code keeps this project's, its cwd made the
    project's."""
    munged = "".join(c if c.isalnum() else "-" for c in str(project))
    target = Path(env["CLAUDE_CONFIG_DIR"]) / "projects" / munged / f"{SESSION}.jsonl"
    target.parent.mkdir(parents=True)
    recorded = recorded_session().read_text(encoding="utf-8")
    cwd = json.dumps(str(project))[1:-1]
    target.write_text(recorded.replace(RECORDED_CWD, cwd), encoding="utf-8")
    return target


def hook_words() -> tuple[str, ...]:
    """The command ``vaultkit hooks install`` writes for the user scope (this environment's)."""
    script = install.hook_executable()
    words = hookcmd.hook_command(sys.executable, str(script))
    if words == (str(script),) and not script.is_file():
        return (sys.executable, "-m", "vaultkit.hookentry")
    return words


def _run(
    argv: list[str], cwd: Path, env: dict[str, str], stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, input=stdin, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def hook(event: str, payload: dict[str, str], project: Path, env: dict[str, str]) -> str:
    """Run one real hook process; its stdout (a failure is an error naming the event)."""
    done = _run([*hook_words(), event], project, env, json.dumps(payload))
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip() or f"exit {done.returncode}"
        raise VaultkitError(f"the {event} hook failed: {said}")
    return done.stdout


def context_text(output: str) -> str:
    """What a SessionStart hook's output gives the agent: the ``additionalContext`` of its JSON
    form, else the text itself."""
    try:
        data = json.loads(output)
    except ValueError:
        return output
    specific = data.get("hookSpecificOutput") if isinstance(data, dict) else None
    text = specific.get("additionalContext") if isinstance(specific, dict) else None
    return text if isinstance(text, str) else output


def wait_distilled(store: Store, deadline: float) -> jobs.Done:
    """The worker's record of the demo session, once it has written the notes."""
    while time.monotonic() < deadline:
        done = jobs.read_done(store, SESSION)
        if done is not None:
            return done
        time.sleep(0.05)
    raise VaultkitError(
        f"the worker did not distil the demo session within {WAIT_SECONDS:.0f} s",
        hint=f"see {store.log} (run with --keep to look at the project)",
    )


def wait_runner_gone(store: Store, deadline: float) -> None:
    """Wait for the queue runner to exit, so nothing writes into the folder once it is removed."""
    while runlock.runner_alive(store) and time.monotonic() < deadline:
        time.sleep(0.05)


def index_line(store: Store, note: Path) -> str:
    """The note's line in ``wiki/INDEX.md``."""
    text = (store.wiki / "INDEX.md").read_text(encoding="utf-8")
    found = [line for line in text.splitlines() if f"[[{note.stem}" in line]
    return found[0] if found else ""


def run(root: Path) -> Demo:
    """The demo in ``root`` (an empty folder): a session ends, the worker distils it, the next
    session starts."""
    began = time.monotonic()
    env = environment(root)
    project = root / "ledgerline"
    store = make_project(project, env)
    transcript = place_transcript(project, env)
    common = {"session_id": SESSION, "transcript_path": str(transcript), "cwd": str(project)}
    ended = time.monotonic()
    hook("SessionEnd", {**common, "hook_event_name": "SessionEnd", "reason": "exit"}, project, env)
    done = wait_distilled(store, ended + WAIT_SECONDS)
    distilled = time.monotonic() - ended
    note = store.root / done.wiki_path
    later = transcript.with_name(f"{NEXT}.jsonl")  # the next session's, not written yet
    nxt = {"session_id": NEXT, "transcript_path": str(later), "cwd": str(project)}
    given = hook(
        "SessionStart",
        {**nxt, "hook_event_name": "SessionStart", "source": "startup"},
        project,
        env,
    )
    wait_runner_gone(store, time.monotonic() + WAIT_SECONDS)
    return Demo(
        root,
        project,
        note,
        note.read_text(encoding="utf-8"),
        index_line(store, note),
        context_text(given),
        distilled,
        time.monotonic() - began,
    )
