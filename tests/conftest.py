"""Shared fixtures. Every test runs with a throw-away HOME so nothing touches the real one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.delenv("VAULTKIT_HOME", raising=False)
    monkeypatch.delenv("VAULTKIT_CHILD", raising=False)
    monkeypatch.delenv("CLAUDE_WIKI_CHILD", raising=False)
    monkeypatch.delenv("CLAUDECODE", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    yield home
