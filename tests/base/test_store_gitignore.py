"""What goes into git: the store's own .gitignore, written, repaired and merged (issue 12)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import require_program

from vaultkit.base import gitignore
from vaultkit.base.config import parse_config
from vaultkit.base.store import Store, find_store
from vaultkit.errors import VaultkitError

pytestmark = pytest.mark.timeout(60)

PRIVATE = ("raw", "transcripts", "logs", ".vaultkit")


def git(repo: Path, *args: str) -> str:
    require_program("git")
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, timeout=30
    )
    return done.stdout


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    return path


def fill(store: Store) -> None:
    """One file in every part of the store."""
    for part in ("raw", "summary", "wiki", "transcripts", "logs", ".vaultkit"):
        (store.root / part).mkdir(parents=True, exist_ok=True)
        (store.root / part / "x.md").write_text("x\n", encoding="utf-8")


def untracked(repo: Path) -> set[str]:
    out = git(repo, "status", "--porcelain", "--untracked-files=all")
    return {line[3:] for line in out.splitlines()}


def test_a_new_store_keeps_its_private_parts_out_of_git(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "proj")
    store = find_store(repo, env={})
    gitignore.ensure(store)
    fill(store)
    assert untracked(repo) == {
        "sessions/.gitattributes",
        "sessions/.gitignore",
        "sessions/summary/x.md",
        "sessions/wiki/x.md",
    }


def test_git_share_changes_what_is_shared(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "proj")
    store = find_store(repo, env={})
    fill(store)
    gitignore.sync(store, ["wiki", "transcripts"])
    assert untracked(repo) == {
        "sessions/.gitignore",
        "sessions/wiki/x.md",
        "sessions/transcripts/x.md",
    }
    gitignore.sync(store, [])
    assert untracked(repo) == {"sessions/.gitignore"}


def test_the_users_gitignore_is_merged_byte_for_byte_and_idempotently(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    store.root.mkdir()
    users = b"# mine\r\n*.bak\r\nraw/\r\n!keep.md"  # CRLF, no final newline, raw/ already there
    (store.root / ".gitignore").write_bytes(users)
    assert gitignore.sync(store, ["wiki", "summary"]) is True
    data = (store.root / ".gitignore").read_bytes()
    assert data.startswith(users + b"\n")
    managed = data[len(users) + 1 :].decode()
    assert managed.splitlines() == [
        gitignore.BEGIN,
        "/transcripts/",
        "/logs/",
        "/.vaultkit/",
        gitignore.END,
    ]  # raw/ is the user's line already, so it is not repeated
    assert gitignore.sync(store, ["wiki", "summary"]) is False
    assert (store.root / ".gitignore").read_bytes() == data
    gitignore.sync(store, ["wiki"])  # summary becomes private: only the block changes
    after = (store.root / ".gitignore").read_bytes()
    assert after.startswith(users + b"\n") and b"/summary/\n" in after
    assert after.count(gitignore.BEGIN.encode()) == 1


def test_lines_after_the_block_survive_a_rewrite(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    store.root.mkdir()
    gitignore.sync(store, ["wiki", "summary"])
    path = store.root / ".gitignore"
    path.write_text(path.read_text() + "scratch/\n", encoding="utf-8")
    gitignore.sync(store, ["wiki"])
    text = path.read_text()
    assert text.endswith(f"{gitignore.END}\nscratch/\n") and "/summary/\n" in text


def test_ensure_repairs_a_missing_file_and_only_stats_a_present_one(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    gitignore.ensure(store)
    path = store.root / ".gitignore"
    assert "/raw/" in path.read_text()
    path.write_text("mine\n", encoding="utf-8")  # present: ensure leaves it as it is
    before = path.stat().st_mtime_ns
    gitignore.ensure(store)
    assert path.read_text() == "mine\n" and path.stat().st_mtime_ns == before
    path.unlink()
    gitignore.ensure(store)
    assert "/raw/" in path.read_text()


def test_ensure_follows_the_config_and_an_invalid_one_keeps_everything_private(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "sessions")
    store.root.mkdir()
    store.config_file.write_text('[git]\nshare = ["wiki"]\n', encoding="utf-8")
    gitignore.ensure(store)
    assert "/summary/" in (store.root / ".gitignore").read_text()
    (store.root / ".gitignore").unlink()
    store.config_file.write_text("[git]\nshare = [\n", encoding="utf-8")
    gitignore.ensure(store)
    text = (store.root / ".gitignore").read_text()
    assert all(f"/{p}/" in text for p in ("raw", "summary", "wiki", "transcripts"))


def test_git_share_is_checked() -> None:
    assert parse_config("", "v.toml").git.share == ["wiki", "summary"]
    assert parse_config('[git]\nshare = ["raw"]\n', "v.toml").git.share == ["raw"]
    with pytest.raises(VaultkitError, match=r"v\.toml: git\.share names '\.vaultkit'"):
        parse_config('[git]\nshare = [".vaultkit"]\n', "v.toml")
    with pytest.raises(VaultkitError, match=r"unknown setting git\.private"):
        parse_config("[git]\nprivate = []\n", "v.toml")


def test_the_session_end_hook_creates_the_gitignore(tmp_path: Path) -> None:
    """A real SessionEnd hook process in a real git repository; its worker keeps it."""
    from worker_support import (
        claude_projects,
        exited,
        payload_bytes,
        run_hook,
        spawned_pids,
        wait_for,
    )

    repo = git_repo(tmp_path / "proj")
    missing = claude_projects() / "never-written.jsonl"  # the worker drops the job at once
    done = run_hook("SessionEnd", payload_bytes("session_end_other.json", missing, repo), repo)
    assert done.returncode == 0
    store = Store(repo / "sessions")
    assert "/raw/\n" in (store.root / ".gitignore").read_text()
    wait_for(lambda: all(exited(pid) for pid in spawned_pids(store)), timeout=30)
    assert spawned_pids(store)
    assert untracked(repo) == {"sessions/.gitattributes", "sessions/.gitignore"}
