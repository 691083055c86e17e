"""Merging vaultkit's hooks into Codex ``hooks.json`` and Gemini CLI ``settings.json`` data."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from vaultkit.agents import hookmerge
from vaultkit.agents.codex import hooks as codex_hooks
from vaultkit.agents.gemini import hooks as gemini_hooks
from vaultkit.errors import VaultkitError

EXE = "/opt/venv/bin/vaultkit-hook"
FOREIGN = {"type": "command", "command": "echo started", "timeout": 3}

EXISTING: dict[str, dict[str, Any]] = {
    "empty": {},
    "other keys": {"model": "gpt-5", "security": {"auth": {"selectedType": "oauth-personal"}}},
    "same events": {
        "hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [FOREIGN]}],
            "SessionEnd": [{"hooks": [FOREIGN, {"type": "command", "command": "save.sh"}]}],
        }
    },
    "other events": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [FOREIGN]}]}},
    "gemini hook switches": {"hooks": {"disabled": ["x"], "BeforeTool": [{"hooks": [FOREIGN]}]}},
    "hooksConfig": {"hooksConfig": {"enabled": True, "notifications": False}},
}
AGENTS: dict[str, tuple[Callable[..., dict[str, Any]], Callable[..., dict[str, Any]]]] = {
    "codex": (codex_hooks.install, codex_hooks.uninstall),
    "gemini": (gemini_hooks.install, gemini_hooks.uninstall),
}


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("name", sorted(EXISTING))
def test_install_keeps_foreign_entries_is_idempotent_and_uninstall_restores(
    agent: str, name: str
) -> None:
    install, uninstall = AGENTS[agent]
    before = copy.deepcopy(EXISTING[name])
    once = install(before, EXE)
    assert before == EXISTING[name]  # pure: the input is not changed
    assert install(once, EXE) == once
    assert sorted(hookmerge.installed(once)) == ["SessionEnd", "SessionStart"]
    for event, groups in before.get("hooks", {}).items():
        assert once["hooks"][event][: len(groups)] == groups  # foreign groups first, in place
    assert {k: v for k, v in once.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    assert uninstall(once) == before


def test_codex_hook_is_a_shell_command_with_seconds() -> None:
    data = codex_hooks.install({}, "/opt/my venv/bin/vaultkit-hook")
    assert data["hooks"]["SessionStart"] == [
        {
            "hooks": [
                {
                    "type": "command",
                    "command": "'/opt/my venv/bin/vaultkit-hook' SessionStart --agent codex",
                    "timeout": 10,
                }
            ]
        }
    ]
    assert data["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] == 3  # Codex clamps to 3 s


def test_gemini_hook_is_named_and_times_out_in_milliseconds() -> None:
    hook = gemini_hooks.install({}, EXE)["hooks"]["SessionEnd"][0]["hooks"][0]
    assert hook == {
        "name": "vaultkit-SessionEnd",
        "type": "command",
        "command": f"{EXE} SessionEnd --agent gemini",
        "timeout": 5000,
    }


def test_a_changed_executable_replaces_the_old_hook_at_the_end() -> None:
    old = codex_hooks.install(EXISTING["same events"], "/old/vaultkit-hook")
    old["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "later"}]})
    new = codex_hooks.install(old, EXE)
    starts = new["hooks"]["SessionStart"]
    assert [g["hooks"][0]["command"] for g in starts] == [
        "echo started",
        "later",
        f"{EXE} SessionStart --agent codex",
    ]
    assert hookmerge.installed(new)["SessionStart"] == [codex_hooks.hook_entry(EXE, "SessionStart")]


def test_positions_name_group_and_hook_indexes() -> None:
    data = codex_hooks.install(EXISTING["same events"], EXE)
    assert hookmerge.positions(data) == {"SessionStart": [(1, 0)], "SessionEnd": [(1, 0)]}


def test_a_group_shared_with_foreign_hooks_keeps_them_on_uninstall() -> None:
    mine = codex_hooks.hook_entry(EXE, "SessionEnd")
    data = {"hooks": {"SessionEnd": [{"matcher": "*", "hooks": [FOREIGN, mine]}]}}
    assert codex_hooks.uninstall(data) == {
        "hooks": {"SessionEnd": [{"matcher": "*", "hooks": [FOREIGN]}]}
    }


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "holds a JSON list"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"SessionStart": {"x": 1}}}', '"hooks.SessionStart" is not a list'),
        ('{\n  // mine\n  "model": "x" /* note */\n}', "has comments"),
    ],
)
def test_malformed_files_are_refused_naming_the_file(text: str, fragment: str) -> None:
    with pytest.raises(VaultkitError) as caught:
        gemini_hooks.parse(text, "/home/me/.gemini/settings.json")
    assert fragment in str(caught.value)
    assert "/home/me/.gemini/settings.json" in str(caught.value)
    assert caught.value.hint


def test_blank_file_is_empty_and_render_round_trips_unicode() -> None:
    assert codex_hooks.parse("  \n", "hooks.json") == {}
    data = {"note": "한국어", "hooks": {}}
    assert json.loads(hookmerge.render(data)) == data
    assert "한국어" in hookmerge.render(data)


def test_strip_comments_leaves_strings_alone() -> None:
    text = '{"url": "http://x//y", "s": "a /* b */ c" // tail\n}'
    assert json.loads(hookmerge.strip_comments(text)) == {
        "url": "http://x//y",
        "s": "a /* b */ c",
    }
