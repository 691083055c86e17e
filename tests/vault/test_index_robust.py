"""``vaultkit index`` never crashes and never silently drops a note; ``links ""`` is a usage
error. Real files and real processes; the immutable case uses ``chattr +i`` for real."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def vk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text("[[b]]\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("# B\n", encoding="utf-8")
    return tmp_path


def _one_error(out: subprocess.CompletedProcess[str], said: str) -> None:
    """Exit 2 with one ``error: …`` line naming the file, then its hint."""
    assert out.returncode == 2, out.stderr
    first, *rest = out.stderr.splitlines()
    assert first.startswith("error: ") and said in first, out.stderr
    assert all(line.startswith("hint: ") for line in rest), out.stderr


def test_an_index_that_is_a_folder_is_a_clear_error(vault: Path) -> None:
    (vault / "INDEX.md").mkdir()
    _one_error(vk("index", ".", cwd=vault), "INDEX.md: is a folder, not a file")


def test_a_read_only_index_is_left_alone(vault: Path) -> None:
    index = vault / "INDEX.md"
    index.write_text("# Index\n", encoding="utf-8")
    index.chmod(0o444)
    _one_error(vk("index", ".", cwd=vault), "INDEX.md: is read-only")
    assert index.read_text(encoding="utf-8") == "# Index\n"
    assert vk("index", "--check", ".", cwd=vault).returncode == 1  # checking needs no writing


def test_an_immutable_index_is_a_clear_error(vault: Path) -> None:
    index = vault / "INDEX.md"
    index.write_text("# Index\n", encoding="utf-8")
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(index)]).returncode != 0:
        pytest.skip("this file system or user cannot make a file immutable")
    try:
        _one_error(vk("index", ".", cwd=vault), "INDEX.md: cannot be written")
    finally:
        subprocess.run([chattr, "-i", str(index)], check=True)
    assert index.read_text(encoding="utf-8") == "# Index\n"


def test_notes_it_cannot_list_are_named_never_dropped_silently(vault: Path) -> None:
    (vault / "new\nline.md").write_text("x\n", encoding="utf-8")
    (vault / "odd]]name.md").write_text("y\n", encoding="utf-8")
    (vault / "latin1.md").write_bytes(b"caf\xe9\n")
    out = vk("index", "-q", ".", cwd=vault)
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines() == [
        "warning: not listed in INDEX.md: latin1.md: not read "
        "(not valid UTF-8 (byte 0xe9 at line 1))",
        "warning: not listed in INDEX.md: new\\nline.md: its name holds '\\n', which a [[link]] "
        "cannot hold",
        "warning: not listed in INDEX.md: odd]]name.md: its name holds ']]', which a [[link]] "
        "cannot hold",
    ]
    text = (vault / "INDEX.md").read_text(encoding="utf-8")
    assert "[[a]]" in text and "[[b]]" in text
    assert "odd" not in text and "new" not in text  # never written as a broken link
    lint = vk("lint", "--select", "VK4", ".", cwd=vault)
    assert "VK402" not in lint.stdout  # the index is current: what index writes
    assert "new\\nline.md:1:1: VK401 not listed in INDEX.md: its name holds '\\n'" in lint.stdout
    assert len(lint.stdout.splitlines()) == 2  # one line per finding, the newline escaped


def test_an_unreadable_index_is_a_clear_error(vault: Path) -> None:
    if os.geteuid() == 0:
        (vault / "INDEX.md").write_bytes(b"\xff\xfe")  # root reads anything: use bad bytes
        _one_error(vk("index", ".", cwd=vault), "INDEX.md: not UTF-8")
        return
    (vault / "INDEX.md").write_text("# Index\n", encoding="utf-8")
    (vault / "INDEX.md").chmod(0)
    _one_error(vk("index", ".", cwd=vault), "INDEX.md: cannot be read")


@pytest.mark.parametrize("name", ["", "   "])
def test_links_of_an_empty_name_is_a_usage_error(vault: Path, name: str) -> None:
    out = vk("links", name, ".", cwd=vault)
    assert out.returncode == 2
    assert "give a note's name or path, not an empty string" in out.stderr
    assert "Traceback" not in out.stderr
