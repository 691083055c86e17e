"""Isolated sandboxes for running the real Codex CLI and Gemini CLI against their API mocks.

Each sandbox owns a temporary HOME (with ``CODEX_HOME`` or ``~/.gemini`` inside), temporary git
projects and a folder where the recorder hook (``agent_hook.py``) drops payloads. The
environment carries only dummy keys, points the CLI at its mock, turns off the CLI's own
outside traffic in its configuration, and routes anything else through the mock as a proxy, so
a stray outside request is recorded (and refused) instead of leaving the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import in_ci, require_program

from .harness import DUMMY_KEY, QUIET_ENV, REPO, Sandbox, git_project
from .mock_openai import provider_toml

INSTALL_AGENTS = REPO / "tests" / "e2e" / "install_agents.sh"
RECORDER = Path(__file__).with_name("agent_hook.py")
CODEX_KEY = "sk-e2e-dummy-openai-key-not-a-secret"
GEMINI_KEY = "e2e-dummy-gemini-key-not-a-secret"
# Inherited variables that would leak the outer agent or user into the sandbox. GITHUB_SHA and
# SURFACE=Github also make Gemini CLI strip every other variable from its hooks' environment.
_DROP_PREFIXES = (
    "CLAUDE", "ANTHROPIC", "VAULTKIT", "OTEL_", "AWS_", "GOOGLE_", "VERTEX", "GEMINI_",
    "OPENAI", "CODEX", "AZURE", "GITHUB_", "SURFACE",
)  # fmt: skip


def missing(reason: str) -> None:
    """No CLI: a hard failure in CI (the suite must run there), a skip everywhere else."""
    if in_ci():
        pytest.fail(f"e2e suite cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"e2e suite skipped: {reason}")


def agent_binary(agent: str) -> Path:
    """The pinned binary of ``agent`` (codex | gemini), installed into ``.cache/`` on first use."""
    require_program("bash")
    require_program("npm", "apt-get install npm (or Node.js with npm from nodejs.org)")
    done = subprocess.run(
        ["bash", str(INSTALL_AGENTS), agent],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    found = [line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith(agent)]
    if done.returncode != 0 or not found:
        missing(f"{INSTALL_AGENTS.name} {agent} failed ({done.returncode}): {done.stderr.strip()}")
    return Path(found[-1])


@dataclass(frozen=True, slots=True)
class Run:
    """The outcome of one CLI process."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def recorder_command() -> str:
    """The shell command line that runs the recorder hook with this interpreter."""
    return f"{sys.executable} {RECORDER}"


def hook_groups(command: str, events: Sequence[str], timeout: int) -> dict[str, Any]:
    """``{"hooks": {event: [{"hooks": [command hook]}]}}``, the shape both CLIs read."""
    entry = {"type": "command", "command": command, "timeout": timeout}
    return {"hooks": {event: [{"hooks": [dict(entry)]}] for event in events}}


def read_dumps(folder: Path) -> list[dict[str, Any]]:
    """The payloads the recorder saved, in the order the hooks ran."""
    if not folder.is_dir():
        return []
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def _base_env(home: Path, mock_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(_DROP_PREFIXES)}
    env.update(
        {
            "HOME": str(home),
            "HTTPS_PROXY": mock_url,
            "HTTP_PROXY": mock_url,
            "https_proxy": mock_url,
            "http_proxy": mock_url,
            "ALL_PROXY": mock_url,
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "TERM": "dumb",
            "NO_COLOR": "1",
        }
    )
    return env


class _Sandbox:
    binary: Path
    home: Path
    root: Path
    dumps: Path

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        raise NotImplementedError

    def project(self, name: str = "project") -> Path:
        return git_project(self.root / name)

    def payloads(self) -> list[dict[str, Any]]:
        return read_dumps(self.dumps)

    def run_argv(self, argv: tuple[str, ...], cwd: Path, extra: Mapping[str, str] | None) -> Run:
        started = time.monotonic()
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=self.env({"E2E_DUMP_DIR": str(self.dumps), **(extra or {})}),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        return Run(argv, done.returncode, done.stdout, done.stderr, time.monotonic() - started)


