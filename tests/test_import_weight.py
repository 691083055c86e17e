"""A hook process loads only the standard library and lean vaultkit modules (proved, not assumed).

Each hook runs as a real process under ``python -X importtime``, which reports every module the
process imports; heavy libraries must not appear. The SessionEnd and SessionStart processes,
run through the command ``vaultkit hooks install`` writes, exactly as Claude Code runs them, must
not load the slow standard-library modules either (issue 7: each hook within 3x
``python -c pass``). The worker the SessionEnd hook spawns is a separate process and may import
what it needs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hook_start_support import add_session, write_index
from hook_start_support import make_project as make_start_project
from worker_support import (
    claude_projects,
    exited,
    fixture_session_id,
    hook_env,
    make_project,
    payload_bytes,
    spawned_pids,
    wait_for,
    write_transcript,
)

from vaultkit.agents import hookcmd
from vaultkit.base.store import Store

FORBIDDEN = {"typer", "click", "networkx", "markdown_it", "yaml", "frontmatter", "rich"}
# Standard-library modules a lean hook process does without (each costs milliseconds, most of
# them pull in more: dataclasses -> inspect -> ast/dis, pathlib -> urllib -> ipaddress, ...).
SLOW_STDLIB = {
    "dataclasses",
    "inspect",
    "typing",
    "pathlib",
    "tempfile",
    "shutil",
    "random",
    "urllib",
    "ipaddress",
    "tomllib",
    "datetime",
    "contextlib",
    "subprocess",
    "unicodedata",
    "runpy",
}
HOOKS = Path(__file__).resolve().parent.parent / "vaultkit" / "hooks"
SCRIPT = Path(sys.executable).parent / "vaultkit-hook"  # pip's script (Codex and Gemini hooks)
# What `vaultkit hooks install` writes for Claude: this Python, -I -S …/vaultkit/vaultkit_hook.py.
INSTALLED = hookcmd.hook_command(sys.executable, "vaultkit-hook")
assert INSTALLED[0] == sys.executable, INSTALLED


def _events() -> list[str]:
    names = [p.stem for p in HOOKS.glob("*.py") if p.stem not in ("__init__", "common")]
    return sorted("".join(part.title() for part in name.split("_")) for name in names)


def imported_modules(
    event: str, stdin: bytes, cwd: Path, *, entry: tuple[str, ...] = ("-m", "vaultkit.hookentry")
) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *entry, event],
        input=stdin,
        cwd=cwd,
        env=hook_env(VAULTKIT_SETTLE_SECONDS="0.05"),
        capture_output=True,
        timeout=30,
        check=True,
    )
    lines = done.stderr.decode().splitlines()
    rows = [line.split("|")[-1].strip() for line in lines if line.startswith("import time:")]
    return {row for row in rows if row and row != "package"}


def test_events_are_discovered() -> None:
    assert "SessionEnd" in _events()


@pytest.mark.parametrize("event", _events())
def test_hook_process_imports_no_heavy_library(event: str, tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    missing = tmp_path / "never-written.jsonl"  # the spawned worker drops the job at once
    stdin = payload_bytes("session_end_other.json", missing, project)
    stdin = stdin.replace(b'"SessionEnd"', f'"{event}"'.encode())
    modules = imported_modules(event, stdin, project)
    handler = "vaultkit.hooks." + "".join(
        f"_{c.lower()}" if c.isupper() else c for c in event
    ).lstrip("_")
    assert handler in modules, "the handler itself must have run"
    heavy = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)
    assert heavy == []
    assert not any(m.startswith("vaultkit.cli") for m in modules)
    pids = spawned_pids(Store(project / "sessions"))
    wait_for(lambda: all(exited(pid) for pid in pids), 10, "spawned workers to exit")


def test_the_check_would_notice_a_heavy_import(tmp_path: Path) -> None:
    """The same measurement on a typer command does see typer and click, so the test can fail
    (``vaultkit version`` no longer loads typer: it is answered before the CLI is imported)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "vaultkit", "hooks", "--help"],
        capture_output=True,
        timeout=30,
        check=True,
    )
    assert "typer" in done.stderr.decode()
    assert "click" in done.stderr.decode()


def _slow(modules: set[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules} & SLOW_STDLIB)


# The first hook run after vaultkit.toml changed parses it: tomllib and what it imports. Every
# later run reads the parse from the hooks' cache (vaultkit.base.config.load_cached).
TOML_PARSE = ["contextlib", "datetime", "tomllib", "typing"]


def test_session_end_process_loads_no_slow_stdlib_module(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    seen = []
    for sid in ("s-lean-1", "s-lean-2"):
        transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
        stdin = payload_bytes("session_end_other.json", transcript, project)
        stdin = stdin.replace(fixture_session_id("session_end_other.json").encode(), sid.encode())
        modules = imported_modules("SessionEnd", stdin, project, entry=INSTALLED[1:])
        assert "vaultkit.hooks.session_end" in modules
        assert "vaultkit.session.queue.spawn" in modules, "the worker was started"
        seen.append(_slow(modules))
    assert seen == [TOML_PARSE, []]
    pids = spawned_pids(Store(project / "sessions"))
    wait_for(lambda: all(exited(pid) for pid in pids), 30, "spawned workers to exit")


def test_session_start_process_loads_no_slow_stdlib_module(tmp_path: Path) -> None:
    """``startup`` in a store with summaries, wiki notes, INDEX.md and a vaultkit.toml: the whole
    injection is built."""
    project = make_start_project(tmp_path / "proj")
    names = [add_session(project, 20 + i, "0900", f"sess{i}aaa", f"Work {i}") for i in range(4)]
    write_index(project, names)
    (project / "sessions" / "vaultkit.toml").write_text("[inject]\nrecent = 2\n")
    stdin = json.dumps({"session_id": "now", "cwd": str(project), "source": "startup"}).encode()
    seen = []
    for _ in range(2):
        modules = imported_modules("SessionStart", stdin, project, entry=INSTALLED[1:])
        assert "vaultkit.hooks.session_start" in modules
        assert "vaultkit.continuity.inject" in modules, "the injection was built"
        seen.append(_slow(modules))
    assert seen == [TOML_PARSE, []]


def test_the_slow_stdlib_check_would_notice_a_slow_import() -> None:
    """The same measurement on a process that imports dataclasses and pathlib reports them."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import dataclasses, pathlib"],
        capture_output=True,
        timeout=30,
        check=True,
    )
    rows = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()}
    assert {"dataclasses", "inspect", "pathlib", "urllib"} <= set(_slow(rows))
