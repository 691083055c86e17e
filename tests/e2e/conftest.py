"""Fixtures for the end-to-end suite: the pinned agent CLIs, their API mocks and sandboxes."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import in_ci, require_program

from .agents_harness import agent_binary
from .harness import INSTALL_SCRIPT, Sandbox
from .mock_gemini import MockGemini
from .mock_openai import MockOpenAI
from .mockapi import MockAPI

# Fixtures that install a pinned agent CLI from npm on first use.
AGENT_CLIS = frozenset({"claude_bin", "codex_bin", "gemini_bin"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs an agent CLI needs the npm registry (its first install): mark it
    ``network``. ``tryfirst`` so the mark is there before ``-m "not network"`` deselects."""
    for item in items:
        if AGENT_CLIS.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.network)


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    """The pinned ``claude`` binary, installed into ``.cache/claude-code/`` on first use.

    Every xdist worker asks; ``install_claude.sh`` holds a lock, so one installs and the others
    wait and then find the finished install.
    """
    require_program("bash")
    require_program("npm", "apt-get install npm (or Node.js with npm from nodejs.org)")
    done = subprocess.run(
        ["bash", str(INSTALL_SCRIPT)], capture_output=True, text=True, timeout=600, check=False
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        reason = f"{INSTALL_SCRIPT.name} failed ({done.returncode}): {done.stderr.strip()}"
        if in_ci():
            pytest.fail(f"e2e suite cannot run in CI: {reason}", pytrace=False)
        pytest.skip(f"e2e suite skipped: {reason}")
    return Path(lines[-1])


@pytest.fixture
def mock_api() -> Iterator[MockAPI]:
    """A fresh mock Messages API on 127.0.0.1 for one test."""
    with MockAPI() as mock:
        yield mock


@pytest.fixture
def sandbox(tmp_path: Path, claude_bin: Path, mock_api: MockAPI) -> Sandbox:
    """Temporary HOME, CLAUDE_CONFIG_DIR and projects wired to ``mock_api``."""
    require_program("git")  # the sandbox's projects are git repositories
    return Sandbox(tmp_path, claude_bin, mock_api)


@pytest.fixture(scope="session")
def codex_bin() -> Path:
    """The pinned ``codex`` binary, installed into ``.cache/`` on first use."""
    return agent_binary("codex")


@pytest.fixture(scope="session")
def gemini_bin() -> Path:
    """The pinned ``gemini`` entry point, installed into ``.cache/`` on first use."""
    return agent_binary("gemini")


@pytest.fixture
def openai() -> Iterator[MockOpenAI]:
    """A fresh mock of the OpenAI Responses API (Codex CLI's) on 127.0.0.1."""
    with MockOpenAI() as server:
        yield server


@pytest.fixture
def google() -> Iterator[MockGemini]:
    """A fresh mock of the Gemini API (Gemini CLI's) on 127.0.0.1."""
    with MockGemini() as server:
        yield server
