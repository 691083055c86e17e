"""Fixtures for the end-to-end suite: the pinned Claude Code CLI, the mock API and sandboxes."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import INSTALL_SCRIPT, Sandbox
from .mockapi import MockAPI


def _missing(reason: str) -> None:
    """No CLI: a hard failure in CI (the suite must run there), a skip everywhere else."""
    if os.environ.get("CI"):
        pytest.fail(f"e2e suite cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"e2e suite skipped: {reason}")


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    """The pinned ``claude`` binary, installed into ``.cache/claude-code/`` on first use."""
    if shutil.which("npm") is None:
        _missing("npm is not on PATH (install Node.js with npm to get the Claude Code CLI)")
    done = subprocess.run(
        ["bash", str(INSTALL_SCRIPT)], capture_output=True, text=True, timeout=600, check=False
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        _missing(f"{INSTALL_SCRIPT.name} failed ({done.returncode}): {done.stderr.strip()}")
    return Path(lines[-1])


@pytest.fixture
def mock_api() -> Iterator[MockAPI]:
    """A fresh mock Messages API on 127.0.0.1 for one test."""
    with MockAPI() as mock:
        yield mock


@pytest.fixture
def sandbox(tmp_path: Path, claude_bin: Path, mock_api: MockAPI) -> Sandbox:
    """Temporary HOME, CLAUDE_CONFIG_DIR and projects wired to ``mock_api``."""
    return Sandbox(tmp_path, claude_bin, mock_api)
