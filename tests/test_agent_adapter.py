"""The agent adapter values: what hooks may import, and the marks shared with Claude's merge."""

from __future__ import annotations

import subprocess
import sys

import pytest
from test_import_weight import FORBIDDEN, SLOW_STDLIB

from vaultkit.agents import codex, gemini, hookmerge, settings
from vaultkit.agents.adapter import JSON_ONLY, STDOUT_OR_JSON, Entry, one_line


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
    hook = codex.hook_entry("/x/vaultkit-hook", "SessionStart")
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
