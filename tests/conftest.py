"""Shared fixtures. Every test runs with a throw-away HOME so nothing touches the real one."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "fixtures"


def in_ci() -> bool:
    """True when the ``CI`` variable is set to anything but empty, ``0``, ``false`` or ``no``."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_program(name: str, install: str | None = None) -> str:
    """The path of the program ``name`` on PATH, for a test that runs it.

    Missing, the test is skipped with the command that installs it; under CI it fails instead,
    because the CI run (``.ci/run``) installs every program and must not skip anything.
    """
    found = shutil.which(name)
    if found is not None:
        return found
    reason = f"{name} is not installed; install it with: {install or f'apt-get install {name}'}"
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so a missing program is a failure)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.delenv("VAULTKIT_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)  # the data folder (and spool) under HOME
    monkeypatch.delenv("VAULTKIT_CHILD", raising=False)
    monkeypatch.delenv("CLAUDE_WIKI_CHILD", raising=False)
    monkeypatch.delenv("CLAUDECODE", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    for name in ("CODEX_HOME", "GEMINI_CLI_HOME", "GEMINI_CLI_TRUSTED_FOLDERS_PATH"):
        monkeypatch.delenv(name, raising=False)  # Codex's and Gemini's folders under HOME too
    monkeypatch.delenv("GEMINI_CLI_TRUST_WORKSPACE", raising=False)
    yield home
