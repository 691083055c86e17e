"""The registry of agents: names, values, and which agent owns a transcript path."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultkit.agents import known


def test_every_name_has_its_agent() -> None:
    assert [known.get(name).name for name in known.names()] == list(known.names())
    with pytest.raises(KeyError):
        known.get("cursor")


def test_owner_by_path(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    claude = tmp_path / ".claude/projects/-work-app/0f3a.jsonl"
    codex = tmp_path / ".codex/sessions/2026/12/01/rollout-2026-12-01T09-00-00-ab.jsonl"
    gemini = tmp_path / ".gemini/tmp/app/chats/session-2026-12-01T09-00-ab12cd34.jsonl"
    assert known.owner(str(claude), env) == "claude"
    assert known.owner(str(codex), env) == "codex"
    assert known.owner(str(gemini), env) == "gemini"
    assert known.owner(str(tmp_path / "notes.jsonl"), env) is None
    assert known.owner("/etc/passwd", env) is None


def test_owner_honours_the_config_variables(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path / "home"), "CODEX_HOME": str(tmp_path / "cx")}
    inside = tmp_path / "cx/sessions/2026/12/01/rollout-x.jsonl"
    assert known.owner(str(inside), env) == "codex"
    default = tmp_path / "home/.codex/sessions/2026/12/01/rollout-x.jsonl"
    assert known.owner(str(default), env) is None
