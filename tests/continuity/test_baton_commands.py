"""The slash-command files vaultkit installs for the agent (/handoff and /save-handoff)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from baton_support import project, vk

from vaultkit.agents.claude import slashcmds
from vaultkit.errors import VaultkitError

NAMES = {"baton": "handoff", "save": "save-handoff"}
EXE = Path("/opt/my tools/bin/vaultkit")


def test_install_renders_the_absolute_program_and_is_idempotent(tmp_path: Path) -> None:
    folder = tmp_path / "commands"
    messages = slashcmds.install(slashcmds.plan(folder, NAMES, EXE))
    assert messages == [
        f"installed slash command /handoff in {folder / 'handoff.md'}",
        f"installed slash command /save-handoff in {folder / 'save-handoff.md'}",
    ]
    handoff = (folder / "handoff.md").read_text()
    assert handoff.startswith("---\ndescription: ")
    assert "allowed-tools: Bash('/opt/my tools/bin/vaultkit' baton:*)" in handoff
    assert "'/opt/my tools/bin/vaultkit' baton --session \"${CLAUDE_SESSION_ID}\"" in handoff
    for section in ("## Next move", "## Current hypothesis", "## Open questions", "## Live TODOs"):
        assert section in handoff
    save = (folder / "save-handoff.md").read_text()
    for section in ("## Current state", "## Key decisions", "## Modified files", "## Open issues"):
        assert section in save
    assert "save --session" in save and "@VAULTKIT@" not in save + handoff
    again = slashcmds.install(slashcmds.plan(folder, NAMES, EXE))
    assert all(m.endswith("slash command already up to date") for m in again)


def test_someone_elses_command_file_is_never_overwritten_or_removed(tmp_path: Path) -> None:
    folder = tmp_path / "commands"
    folder.mkdir()
    (folder / "handoff.md").write_text("my own handoff command\n")
    messages = slashcmds.install(slashcmds.plan(folder, NAMES, EXE))
    assert messages[0].endswith("exists and is not vaultkit's; left unchanged")
    assert (folder / "handoff.md").read_text() == "my own handoff command\n"
    removed = slashcmds.uninstall(folder, NAMES)
    assert removed == [f"removed slash command /save-handoff ({folder / 'save-handoff.md'})"]
    assert (folder / "handoff.md").exists() and not (folder / "save-handoff.md").exists()


def test_dry_run_writes_and_removes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "commands"
    assert len(slashcmds.install(slashcmds.plan(folder, NAMES, EXE), dry_run=True)) == 2
    assert not folder.exists()
    slashcmds.install(slashcmds.plan(folder, NAMES, EXE))
    assert len(slashcmds.uninstall(folder, NAMES, dry_run=True)) == 2
    assert len(list(folder.iterdir())) == 2


@pytest.mark.parametrize("bad", ["../evil", "a/b", "", "-x", "has space"])
def test_unusable_command_names_are_refused(bad: str, tmp_path: Path) -> None:
    with pytest.raises(VaultkitError, match="not usable as a file name"):
        slashcmds.plan(tmp_path, {"baton": bad}, EXE)


def test_sync_uses_the_folder_beside_the_settings_file_and_configured_names(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text(
        '[baton]\ncommand = "tl"\n[resume]\ncommand = "session-save"\n'
    )
    settings_file = project / ".claude" / "settings.json"
    messages = slashcmds.sync(settings_file, project)
    folder = project / ".claude" / "commands"
    assert sorted(p.name for p in folder.iterdir()) == ["session-save.md", "tl.md"]
    assert str(slashcmds.vaultkit_program()) in (folder / "tl.md").read_text()
    assert len(messages) == 2
    removed = slashcmds.sync(settings_file, project, remove=True)
    assert len(removed) == 2 and not folder.exists()


@pytest.mark.slow
def test_hooks_install_and_uninstall_manage_the_commands_and_the_prompt_hook(
    tmp_path: Path,
) -> None:
    root, _ = project(tmp_path / "proj")
    done = vk("hooks", "install", "--scope", "project", "--prompt-hook", cwd=root)
    assert done.returncode == 0, done.stderr
    folder = root / ".claude" / "commands"
    assert f"installed slash command /handoff in {folder / 'handoff.md'}" in done.stderr
    assert f"installed slash command /save-handoff in {folder / 'save-handoff.md'}" in done.stderr
    data = json.loads((root / ".claude" / "settings.json").read_text())
    [prompt] = data["hooks"]["UserPromptSubmit"][0]["hooks"]
    assert prompt["args"][-1] == "UserPromptSubmit" and prompt["timeout"] == 5
    # a committed file names the command found on PATH, never this machine's path (issue 21)
    assert (prompt["command"], prompt["args"]) == ("vaultkit-hook", ["UserPromptSubmit"])
    again = vk("hooks", "install", "--scope", "project", cwd=root)
    assert again.stderr.count("slash command already up to date") == 2
    assert "UserPromptSubmit" in (root / ".claude" / "settings.json").read_text()
    removed = vk("hooks", "uninstall", "--scope", "project", cwd=root)
    assert removed.returncode == 0 and "removed slash command /handoff" in removed.stderr
    assert not folder.exists() and not (root / ".claude" / "settings.json").exists()
