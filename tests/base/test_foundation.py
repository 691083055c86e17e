"""The foundation: errors, atomic writes, the bounded log, store discovery and strict config."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit import __version__
from vaultkit.base.config import load_config, parse_config
from vaultkit.base.fsio import atomic_write_text, write_if_changed
from vaultkit.base.log import append_log
from vaultkit.base.store import find_store, state_dir_for_vault
from vaultkit.errors import VaultkitError


def test_cli_version_runs_as_a_real_process() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "vaultkit", "version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == __version__


def test_home_is_isolated(tmp_path: Path) -> None:
    assert Path(os.environ["HOME"]) != Path("~root").expanduser()
    assert "home" in Path(os.environ["HOME"]).name


def test_atomic_write_keeps_mode_and_write_if_changed_is_quiet(tmp_path: Path) -> None:
    target = tmp_path / "a.md"
    atomic_write_text(target, "one\n", mode=0o600)
    assert target.stat().st_mode & 0o777 == 0o600
    atomic_write_text(target, "two\n")
    assert target.read_text() == "two\n"
    assert target.stat().st_mode & 0o777 == 0o600
    before = target.stat().st_mtime_ns
    assert write_if_changed(target, "two\n") is False
    assert target.stat().st_mtime_ns == before
    assert write_if_changed(target, "three\n") is True
    assert [p.name for p in tmp_path.iterdir()] == ["a.md"]


def test_log_rotates_instead_of_growing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / ".vaultkit" / "vaultkit.log"
    monkeypatch.setattr("vaultkit.base.log.MAX_LOG_BYTES", 200)
    for i in range(50):
        append_log(log, f"entry {i}")
    assert log.stat().st_size <= 200
    assert (tmp_path / ".vaultkit" / "vaultkit.log.1").exists()
    assert not (tmp_path / ".vaultkit" / "vaultkit.log.4").exists()


def test_store_at_git_root_from_a_subfolder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    sub = tmp_path / "src" / "deep"
    sub.mkdir(parents=True)
    assert find_store(sub, env={}).root == tmp_path / "sessions"


def test_store_never_nests_sessions(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    assert find_store(folder, env={}).root == folder
    (folder / "wiki").mkdir()
    assert find_store(folder / "wiki", env={}).root == folder


def test_store_of_a_folder_that_is_not_a_project_is_under_vaultkit_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    work = tmp_path / "work"
    work.mkdir()
    store = find_store(work, env={"VAULTKIT_HOME": str(home)})
    assert store.root.parent.parent == home.resolve() / "projects"
    (work / "sessions" / "wiki").mkdir(parents=True)  # an existing store stays where it is
    assert find_store(work, env={}).root == work / "sessions"


def test_state_dir_for_store_wiki_and_plain_vault(tmp_path: Path) -> None:
    (tmp_path / "sessions" / "wiki").mkdir(parents=True)
    assert (
        state_dir_for_vault(tmp_path / "sessions" / "wiki") == tmp_path / "sessions" / ".vaultkit"
    )
    assert state_dir_for_vault(tmp_path / "vault") == tmp_path / "vault" / ".vaultkit"


def test_config_defaults_and_strictness(tmp_path: Path) -> None:
    assert load_config(tmp_path / "missing.toml").inject.budget == 9000
    cfg = parse_config('[lint]\nignore = ["VK301"]\n[inject]\nbudget = 5000\n', Path("v.toml"))
    assert cfg.lint.ignore == ["VK301"] and cfg.inject.budget == 5000
    with pytest.raises(VaultkitError, match=r"unknown setting lint\.ignor\b"):
        parse_config('[lint]\nignor = ["x"]\n', Path("v.toml"))
    with pytest.raises(VaultkitError, match=r"unknown section \[lnt\]"):
        parse_config("[lnt]\n", Path("v.toml"))
    with pytest.raises(VaultkitError, match="must be int"):
        parse_config("[inject]\nbudget = true\n", Path("v.toml"))
    with pytest.raises(VaultkitError, match="invalid TOML"):
        parse_config("[inject\n", Path("v.toml"))
