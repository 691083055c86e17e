"""A fourth agent, defined only here, runs through the whole pipeline with one registry line.

The agent ("fourth") is a package written into a temporary folder — its lean part, its reader and
its hook file — and registered with the one line an agent needs (``known.AGENTS[name] =
package``), run by a ``sitecustomize`` on the test's ``PYTHONPATH`` so that every process
vaultkit starts (the CLI, the hook, the detached worker the hook spawns) sees it. Nothing else
in vaultkit is touched: ``vaultkit hooks install --agent fourth`` writes its hook file, its
SessionEnd queues the session and the worker archives it (the raw copy and the notes), and its
SessionStart injects the memory in the agent's own format (plain stdout, not JSON); ``vaultkit
doctor`` reports its hooks with the shared findings (it has no ``doctor`` part).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from worker_support import exited, hook_env, log_text, make_project, spawned_pids, wait_for

from vaultkit.base.store import Store

NAME = "fourth"
PACKAGE = "vk_fourth"
SID = "f0f0f0f0-4444-4444-8444-444444444444"

LEAN = '''"""Fourth CLI: its adapter value and the checks a hook makes of its transcripts."""

import os

from vaultkit.agents.adapter import STDOUT_ONLY, Agent, owned_problem
from vaultkit.base import leanjson

AGENT = Agent(
    name="fourth",
    display="Fourth CLI 1.0",
    dir_env="FOURTH_HOME",
    home_env="",
    home_default=".fourth",
    hook_file="hooks.json",
    project_hook_file=".fourth/hooks.json",
    start_event="SessionStart",
    end_event="SessionEnd",
    turn_event="",
    start_sources=("startup",),
    end_reasons=("quit",),
    transcript_glob="logs/*.jsonl",
    injection=STDOUT_ONLY,
    timeout_unit="s",
    child_argv=("fourth",),
    trust="",
    tag="fourth",
)


def session_id_from_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def path_problem(path, env):
    return owned_problem(AGENT, path, env)


def head_problem(head):
    first = head.partition(b"\\n")[0]
    try:
        value = leanjson.loads(first)
    except ValueError:
        return "line 1 is not JSON"
    ok = isinstance(value, dict) and isinstance(value.get("fourth_session"), str)
    return None if ok else "its first line is not a Fourth header"


def is_exit(record):
    return record.get("kind") == "bye"


def record_session_id(record):
    value = record.get("fourth_session")
    return value if isinstance(value, str) else ""
'''

READER = '''"""Fourth CLI's transcript: a header, then user and assistant lines."""

from vaultkit.agents.adapter import ASSISTANT, META, USER, Entry, first_branch
from vaultkit.agents.jsonlines import iter_objects


def read(path, tally=None):
    for record in iter_objects(path, tally=tally):
        if record is None:
            continue
        if "fourth_session" in record:
            yield Entry(META, cwd=record.get("cwd", ""), git_branch=record.get("branch", ""))
        elif record.get("kind") in (USER, ASSISTANT):
            yield Entry(record["kind"], text=record.get("text", ""))


def git_branch(path):
    return first_branch(read(path))
'''

HOOKS = '''"""Fourth CLI's hook file: ``$FOURTH_HOME/hooks.json``, in the shape the others use."""

import shlex
import sys
from pathlib import Path

from vaultkit.agents import hookcmd, hookmerge
from vaultkit.agents.adapter import config_dir
from vaultkit.agents.install import (
    Change, Scope, apply_change, file_status, installed_hook_executable, read_text,
)
from vk_fourth import AGENT

SCOPES = (Scope.user,)
EVENTS = (AGENT.start_event, AGENT.end_event)


def parse(text, where):
    return hookmerge.parse(text, where, EVENTS)


def _entry(words, event):
    command = " ".join(shlex.quote(w) for w in (*words, event, "--agent", AGENT.name))
    return {"type": "command", "command": command}


def hook_path(scope, project, env=None):
    return Path(config_dir(AGENT, env)) / AGENT.hook_file


def install_scope(scope, project, *, dry_run, options):
    words = hookcmd.hook_command(sys.executable, str(installed_hook_executable()))
    wanted = {event: _entry(words, event) for event in EVENTS}
    change = apply_change(
        hook_path(scope, project), lambda d: hookmerge.install(d, wanted), dry_run=dry_run,
        parse=parse,
    )
    return Change(change.path, change.changed, change.diff, notes=("Fourth needs no trust.",))


def uninstall_scope(scope, project, *, dry_run):
    path = hook_path(scope, project)
    return apply_change(path, hookmerge.uninstall, dry_run=dry_run, parse=parse)


def scope_status(scope, project):
    return file_status(hook_path(scope, project), scope, parse, AGENT.name)


def hook_data(scope, project):
    path = hook_path(scope, project)
    return path, parse(read_text(path) or "", str(path))
