"""Every agent vaultkit ships provides the parts :mod:`vaultkit.agents.parts` describes.

mypy checks each agent module against its protocol (the assignments below); the tests check the
registry hands out those modules, that each agent's lean part stays lean, and that the optional
parts are optional.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest
from conftest import REPO

from vaultkit.agents import claude, codex, gemini, known, parts
from vaultkit.agents.claude import context as claude_context
from vaultkit.agents.claude import distill as claude_distill
from vaultkit.agents.claude import doctor as claude_doctor
from vaultkit.agents.claude import hooks as claude_hooks
from vaultkit.agents.claude import reader as claude_reader
from vaultkit.agents.claude import scan as claude_scan
from vaultkit.agents.codex import distill as codex_distill
from vaultkit.agents.codex import doctor as codex_doctor
from vaultkit.agents.codex import hooks as codex_hooks
from vaultkit.agents.codex import reader as codex_reader
from vaultkit.agents.codex import scan as codex_scan
from vaultkit.agents.gemini import distill as gemini_distill
from vaultkit.agents.gemini import doctor as gemini_doctor
from vaultkit.agents.gemini import hooks as gemini_hooks
from vaultkit.agents.gemini import reader as gemini_reader
from vaultkit.agents.gemini import scan as gemini_scan

# What mypy checks: each module is an implementation of its part's protocol.
LEAN: list[parts.Lean] = [claude, codex, gemini]
READERS: list[parts.Reader] = [claude_reader, codex_reader, gemini_reader]
HOOKS: list[parts.Hooks] = [claude_hooks, codex_hooks, gemini_hooks]
DOCTORS: list[parts.Doctor] = [claude_doctor, codex_doctor, gemini_doctor]
DISTILLS: list[parts.Distill] = [claude_distill, codex_distill, gemini_distill]
SCANS: list[parts.Scan] = [claude_scan, codex_scan, gemini_scan]
CONTEXTS: list[parts.Context] = [claude_context]


def test_the_registry_hands_out_each_agents_modules() -> None:
    assert known.names() == ("claude", "codex", "gemini")
    for index, name in enumerate(known.names()):
        assert known.lean(name) is LEAN[index] and known.get(name) is LEAN[index].AGENT
        assert known.get(name).name == name
        assert known.reader(name) is READERS[index]
        assert known.hooks(name) is HOOKS[index]
        assert known.doctor(name) is DOCTORS[index]
        assert known.distill(name) is DISTILLS[index]
        assert known.scan(name) is SCANS[index]
    assert known.context("claude") is claude_context
    assert known.context("codex") is None and known.context("gemini") is None
    with pytest.raises(KeyError):
        known.get("cursor")
    with pytest.raises(KeyError):
        known.scan("cursor")


def test_each_agents_tag_names_its_sessions_in_logs_except_the_default_one() -> None:
    assert [known.get(name).tag for name in known.names()] == ["", "codex", "gemini"]
    assert known.names()[0] == known.DEFAULT


@pytest.mark.parametrize("name", ["claude", "codex", "gemini"])
def test_an_agents_lean_part_loads_none_of_its_other_parts(name: str) -> None:
    """A hook imports the agent's package (``known.lean``) and nothing heavier of it."""
    code = (
        "import sys; from vaultkit.agents import known; "
        f"known.lean({name!r}); "
        "print(sorted(m for m in sys.modules if m.startswith('vaultkit.agents.')));"
        "print(sorted(m for m in ('json', 're', 'typing', 'dataclasses') if m in sys.modules))"
    )
    done = subprocess.run(  # -S: no site (as the installed hook runs); the repo on sys.path
        [sys.executable, "-S", "-c", code], cwd=REPO, capture_output=True, text=True, timeout=30
    )
    modules, slow = done.stdout.splitlines()
    assert ast.literal_eval(modules) == sorted(
        ["vaultkit.agents.adapter", "vaultkit.agents.known", f"vaultkit.agents.{name}"]
    ), done.stderr
    assert ast.literal_eval(slow) == []
