"""`vaultkit watch`: a real process keeps INDEX.md current through creates, renames, deletes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from vaultkit.cli.watch_cmd import describe
from vaultkit.vault.watch import Update, update, vault_paths

BIN = Path(sys.executable).parent
WAIT_S = 30.0


def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _index(root: Path) -> str:
    try:
        return (root / "INDEX.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


@pytest.fixture
def watcher(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "Alpha.md").write_text("# Alpha\n\nSee [[Beta]].\n", encoding="utf-8")
    process = subprocess.Popen(
        [str(BIN / "vaultkit"), "watch", str(root), "--debounce", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        yield root, process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def test_vault_paths_ignore_dot_folders_dot_files_and_outside_paths(tmp_path: Path) -> None:
    root = tmp_path
    given: list[str | bytes] = [
        str(root / "a.md"),
        str(root / ".vaultkit" / "cache.sqlite"),
        str(root / ".obsidian" / "workspace.json"),
        str(root / ".INDEX.md.abc.tmp"),
        str(tmp_path.parent / "elsewhere.md"),
        str(root / "sub" / "b.md").encode(),
        str(root),
    ]
    assert vault_paths(root, given) == {"a.md", "sub/b.md"}


def test_update_reports_a_user_error_instead_of_raising(tmp_path: Path) -> None:
    (tmp_path / "INDEX.md").write_bytes(b"\xff\xfe not utf-8")
    result = update(tmp_path)
    assert result.outcome is None and result.error is not None and "UTF-8" in result.error
    assert "not updated" in describe(result, "INDEX.md")
    ok = Update(None, None, 0.0)
    assert ok.error is None


def test_watch_follows_creates_renames_deletes_and_half_written_notes(
    watcher: tuple[Path, subprocess.Popen[str]],
) -> None:
    root, process = watcher
    assert process.stdout is not None
    first = process.stdout.readline()
    assert "INDEX.md: updated, 1 notes listed" in first
    assert process.stdout.readline().startswith("watching ")
    assert "[[Alpha]]" in _index(root)

    (root / "Beta.md").write_text("# Beta\n\nBack to [[Alpha]].\n", encoding="utf-8")
    _until(lambda: "[[Beta]]" in _index(root), "a created note to be listed")

    (root / "sub").mkdir()
    (root / "Beta.md").rename(root / "sub" / "Gamma.md")
    _until(lambda: "[[Gamma]]" in _index(root) and "[[Beta]]" not in _index(root), "a rename")

    half = root / "Delta.md"
    half.write_text("---\ntitle: [unfinished\n", encoding="utf-8")  # a save caught midway
    _until(lambda: "[[Delta]]" in _index(root), "a half-written note to be listed")
    half.write_text("---\ntitle: Delta done\n---\n# Delta\n", encoding="utf-8")
    _until(lambda: "Delta done" in _index(root), "the finished note's title")

    (root / "sub" / "Gamma.md").unlink()
    (root / ".obsidian").mkdir()
    (root / ".obsidian" / "workspace.json").write_text("{}", encoding="utf-8")
    _until(lambda: "[[Gamma]]" not in _index(root), "a deleted note to leave the index")

    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert "not updated" not in out + err


def test_watch_leaves_a_current_index_alone(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "One.md").write_text("# One\n", encoding="utf-8")
    subprocess.run([str(BIN / "vaultkit"), "index", "-q", str(root)], check=True)
    before = (root / "INDEX.md").stat().st_mtime_ns
    process = subprocess.Popen(
        [str(BIN / "vaultkit"), "watch", str(root), "--debounce", "0.1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert ": unchanged, 1 notes listed" in process.stdout.readline()
        assert process.stdout.readline().startswith("watching ")
        os.utime(root / "One.md")  # an event that changes nothing the index shows
        time.sleep(1.0)
        assert (root / "INDEX.md").stat().st_mtime_ns == before
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=20)
    assert process.returncode == 0
