"""Where a store lives: a project keeps its own, a folder that is not a project gets none."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from vaultkit.base.store import data_dir, find_store, folder_key, is_project_store

pytestmark = pytest.mark.timeout(60)


def test_a_folder_that_is_not_a_project_gets_its_store_under_vaultkit_home(tmp_path: Path) -> None:
    home, folder = tmp_path / "vk", tmp_path / "scratch"
    folder.mkdir()
    env = {"VAULTKIT_HOME": str(home), "HOME": str(tmp_path)}
    store = find_store(folder, env=env)
    assert store.root == home.resolve() / "projects" / folder_key(str(folder)) / "sessions"
    assert not is_project_store(store, env)
    assert not (folder / "sessions").exists()
    assert find_store(folder, env=env) == store  # the same folder, the same store
    other = tmp_path / "elsewhere" / "scratch"  # same name, other folder: another store
    other.mkdir(parents=True)
    assert find_store(other, env=env) != store


def test_the_default_data_folder_is_the_platforms(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    if sys.platform.startswith("linux"):
        assert data_dir(env) == str(tmp_path / ".local" / "share" / "vaultkit")
        xdg = tmp_path / "xdg"
        assert data_dir({**env, "XDG_DATA_HOME": str(xdg)}) == str(xdg / "vaultkit")
        assert data_dir({**env, "XDG_DATA_HOME": "relative"}).startswith(str(tmp_path))
    store = find_store(tmp_path, env=env)
    assert Path(data_dir(env)) in store.root.parents


def test_the_home_folder_itself_gets_no_sessions_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    store = find_store(home, env={"HOME": str(home)})
    assert store.root.parent.parent == home / ".local" / "share" / "vaultkit" / "projects"
    assert store.root.parent.name.startswith("home-")


def test_folder_keys_are_safe_names(tmp_path: Path) -> None:
    key = folder_key(str(tmp_path / "my proj:<>ü"))
    assert key.startswith("my-proj") and len(key.rsplit("-", 1)[1]) == 10
    assert all(c.isascii() and (c.isalnum() or c in "._-") for c in key)
    assert folder_key("/").startswith("folder-")


def test_existing_stores_keep_working_where_they_are(tmp_path: Path) -> None:
    env = {"VAULTKIT_HOME": str(tmp_path / "vk"), "HOME": str(tmp_path / "home")}
    notes = tmp_path / "notes"
    (notes / "sessions" / "summary").mkdir(parents=True)  # the seeds' layout, no git
    assert find_store(notes, env=env).root == notes / "sessions"
    (notes / "sub").mkdir()
    assert find_store(notes / "sub", env=env).root == notes / "sessions"
    assert find_store(notes / "sessions" / "summary", env=env).root == notes / "sessions"


def test_a_store_in_home_is_not_inherited_by_every_folder_below(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "sessions" / "raw").mkdir(parents=True)  # an earlier vaultkit made one here
    (home / "scratch").mkdir()
    env = {"VAULTKIT_HOME": str(tmp_path / "vk"), "HOME": str(home)}
    assert find_store(home, env=env).root == home / "sessions"
    assert find_store(home / "scratch", env=env).root != home / "sessions"


def test_a_git_project_keeps_its_store_at_the_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    env = {"VAULTKIT_HOME": str(tmp_path / "vk")}
    store = find_store(tmp_path / "src", env=env)
    assert store.root == tmp_path / "sessions" and is_project_store(store, env)


def test_a_session_in_a_folder_that_is_not_a_project_leaves_it_untouched(tmp_path: Path) -> None:
    """The real SessionEnd hook and its worker, run in a plain folder."""
    from worker_support import (
        claude_projects,
        exited,
        hook_env,
        payload_bytes,
        run_hook,
        spawned_pids,
        wait_for,
    )

    folder = tmp_path / "plain"
    folder.mkdir()
    home = tmp_path / "vk"
    env = hook_env(VAULTKIT_HOME=str(home))
    payload = payload_bytes("session_end_other.json", claude_projects() / "gone.jsonl", folder)
    assert run_hook("SessionEnd", payload, folder, env).returncode == 0
    store = find_store(folder, env={"VAULTKIT_HOME": str(home)})
    assert store.root.is_dir() and (store.root / ".gitignore").is_file()
    wait_for(lambda: all(exited(pid) for pid in spawned_pids(store)), timeout=30)
    assert spawned_pids(store)
    assert os.listdir(folder) == []
