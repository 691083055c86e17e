"""Isolated sandboxes for running the real Claude Code CLI against the mock API.

A :class:`Sandbox` owns a temporary HOME, a ``CLAUDE_CONFIG_DIR`` and any number of temporary git
projects. Its environment points Claude Code at the mock, uses a dummy API key, turns off
telemetry, auto-updates and non-essential traffic, and routes any other HTTP(S) traffic through
the mock as a proxy (so a stray outside request shows up as a recorded ``CONNECT`` instead of
leaving the machine).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .mockapi import MockAPI

REPO = Path(__file__).resolve().parents[2]
INSTALL_SCRIPT = REPO / "tests" / "e2e" / "install_claude.sh"
DUMMY_KEY = "sk-ant-e2e-dummy-key-not-a-secret"

# Variables Claude Code reads that keep it quiet and local (see tests/e2e/README.md).
QUIET_ENV = {
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_BUG_COMMAND": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
}

# Inherited variables that would leak the outer agent or user into the sandbox.
# This environment's scripts first on PATH, as on a machine with vaultkit installed: the committed
# project-scope hooks and MCP server name `vaultkit-hook` and `vaultkit` bare (issue 21).
VAULTKIT_BIN = str(Path(sys.executable).parent)
_DROP_PREFIXES = ("CLAUDE", "ANTHROPIC", "VAULTKIT", "OTEL_", "AWS_", "GOOGLE_", "VERTEX")


@dataclass(frozen=True, slots=True)
class Run:
    """The outcome of one ``claude`` process."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def git_project(path: Path) -> Path:
    """A git repository at ``path`` with one commit."""
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    (path / "README.md").write_text("# e2e project\n", encoding="utf-8")
    git = ["git", "-C", str(path), "-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e"]
    subprocess.run([*git, "add", "README.md"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "init"], check=True)
    return path


def encode_project_dir(cwd: Path) -> str:
    """How Claude Code names a project's transcript folder: every non-alphanumeric -> ``-``."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(cwd))


class Sandbox:
    """One isolated Claude Code world: HOME, config dir, mock API and projects."""

    def __init__(
        self, root: Path, claude: Path, mock: MockAPI, config_dir: Path | None = None
    ) -> None:
        self.root = root
        self.claude = claude
        self.mock = mock
        self.home = root / "home"
        self.config_dir = config_dir or root / "claude-config"
        for folder in (self.home, self.config_dir):
            folder.mkdir(parents=True, exist_ok=True)

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment for a ``claude`` process in this sandbox."""
        base = {k: v for k, v in os.environ.items() if not k.upper().startswith(_DROP_PREFIXES)}
        proxy = self.mock.url
        base.update(QUIET_ENV)
        base["PATH"] = os.pathsep.join([VAULTKIT_BIN, base.get("PATH", os.defpath)])
        base.update(
            {
                "HOME": str(self.home),
                "CLAUDE_CONFIG_DIR": str(self.config_dir),
                "ANTHROPIC_BASE_URL": self.mock.url,
                "ANTHROPIC_API_KEY": DUMMY_KEY,
                "HTTPS_PROXY": proxy,
                "HTTP_PROXY": proxy,
                "https_proxy": proxy,
                "http_proxy": proxy,
                "NO_PROXY": "127.0.0.1,localhost",
                "no_proxy": "127.0.0.1,localhost",
                "TERM": "dumb",
                "NO_COLOR": "1",
            }
        )
        base.update(extra or {})
        return base

    def project(self, name: str = "project") -> Path:
        return git_project(self.root / name)

    def transcripts_dir(self, cwd: Path) -> Path:
        return self.config_dir / "projects" / encode_project_dir(cwd)

    def transcripts(self, cwd: Path) -> list[Path]:
        folder = self.transcripts_dir(cwd)
        return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []

    def run(
        self,
        prompt: str,
        cwd: Path,
        *args: str,
        extra_env: Mapping[str, str] | None = None,
        timeout: float = 90,
    ) -> Run:
        """``claude -p PROMPT ARGS…`` in ``cwd``; waits for it to exit."""
        argv = (str(self.claude), "-p", prompt, *args)
        started = time.monotonic()
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=self.env(extra_env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        return Run(argv, done.returncode, done.stdout, done.stderr, time.monotonic() - started)

    def start(
        self, prompt: str, cwd: Path, *args: str, extra_env: Mapping[str, str] | None = None
    ) -> subprocess.Popen[str]:
        """Start ``claude -p`` without waiting (for sessions that must end together)."""
        return subprocess.Popen(
            (str(self.claude), "-p", prompt, *args),
            cwd=cwd,
            env=self.env(extra_env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every JSON object line of a transcript (a half-written last line is skipped)."""
    rows: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            rows.append(value)
    return rows


def wait_until(check: Callable[[], bool], timeout: float, interval: float = 0.1) -> bool:
    """Poll ``check`` until it is true or ``timeout`` seconds pass; the last result is returned."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(interval)
    return check()


def write_project_settings(project: Path, settings: Mapping[str, Any]) -> Path:
    """Write ``.claude/settings.json`` for a project."""
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    return target


def hooks_settings(command: str, events: Sequence[str]) -> dict[str, Any]:
    """Settings that run ``command`` for every event in ``events``."""
    entry = [{"hooks": [{"type": "command", "command": command}]}]
    return {"hooks": dict.fromkeys(events, entry)}


def seed_interactive_state(sandbox: Sandbox, *projects: Path) -> None:
    """Pre-answer the interactive UI's first-run questions: onboarding done, theme chosen, the
    dummy API key approved, and each project's trust dialog accepted."""
    state = {
        "hasCompletedOnboarding": True,
        "theme": "dark",
        "customApiKeyResponses": {"approved": [DUMMY_KEY[-20:]], "rejected": []},
        "projects": {
            str(p): {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}
            for p in projects
        },
    }
    (sandbox.config_dir / ".claude.json").write_text(json.dumps(state), encoding="utf-8")


class Tmux:
    """The interactive Claude Code UI in a private tmux server (its own socket file)."""

    def __init__(self, sandbox: Sandbox, cwd: Path, extra_env: Mapping[str, str]) -> None:
        self.socket = sandbox.root / "tmux.sock"
        env = sandbox.env({"TERM": "xterm-256color", **extra_env})
        env.pop("NO_COLOR", None)
        self._env = env
        self._cwd = cwd
        self._claude = sandbox.claude

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", str(self.socket), *args],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
        return done.stdout

    def start(self) -> None:
        subprocess.run(
            [
                "tmux",
                "-S",
                str(self.socket),
                "new-session",
                "-d",
                "-s",
                "e2e",
                "-x",
                "160",
                "-y",
                "50",
                str(self._claude),
            ],
            cwd=self._cwd,
            env=self._env,
            check=True,
            timeout=20,
        )

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "e2e")

    def send_line(self, text: str) -> None:
        self._tmux("send-keys", "-t", "e2e", "-l", text)
        time.sleep(0.3)
        self._tmux("send-keys", "-t", "e2e", "Enter")

    def alive(self) -> bool:
        return "e2e" in self._tmux("list-sessions", "-F", "#{session_name}")

    def stop(self) -> None:
        self._tmux("kill-server")
