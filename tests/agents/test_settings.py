"""Merging vaultkit's hooks into Claude Code settings over a matrix of existing configurations."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from conftest import REPO

from vaultkit.agents.claude import settings
from vaultkit.errors import VaultkitError

EXE = "/opt/venv/bin/vaultkit-hook"
OTHER_START = {"type": "command", "command": "echo started", "timeout": 3}
SEED_END = {"type": "command", "command": 'node "c:/Users/me/.claude/hooks/session-save-raw.js"'}

EXISTING: dict[str, dict[str, Any]] = {
    "empty": {},
    "other keys": {"model": "opus", "env": {"A": "1"}, "permissions": {"allow": ["Bash(ls)"]}},
    "same events": {
        "hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [OTHER_START]}],
            "SessionEnd": [{"hooks": [SEED_END]}],
        }
    },
    "other events": {
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]
        }
    },
    "matcher groups": {
        "hooks": {
            "SessionStart": [
                {"matcher": "startup", "hooks": [OTHER_START]},
                {"matcher": "compact", "hooks": [{"type": "command", "command": "y"}]},
            ]
        }
    },
    "unicode": {"statusLine": {"type": "command", "command": "echo 세션 🎉 café"}, "hooks": {}},
    "odd groups kept": {"hooks": {"SessionEnd": ["not a group", {"matcher": "*"}]}},
}


def others(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Every non-vaultkit hook command, per event, in order."""
    found = []
    for event, groups in (data.get("hooks") or {}).items():
        for group in groups:
            for hook in group.get("hooks", []) if isinstance(group, dict) else []:
                if not settings.is_vaultkit(hook):
                    found.append((event, json.dumps(hook, sort_keys=True)))
    return found


@pytest.mark.parametrize("name", sorted(EXISTING))
def test_install_adds_one_entry_per_event_and_keeps_the_rest(name: str) -> None:
    before = copy.deepcopy(EXISTING[name])
    after = settings.install(EXISTING[name], EXE)
    assert EXISTING[name] == before  # pure: the input is not modified
    assert settings.installed(after) == {
        "SessionStart": [
            {
                "type": "command",
                "command": EXE,
                "args": ["SessionStart"],
                "timeout": settings.TIMEOUTS["SessionStart"],
            }
        ],
        "SessionEnd": [
            {
                "type": "command",
                "command": EXE,
                "args": ["SessionEnd"],
                "timeout": settings.TIMEOUTS["SessionEnd"],
            }
        ],
    }
    assert others(after) == others(before)
    assert {k: v for k, v in after.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }


@pytest.mark.parametrize("name", sorted(EXISTING))
def test_install_is_idempotent_and_uninstall_restores(name: str) -> None:
    once = settings.install(EXISTING[name], EXE)
    assert settings.install(once, EXE) == once
    restored = settings.uninstall(once)
    if EXISTING[name].get("hooks") == {}:
        # An empty "hooks" object cannot be told apart from one vaultkit emptied; the CLI
        # restores such files byte for byte from the backup it took first.
        assert restored == {k: v for k, v in EXISTING[name].items() if k != "hooks"}
    else:
        assert restored == EXISTING[name]
    assert settings.uninstall(restored) == restored


def test_a_stale_vaultkit_entry_is_replaced_in_place_of_duplicating() -> None:
    old = {"type": "command", "command": "/old/venv/bin/vaultkit-hook SessionStart"}
    data = {"hooks": {"SessionStart": [{"matcher": "*", "hooks": [OTHER_START, old]}]}}
    after = settings.install(data, EXE)
    assert [h["command"] for h in settings.installed(after)["SessionStart"]] == [EXE]
    assert after["hooks"]["SessionStart"][0] == {"matcher": "*", "hooks": [OTHER_START]}


def test_uninstall_drops_only_containers_it_emptied() -> None:
    data = {
        "hooks": {
            "SessionStart": [
                {"matcher": "*", "hooks": [settings.hook_entry(EXE, "SessionStart")]},
                {"matcher": "startup", "hooks": [OTHER_START]},
            ],
            "SessionEnd": [{"matcher": "*", "hooks": [settings.hook_entry(EXE, "SessionEnd")]}],
            "Stop": [],
        }
    }
    assert settings.uninstall(data) == {
        "hooks": {"SessionStart": [{"matcher": "startup", "hooks": [OTHER_START]}], "Stop": []}
    }


def test_shell_form_quotes_the_path_and_is_still_recognised() -> None:
    exe = "/Users/Jane Doe/venv/bin/vaultkit-hook"
    hook = settings.hook_entry(exe, "SessionEnd", shell_form=True)
    assert hook == {"type": "command", "command": f"'{exe}' SessionEnd", "timeout": 2}
    assert settings.is_vaultkit(hook) and settings.executable_of(hook) == exe
    assert settings.executable_of(settings.hook_entry(exe, "SessionEnd")) == exe


def test_session_end_always_has_an_explicit_timeout() -> None:
    for shell_form in (False, True):
        assert settings.hook_entry(EXE, "SessionEnd", shell_form=shell_form)["timeout"] <= 5


def test_python_module_form_is_recognised_as_vaultkit() -> None:
    assert settings.is_vaultkit({"command": "python -m vaultkit.hookentry SessionStart"})
    assert not settings.is_vaultkit({"command": "vaultkit-other-tool"})
    assert not settings.is_vaultkit({"command": "echo hi"})
    assert not settings.is_vaultkit("vaultkit-hook")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"hooks": {', "not valid JSON"),
        ('{"a": 1,}', "not valid JSON"),
        ("// comment\n{}", "not valid JSON"),
        ("[]", "holds a JSON list"),
        ('"text"', "holds a JSON str"),
        ("3", "holds a JSON int"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"SessionEnd": {}}}', '"hooks.SessionEnd" is not a list'),
    ],
)
def test_malformed_or_unexpected_settings_are_refused_with_a_hint(text: str, fragment: str) -> None:
    with pytest.raises(VaultkitError) as info:
        settings.parse(text, "/x/settings.json")
    assert fragment in info.value.message and "/x/settings.json" in info.value.message
    assert info.value.hint and "/x/settings.json" in info.value.hint


def test_blank_text_is_an_empty_object_and_render_keeps_unicode() -> None:
    assert settings.parse("  \n", "s") == {}
    assert settings.render({"a": "세션 🎉"}) == '{\n  "a": "세션 🎉"\n}\n'


def test_the_hand_configuration_example_matches_what_install_writes() -> None:
    example = REPO / "hooks" / "settings.example.json"
    data = settings.parse(example.read_text(encoding="utf-8"), str(example))
    placeholder = "/home/you/.venvs/vaultkit/bin/vaultkit-hook"
    assert data == settings.install({}, placeholder)
