"""The agent adapter values: what hooks may import, and the marks shared with Claude's merge."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from test_import_weight import FORBIDDEN, SLOW_STDLIB

from vaultkit.agents import codex, gemini, hookmerge
from vaultkit.agents.adapter import JSON_ONLY, STDOUT_OR_JSON, Agent, Entry, one_line, owns
from vaultkit.agents.claude import settings
from vaultkit.agents.codex import hooks as codex_hooks


@pytest.mark.parametrize("module", ["vaultkit.agents.codex", "vaultkit.agents.gemini"])
def test_adapters_stay_light_enough_for_a_hook(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert loaded & (FORBIDDEN | SLOW_STDLIB) == set()


def test_vaultkit_hooks_are_recognised_as_in_claude_settings() -> None:
    hook = codex_hooks.hook_entry("/x/vaultkit-hook", "SessionStart")
    assert hookmerge.is_vaultkit(hook) and settings.is_vaultkit(hook)


def test_each_agent_says_how_injection_reaches_the_model() -> None:
    assert codex.AGENT.injection == STDOUT_OR_JSON
    assert gemini.AGENT.injection == JSON_ONLY
    assert {codex.AGENT.name, gemini.AGENT.name} == {"codex", "gemini"}


def test_entries_are_values() -> None:
    entry = Entry("tool", text="x", paths=("a.py",))
    assert entry == Entry("tool", text="x", paths=("a.py",))
    assert entry.replace(text="y").text == "y"
    assert one_line("a\n  b\tc") == "a b c"
    assert one_line("x" * 300, 10) == "x" * 9 + "…"


def _payload_path(agent: str, name: str, home: Path) -> str:
    fixture = FIXTURES / "hooks" / agent / name
    path: str = json.loads(fixture.read_text(encoding="utf-8"))["transcript_path"]
    return path.replace("{HOME}", str(home))


@pytest.mark.parametrize(
    ("agent", "name"),
    [(codex.AGENT, "session-start-startup.json"), (gemini.AGENT, "session-end-exit.json")],
    ids=["codex", "gemini"],
)
def test_owns_accepts_the_real_transcript_paths_only_inside_the_config_folder(
    tmp_path: Path, agent: Agent, name: str
) -> None:
    env = {"HOME": str(tmp_path)}
    real = _payload_path(agent.name, name, tmp_path)
    assert owns(agent, real, env)
    folder, file = real.rsplit("/", 1)
    assert not owns(agent, f"{folder}/extra/{file}", env)  # * never spans a folder
    assert not owns(agent, real.replace(".jsonl", ".json"), env)
    assert not owns(agent, str(tmp_path / "elsewhere" / "x.jsonl"), env)
    outside = tmp_path / "outside.jsonl"
    outside.write_text("{}\n", encoding="utf-8")
    Path(folder).mkdir(parents=True)
    os.symlink(outside, real)
    assert not owns(agent, real, env)  # a symlink out of the config folder is refused
