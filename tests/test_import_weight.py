"""A hook process loads only the standard library and lean vaultkit modules (proved, not assumed).

Each hook runs as a real process under ``python -X importtime``, which reports every module the
process imports; heavy libraries must not appear. The worker the SessionEnd hook spawns is a
separate process and may import what it needs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_worker_support import (
    exited,
    hook_env,
    make_project,
    payload_bytes,
    spawned_pids,
    wait_for,
)

from vaultkit.store import Store

FORBIDDEN = {"typer", "click", "networkx", "markdown_it", "yaml", "frontmatter", "rich"}
HOOKS = Path(__file__).resolve().parent.parent / "vaultkit" / "hooks"


def _events() -> list[str]:
    names = [p.stem for p in HOOKS.glob("*.py") if p.stem not in ("__init__", "common")]
    return sorted("".join(part.title() for part in name.split("_")) for name in names)


def imported_modules(event: str, stdin: bytes, cwd: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "vaultkit.hookentry", event],
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
    """The same measurement on the full CLI does see typer and click, so the test can fail."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "vaultkit", "version"],
        capture_output=True,
        timeout=30,
        check=True,
    )
    assert "typer" in done.stderr.decode()
    assert "click" in done.stderr.decode()
