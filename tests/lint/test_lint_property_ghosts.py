"""Ghosts in frontmatter properties have their own code (VK107), so a vault can keep them and
still check the links in its bodies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _lint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", "--no-cache", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _vault(root: Path) -> Path:
    (root / "v").mkdir()
    note = '---\nup: "[[Someday]]"\nrelated:\n  - "[[Later]]"\n---\nBody [[Missing]] and [[B]].\n'
    (root / "v" / "A.md").write_text(note, encoding="utf-8")
    (root / "v" / "B.md").write_text("[[A]]\n", encoding="utf-8")
    return root / "v"


def test_property_ghosts_are_vk107_and_body_ghosts_stay_vk101(tmp_path: Path) -> None:
    _vault(tmp_path)
    done = _lint("v", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "v/A.md:2:6: VK107 [[Someday]]: no note named 'Someday'",
        "v/A.md:4:6: VK107 [[Later]]: no note named 'Later'",
        "v/A.md:6:6: VK101 [[Missing]]: no note named 'Missing'",
    ]


def test_a_vault_can_keep_property_ghosts_and_check_body_links(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    (vault / "vaultkit.toml").write_text('[lint]\nignore = ["VK107"]\n', encoding="utf-8")
    done = _lint("v", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == "v/A.md:6:6: VK101 [[Missing]]: no note named 'Missing'\n"
    (vault / "A.md").write_text('---\nup: "[[Someday]]"\n---\n[[B]]\n', encoding="utf-8")
    assert _lint("v", cwd=tmp_path).returncode == 0