'''

REGISTER = f"""from vaultkit.agents import known

known.AGENTS[{NAME!r}] = {PACKAGE!r}  # the one registry line a new agent needs
"""


@pytest.fixture
def agent_env(tmp_path: Path) -> dict[str, str]:
    """The environment of every process: the fourth agent's package and its registration on
    ``PYTHONPATH``, its config folder, a fast settle."""
    folder = tmp_path / "agent-package"
    package = folder / PACKAGE
    package.mkdir(parents=True)
    for name, text in (("__init__", LEAN), ("reader", READER), ("hooks", HOOKS)):
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    (folder / "sitecustomize.py").write_text(REGISTER, encoding="utf-8")
    home = tmp_path / "fourth-home"
    return hook_env(PYTHONPATH=str(folder), FOURTH_HOME=str(home))


def _run(
    args: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b""
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, *args], input=stdin, cwd=cwd, env=env, capture_output=True, timeout=60
    )


def _transcript(env: dict[str, str], project: Path) -> Path:
    path = Path(env["FOURTH_HOME"]) / "logs" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    lines = [
        {"fourth_session": SID, "cwd": str(project), "branch": "main"},
        {"kind": "user", "text": "Teach the parser fourth-style links"},
        {"kind": "assistant", "text": "Done: the parser reads them now."},
        {"kind": "bye"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_registration_reaches_every_process(agent_env: dict[str, str], tmp_path: Path) -> None:
    code = "from vaultkit.agents import known; print(known.get('fourth').display)"
    done = _run(["-c", code], tmp_path, agent_env)
    assert done.stdout.decode().strip() == "Fourth CLI 1.0", done.stderr.decode()
    without = _run(["-c", code], tmp_path, hook_env())
    assert without.returncode != 0 and b"KeyError" in without.stderr, "only the test registers it"


def test_hooks_install_writes_the_fourth_agents_hook_file(
    agent_env: dict[str, str], tmp_path: Path
) -> None:
    project = make_project(tmp_path / "proj")
    done = _run(["-m", "vaultkit", "hooks", "install", "--agent", NAME], project, agent_env)
    assert done.returncode == 0, done.stderr.decode()
    hooks_file = Path(agent_env["FOURTH_HOME"]) / "hooks.json"
    assert f"installed vaultkit hooks in {hooks_file}" in done.stdout.decode()
    assert "Fourth needs no trust." in done.stdout.decode()
    data = json.loads(hooks_file.read_text(encoding="utf-8"))
    commands = [data["hooks"][e][0]["hooks"][0]["command"] for e in ("SessionStart", "SessionEnd")]
    assert all(c.endswith(f"--agent {NAME}") and "vaultkit_hook.py" in c for c in commands)
    status = _run(["-m", "vaultkit", "hooks", "status", "--agent", NAME], project, agent_env)
    assert f"fourth user {hooks_file}" in status.stdout.decode()
    assert "SessionEnd:" in status.stdout.decode() and "(ok)" in status.stdout.decode()
    again = _run(["-m", "vaultkit", "hooks", "install", "--agent", NAME], project, agent_env)
    assert "already up to date" in again.stdout.decode()
    doctor = _run(["-m", "vaultkit", "doctor"], project, agent_env).stdout.decode()
    assert f"ok    hooks (fourth user): SessionStart, SessionEnd in {hooks_file}" in doctor
    assert "warn  fourth CLI: 'fourth' is not on PATH" in doctor, "no doctor part: the shared one"
    local = _run(
        ["-m", "vaultkit", "hooks", "install", "--agent", NAME, "--scope", "local"],
        project,
        agent_env,
    )
    assert local.returncode != 0
    assert "--scope local is Claude Code's only; Fourth CLI 1.0 has user" in local.stderr.decode()


def test_session_end_archives_and_session_start_injects_in_its_own_format(
    agent_env: dict[str, str], tmp_path: Path
) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    transcript = _transcript(agent_env, project)
    end = {
        "session_id": SID,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "SessionEnd",
        "reason": "quit",
    }
    hook = ["-m", "vaultkit.hookentry"]
    done = _run(
        [*hook, "SessionEnd", "--agent", NAME], project, agent_env, json.dumps(end).encode()
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert f"SessionEnd {SID} (quit, fourth): queued" in log_text(store)
    wait_for(lambda: list((store.root / "summary").glob("*.md")), 60, "the summary note")
    wait_for(lambda: all(exited(pid) for pid in spawned_pids(store)), 30, "the worker to exit")
    [raw] = (store.root / "raw").glob(f"*{SID}*.jsonl")
    assert raw.read_bytes() == transcript.read_bytes(), "the transcript archived verbatim"
    [summary] = (store.root / "summary").glob("*.md")
    note = summary.read_text(encoding="utf-8")
    assert "agent: fourth" in note and "Teach the parser fourth-style links" in note
    assert "git_branch: main" in note, "the branch its reader found"

    start = {"session_id": "next", "cwd": str(project), "source": "startup"}
    shown = _run(
        [*hook, "SessionStart", "--agent", NAME], project, agent_env, json.dumps(start).encode()
    )
    assert shown.returncode == 0 and shown.stderr == b""
    text = shown.stdout.decode()
    assert "Teach the parser fourth-style links" in text, "the memory is injected"
    assert not text.lstrip().startswith("{"), "STDOUT_ONLY: plain text, not the JSON envelope"


def test_the_fourth_agent_is_named_by_no_vaultkit_module() -> None:
    """Everything above ran without a vaultkit module knowing the agent (the check can see a
    name: it finds the three agents vaultkit ships)."""
    package = Path(__file__).resolve().parents[2] / "vaultkit"
    texts = {p: p.read_text(encoding="utf-8").lower() for p in package.rglob("*.py")}
    assert [p for p, text in texts.items() if NAME in text] == []
    assert any(f'"{name}"' in t for t in texts.values() for name in ("claude", "codex", "gemini"))
