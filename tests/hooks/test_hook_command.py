"""The hook command ``hooks install`` writes (``python -I -S …/vaultkit/vaultkit_hook.py EVENT``):
built from the running interpreter and package, recognised as vaultkit's own, runnable from a
copy of the package outside any site-packages (a non-editable install), and lean: a SessionEnd
through it loads neither ``site`` nor ``re``, ``enum`` or ``json``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from worker_support import (
    claude_projects,
    exited,
    hook_env,
    log_text,
    make_project,
    queued,
    spawned_pids,
    wait_for,
    write_transcript,
)

import vaultkit
from vaultkit.agents import hookcmd, hookmerge, registration
from vaultkit.agents.claude import settings
from vaultkit.base.store import Store

PACKAGE = Path(vaultkit.__file__).resolve().parent
SCRIPT = str(Path(sys.executable).parent / "vaultkit-hook")
ENTRY = str(PACKAGE / "vaultkit_hook.py")
# What a lean SessionEnd does without: site (the .pth files), and what json and the console
# script would bring (re, enum and the modules they pull in).
NOT_LOADED = {"site", "re", "enum", "json", "fnmatch", "functools", "collections", "typing"}


def test_the_command_is_this_python_isolated_on_the_package_entry_file() -> None:
    assert hookcmd.hook_command(sys.executable, SCRIPT) == (sys.executable, "-I", "-S", ENTRY)
    assert Path(ENTRY).is_file()


@pytest.mark.parametrize("python", ["", "python3", "/no/such/python"])
def test_without_a_usable_interpreter_path_the_console_script_is_the_command(python: str) -> None:
    assert hookcmd.hook_command(python, SCRIPT) == (SCRIPT,)


def test_the_mark_is_one_registration_knows() -> None:
    assert hookcmd.MARK in registration.MARKS and hookcmd.MARK in Path(ENTRY).name


def test_exec_and_shell_forms_are_recognised_installed_once_and_removed() -> None:
    command = hookcmd.hook_command(sys.executable, SCRIPT)
    for shell_form in (False, True):
        data = settings.install({}, command, shell_form=shell_form)
        assert settings.install(data, command, shell_form=shell_form) == data
        hook = data["hooks"]["SessionEnd"][0]["hooks"][0]
        assert hookmerge.is_vaultkit(hook) and registration.registers(data, "SessionEnd")
        assert settings.executable_of(hook) == ENTRY
        assert settings.uninstall(data) == {}
    foreign = {"type": "command", "command": sys.executable, "args": ["-I", "tool.py"]}
    assert not hookmerge.is_vaultkit(foreign)


def _end_payload(sid: str, transcript: Path, project: Path) -> bytes:
    data = {"session_id": sid, "transcript_path": str(transcript), "cwd": str(project),
            "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"}  # fmt: skip
    return json.dumps(data).encode()


def _project(tmp_path: Path) -> Path:
    project = make_project(tmp_path / "proj")
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    return project


def _end(argv: list[str], sid: str, project: Path) -> subprocess.CompletedProcess[bytes]:
    transcript = write_transcript(claude_projects() / f"{sid}.jsonl", sid)
    return subprocess.run(
        [*argv, "SessionEnd"],
        input=_end_payload(sid, transcript, project),
        cwd=project,
        env=hook_env(VAULTKIT_SETTLE_SECONDS="0.05"),
        capture_output=True,
        timeout=30,
        check=False,
    )


def _settle(store: Store) -> None:
    pids = spawned_pids(store)
    wait_for(lambda: all(exited(pid) for pid in pids), 30, "spawned workers to exit")


def test_a_session_end_through_it_queues_and_loads_no_site_re_or_json(tmp_path: Path) -> None:
    project = _project(tmp_path)
    store = Store(project / "sessions")
    python, *rest = hookcmd.hook_command(sys.executable, SCRIPT)
    seen = []
    for sid in ("cmd-lean-1", "cmd-lean-2"):  # the first run parses vaultkit.toml (tomllib, re)
        done = _end([python, "-X", "importtime", *rest], sid, project)
        assert done.returncode == 0 and done.stdout == b""
        rows = [line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()]
        assert "vaultkit.hooks.session_end" in rows
        seen.append(sorted(NOT_LOADED & set(rows)))
        assert f"SessionEnd {sid} (prompt_input_exit): queued" in log_text(store)
    assert seen[1] == [] and "re" in seen[0]  # (and the check can see re when it is there)
    _settle(store)


def test_a_copy_of_the_package_outside_site_packages_runs_the_hook(tmp_path: Path) -> None:
    """As a non-editable install lays it out: the package folder alone, found through the entry
    file's own location (``-S``: no site-packages, no ``.pth``; ``-I``: no PYTHONPATH)."""
    lib = tmp_path / "lib"
    shutil.copytree(PACKAGE, lib / "vaultkit", ignore=shutil.ignore_patterns("__pycache__"))
    project = _project(tmp_path)
    store = Store(project / "sessions")
    entry = str(lib / "vaultkit" / "vaultkit_hook.py")
    done = _end([sys.executable, "-I", "-S", "-v", entry], "copied-1", project)
    assert done.returncode == 0 and done.stdout == b""
    loaded = [line for line in done.stderr.decode().splitlines() if "vaultkit/hookentry" in line]
    assert loaded and all(str(lib) in line for line in loaded), loaded
    assert [job.session_id for job in queued(store)] in (["copied-1"], [])  # queued, or taken
    assert "SessionEnd copied-1 (prompt_input_exit): queued" in log_text(store)
    _settle(store)


def test_status_names_the_entry_file_and_flags_it_when_vaultkit_is_gone(tmp_path: Path) -> None:
    gone = str(tmp_path / "old" / "vaultkit" / "vaultkit_hook.py")  # its Python still exists
    hook = {"type": "command", "command": sys.executable, "args": ["-I", "-S", gone, "SessionEnd"]}
    shell = {"type": "command", "command": hookcmd.shell_line((sys.executable, gone), "SessionEnd")}
    assert settings.executable_of(shell) == gone
    target = Path(os.environ["HOME"]) / ".claude" / "settings.json"  # this test's own HOME
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"hooks": {"SessionEnd": [{"hooks": [hook]}]}}))
    status = subprocess.run(
        [sys.executable, "-m", "vaultkit", "hooks", "status"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert f"SessionEnd: {gone} (MISSING executable)" in status.stdout, status.stdout
