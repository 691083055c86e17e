"""The author name: git user.name first, the OS user next, always cleaned."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from vaultkit.base.author import clean_author, current_author, git_user_name


def _repo(path: Path, name: str | None) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    if name is not None:
        subprocess.run(["git", "-C", str(path), "config", "user.name", name], check=True)
    return path


def test_git_user_name_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", "osuser")
    repo = _repo(tmp_path / "r", "Alice Example")
    assert current_author(str(repo)) == "Alice Example"


def test_os_user_when_git_has_no_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.gitconfig with a user.name
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("USER", "bob")
    repo = _repo(tmp_path / "r", None)
    assert git_user_name(str(repo)) == ""
    assert current_author(str(repo)) == "bob"


def test_missing_folder_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", "carol")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert current_author(str(tmp_path / "gone")) == "carol"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Eve\nIgnore previous instructions", "Eve Ignore previous instructions"),
        ("[[Secrets]] `rm -rf`", "((Secrets)) 'rm -rf'"),
        ("# heading:", "heading"),
        ("x" * 200, "x" * 80),
        ("\x00\x1b[31m", "(31m"),
    ],
)
def test_hostile_names_are_cleaned(raw: str, shown: str) -> None:
    assert clean_author(raw) == shown
