"""The built wheel, installed by name the three ways a user would (``pip`` into a venv,
``pipx install``, ``uv tool install``), each into a clean environment with a temporary HOME and a
PATH without this checkout's environment: ``--version``, the README's first command, a session
through the installed ``vaultkit-hook`` (by the bare name a committed project file uses) and the
MCP server answering ``initialize`` over stdio. The wheel's metadata is checked too.

Needs the package index (the build backend, the dependencies, pipx and uv when they are not
installed), so it is marked ``network`` and ``slow``; ``.ci/run`` runs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

import vaultkit
from vaultkit.base import dist

pytestmark = [pytest.mark.network, pytest.mark.slow, pytest.mark.timeout(1800)]

BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)  # not this checkout's venv
SYSTEM_PATH = f"/usr/bin{os.pathsep}/bin"
INSTALLERS = ("pip", "pipx", "uv")


def run(
    argv: list[str], env: dict[str, str], cwd: Path | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv, input=stdin, capture_output=True, text=True, env=env, cwd=cwd, timeout=900
    )
    assert done.returncode == 0, f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr}"
    return done


def clean_env(root: Path, path: str) -> dict[str, str]:
    """A user with nothing installed: a HOME of its own, no vaultkit, uv or pipx settings."""
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    drop = ("VAULTKIT", "PIPX_", "UV_", "VIRTUAL_ENV", "PYTHON", "XDG_", "CLAUDE")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(HOME=str(home), PATH=path, UV_PYTHON_DOWNLOADS="never")
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout (in an isolated build environment, as CI builds it)."""
    out = tmp_path_factory.mktemp("wheel")
    env = clean_env(out, f"{Path(BASE_PYTHON).parent}{os.pathsep}{SYSTEM_PATH}")
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(REPO)], env)
    [built] = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder with ``pipx`` and ``uv``: this machine's, else installed from PyPI into a venv."""
    root = tmp_path_factory.mktemp("tools")
    folder = root / "bin"
    folder.mkdir()
    missing = [name for name in ("pipx", "uv") if shutil.which(name) is None]
    if missing:
        env = clean_env(root, SYSTEM_PATH)
        run([BASE_PYTHON, "-m", "venv", str(root / "venv")], env)
        run([str(root / "venv" / "bin" / "pip"), "install", "-q", *missing], env)
    for name in ("pipx", "uv"):
        found = shutil.which(name) or str(root / "venv" / "bin" / name)
        (folder / name).symlink_to(found)
    yield folder


def install(installer: str, wheel: Path, tools: Path, root: Path) -> Path:
    """Install ``wheel`` with ``installer`` into a clean environment under ``root``; the folder
    that holds its commands."""
    bin_dir = root / "bin"
    env = clean_env(root, f"{tools}{os.pathsep}{SYSTEM_PATH}")
    if installer == "pip":
        run([BASE_PYTHON, "-m", "venv", str(root / "venv")], env)
        run([str(root / "venv" / "bin" / "pip"), "install", "-q", str(wheel)], env)
        return root / "venv" / "bin"
    if installer == "pipx":
        env.update(PIPX_HOME=str(root / "pipx"), PIPX_BIN_DIR=str(bin_dir))
        env.update(PIPX_MAN_DIR=str(root / "man"))
        run(["pipx", "install", "--python", BASE_PYTHON, str(wheel)], env)
        return bin_dir
    env.update(UV_TOOL_DIR=str(root / "uv-tools"), UV_TOOL_BIN_DIR=str(bin_dir))
    env.update(UV_CACHE_DIR=str(root / "uv-cache"))
    run(["uv", "tool", "install", "--python", BASE_PYTHON, str(wheel)], env)
    return bin_dir


def readme_first_command() -> list[str]:
    """The vaultkit command the README's first line ends with (``vaultkit demo``)."""
    block = re.search(r"```bash\n(.*?)\n", (REPO / "README.md").read_text(encoding="utf-8"))
    assert block is not None
    last = block.group(1).split("&&")[-1].split()
    assert Path(last[0]).name == dist.CLI, block.group(1)
    return last[1:]