class CodexSandbox(_Sandbox):
    """One Codex world: HOME, ``CODEX_HOME`` with ``config.toml`` pointing at the mock."""

    def __init__(self, root: Path, binary: Path, mock_url: str) -> None:
        self.root, self.binary, self.mock_url = root, binary, mock_url
        self.home = root / "home"
        self.codex_home = self.home / ".codex"
        self.dumps = root / "dumps"
        self.tmp = root / "tmp"
        self.codex_home.mkdir(parents=True, exist_ok=True)
        self.tmp.mkdir(exist_ok=True)
        (self.codex_home / "config.toml").write_text(provider_toml(mock_url), encoding="utf-8")

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        env = _base_env(self.home, self.mock_url)
        env.update({"CODEX_HOME": str(self.codex_home), "OPENAI_API_KEY": CODEX_KEY})
        env["TMPDIR"] = str(self.tmp)  # Codex saves over-long hook output under $TMPDIR
        env.update(extra or {})
        return env

    def write_hooks(self, data: Mapping[str, Any]) -> Path:
        path = self.codex_home / "hooks.json"
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        return path

    def exec(
        self, prompt: str, cwd: Path, *args: str, extra_env: Mapping[str, str] | None = None
    ) -> Run:
        """``codex exec ARGS… PROMPT`` in ``cwd``; waits for it to exit."""
        return self.run_argv((str(self.binary), "exec", *args, prompt), cwd, extra_env)


class GeminiSandbox(_Sandbox):
    """One Gemini CLI world: HOME with ``~/.gemini/settings.json`` selecting API-key auth."""

    MODEL = "gemini-2.5-flash"  # an explicit model skips the CLI's routing classifier call

    def __init__(self, root: Path, binary: Path, mock_url: str) -> None:
        self.root, self.binary, self.mock_url = root, binary, mock_url
        self.home = root / "home"
        self.gemini_dir = self.home / ".gemini"
        self.dumps = root / "dumps"
        self.gemini_dir.mkdir(parents=True, exist_ok=True)
        self.write_settings({})

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        env = _base_env(self.home, self.mock_url)
        env.update({"GOOGLE_GEMINI_BASE_URL": self.mock_url, "GEMINI_API_KEY": GEMINI_KEY})
        env.update(extra or {})
        return env

    def write_settings(self, extra: Mapping[str, Any]) -> Path:
        """``~/.gemini/settings.json``: API-key auth, no telemetry or updates, plus ``extra``."""
        settings: dict[str, Any] = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            **extra,
        }
        path = self.gemini_dir / "settings.json"
        path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        return path

    def prompt(
        self, prompt: str, cwd: Path, *args: str, extra_env: Mapping[str, str] | None = None
    ) -> Run:
        """``gemini --skip-trust -m MODEL ARGS… -p PROMPT`` in ``cwd``; waits for it to exit."""
        argv = (str(self.binary), "--skip-trust", "-m", self.MODEL, *args, "-p", prompt)
        return self.run_argv(argv, cwd, extra_env)


class SharedHome:
    """Claude Code, Codex CLI and Gemini CLI in one HOME (``~/.claude``, ``~/.codex``,
    ``~/.gemini``), each pointed at its own mock. Every CLI runs with the variables of all
    three, so a hook of one agent sees the same world as the others; its proxy is its own mock."""

    def __init__(self, claude: Sandbox, codex: CodexSandbox, gemini: GeminiSandbox) -> None:
        assert claude.home == codex.home == gemini.home, "one HOME for the three CLIs"
        self.claude, self.codex, self.gemini = claude, codex, gemini
        self.home = claude.home

    def variables(self) -> dict[str, str]:
        """What each CLI needs, for all three (no proxies: those stay the running CLI's)."""
        return {
            **QUIET_ENV,
            "CLAUDE_CONFIG_DIR": str(self.claude.config_dir),
            "ANTHROPIC_BASE_URL": self.claude.mock.url,
            "ANTHROPIC_API_KEY": DUMMY_KEY,
            "CODEX_HOME": str(self.codex.codex_home),
            "OPENAI_API_KEY": CODEX_KEY,
            "TMPDIR": str(self.codex.tmp),
            "GOOGLE_GEMINI_BASE_URL": self.gemini.mock_url,
            "GEMINI_API_KEY": GEMINI_KEY,
        }

    def env(self) -> dict[str, str]:
        """The environment of a plain command (``vaultkit …``) in this HOME."""
        return self.codex.env(self.variables())


def bypassing_codex(folder: Path, binary: Path) -> Path:
    """A ``codex`` that runs the real one with hook trust bypassed (the subcommand stays first),
    for a distillation child: then only vaultkit's own guard keeps it from running hooks."""
    wrapper = folder / "codex-bypassing-trust"
    run = f'exec "{binary}" "$sub" --dangerously-bypass-hook-trust "$@"'
    wrapper.write_text(f'#!/bin/sh\nsub="$1"; shift\n{run}\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return wrapper