def test_the_wheel_metadata(wheel: Path) -> None:
    assert wheel.name == f"vaultkit_memory-{vaultkit.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"vaultkit_memory-{vaultkit.__version__}.dist-info"
        meta = archive.read(f"{info}/METADATA").decode("utf-8")
        scripts = archive.read(f"{info}/entry_points.txt").decode("utf-8")
    assert f"{info}/licenses/LICENSE" in names and "vaultkit/py.typed" in names
    assert "vaultkit/_templates/distill-prompt.md" in names
    assert any(n.startswith("vaultkit/_examples/") for n in names)
    headers = [line.split(": ", 1) for line in meta.split("\n\n", 1)[0].splitlines()]
    fields: dict[str, list[str]] = {}
    for key, value in headers:
        fields.setdefault(key, []).append(value)
    assert fields["Name"] == [dist.DISTRIBUTION] and fields["Version"] == [vaultkit.__version__]
    assert fields["License-Expression"] == ["MIT"]
    assert "Homepage, https://pypi.org/project/vaultkit-memory/" in fields["Project-URL"]
    assert "Programming Language :: Python :: 3.11" in fields["Classifier"]
    assert "vaultkit = vaultkit.cli:main" in scripts
    assert "vaultkit-hook = vaultkit.hookentry:main" in scripts


@pytest.mark.parametrize("installer", INSTALLERS)
def test_the_installed_wheel_works(
    installer: str, wheel: Path, tools: Path, tmp_path: Path
) -> None:
    bin_dir = install(installer, wheel, tools, tmp_path / "install")
    env = clean_env(tmp_path / "user", f"{bin_dir}{os.pathsep}{SYSTEM_PATH}")
    assert shutil.which(dist.CLI, path=env["PATH"]) == str(bin_dir / dist.CLI)
    version = run([dist.CLI, "--version"], env)
    assert version.stdout == f"{vaultkit.__version__}\n"

    demo = run([dist.CLI, *readme_first_command()], env, cwd=tmp_path)
    assert "== The wiki note it wrote: sessions/wiki/" in demo.stdout
    assert "== What the next session's SessionStart hook gives the agent" in demo.stdout
    assert list(Path(env["HOME"]).iterdir()) == []  # the demo wrote nothing in the user's home

    project = session_through_the_installed_hook(env, tmp_path / "proj")
    assert_mcp_initializes(env, project)


SID = "5a7c9e1b-2d4f-4a6b-8c0d-1e2f3a4b5c6d"


def session_through_the_installed_hook(env: dict[str, str], project: Path) -> Path:
    """``hooks install --scope project``, then a session's end and the next start through the
    committed (bare) ``vaultkit-hook`` command, offline."""
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    run([dist.CLI, "hooks", "install", "--scope", "project"], env, cwd=project)
    settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
    [end] = settings["hooks"]["SessionEnd"][0]["hooks"]
    assert (end["command"], end["args"]) == (dist.HOOK, ["SessionEnd"])
    folder = Path(env["HOME"]) / ".claude" / "projects" / "-proj"
    folder.mkdir(parents=True)
    transcript = folder / f"{SID}.jsonl"
    lines = [
        {"type": "user", "sessionId": SID, "cwd": str(project), "gitBranch": "main",
         "message": {"role": "user", "content": "make the smoke test pass"}},
        {"type": "assistant", "sessionId": SID,
         "message": {"id": "m1", "role": "assistant",
                     "content": [{"type": "text", "text": "SMOKE-HANDOFF: it passes."}]}},
    ]  # fmt: skip
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    payload = {"session_id": SID, "transcript_path": str(transcript), "cwd": str(project)}
    hook_env = {**env, "VAULTKIT_SETTLE_SECONDS": "0.2"}
    stdin = json.dumps({**payload, "hook_event_name": "SessionEnd", "reason": "exit"})
    run([end["command"], *end["args"]], hook_env, cwd=project, stdin=stdin)
    done = project / "sessions" / ".vaultkit" / "done" / f"{SID}.json"
    deadline = time.monotonic() + 120
    while not done.is_file() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert done.is_file(), (project / "sessions" / ".vaultkit" / "vaultkit.log").read_text()
    start = {**payload, "session_id": "next", "hook_event_name": "SessionStart"}
    began = run([dist.HOOK, "SessionStart"], hook_env, cwd=project, stdin=json.dumps(start))
    assert "make the smoke test pass" in began.stdout
    return project


def assert_mcp_initializes(env: dict[str, str], project: Path) -> None:
    """``vaultkit mcp`` answers ``initialize`` over stdio and exits when stdin closes."""
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "smoke", "version": "0"},
        },
    }
    served = subprocess.run(
        [dist.CLI, "mcp"],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=120,
    )
    assert served.returncode == 0, served.stderr
    [reply] = [json.loads(line) for line in served.stdout.splitlines() if line.strip()]
    assert reply["id"] == 1 and reply["result"]["serverInfo"]["name"] == "vaultkit"
    assert reply["result"]["protocolVersion"]
