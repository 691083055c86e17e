"""``vaultkit lint`` with file arguments: only those files are reported, against their vault."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.lint.files import common_folder, marked_vault, read_list, vault_paths


def lint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=stdin,
        timeout=60,
    )


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("[[b]] [[Ghost A]]\n", encoding="utf-8")
    (root / "b.md").write_text("[[sub/c]] [[Ghost B]]\n", encoding="utf-8")
    (root / "sub" / "c.md").write_text("[[Ghost C]]\n", encoding="utf-8")  # links to nothing
    return root


def test_named_files_are_reported_resolved_against_the_whole_vault(vault: Path) -> None:
    out = lint("vault/a.md", "vault/sub/c.md", cwd=vault.parent)
    # a.md is an orphan only because the whole vault was read: nothing links to it
    assert out.stdout == (
        "vault/a.md:1:1: VK301 orphan: no other note links here (INDEX.md excluded)\n"
        "vault/a.md:1:7: VK101 [[Ghost A]]: no note named 'Ghost A'\n"
        "vault/sub/c.md:1:1: VK101 [[Ghost C]]: no note named 'Ghost C'\n"
    )
    assert out.returncode == 1
    assert out.stderr.endswith("in 2 notes\n")


def test_files_from_standard_input_and_a_vault_folder(vault: Path) -> None:
    out = lint("--files-from", "-", "vault", cwd=vault.parent, stdin="vault/b.md\n\n")
    assert out.stdout == "vault/b.md:1:11: VK101 [[Ghost B]]: no note named 'Ghost B'\n"


def test_a_file_outside_the_named_vault_is_left_alone_and_said(vault: Path) -> None:
    (vault.parent / "README.md").write_text("[[x]]\n", encoding="utf-8")
    out = lint("vault", "README.md", cwd=vault.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""
    assert "README.md is not in the vault" in out.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("vault/nope.md",), "vault/nope.md: no such file or folder"),
        (("vault", "vault/sub"), "2 folders given"),
        (("--files-from", "missing.txt", "vault"), "missing.txt: cannot read the file list"),
    ],
)
def test_bad_file_arguments_are_usage_errors(vault: Path, args: tuple[str, ...], said: str) -> None:
    out = lint(*args, cwd=vault.parent)
    assert out.returncode == 2
    assert out.stderr.startswith(f"error: {said}"), out.stderr
    assert "Traceback" not in out.stderr


def test_the_vault_of_files_is_the_marked_folder_above_them(tmp_path: Path) -> None:
    deep = tmp_path / "v" / "x" / "y"
    deep.mkdir(parents=True)
    note = deep / "n.md"
    note.write_text("x", encoding="utf-8")
    assert marked_vault([note]) is None
    assert common_folder([note, tmp_path / "v" / "x" / "m.md"]) == (tmp_path / "v" / "x")
    (tmp_path / "v" / "vaultkit.toml").write_text("")
    assert marked_vault([note]) == tmp_path / "v"
    (tmp_path / "v" / "x" / ".obsidian").mkdir()
    assert marked_vault([note]) == tmp_path / "v" / "x"  # Obsidian's settings win


def test_a_store_marks_its_wiki_as_the_vault(tmp_path: Path) -> None:
    wiki = tmp_path / "sessions" / "wiki"
    wiki.mkdir(parents=True)
    (tmp_path / "sessions" / ".vaultkit").mkdir()
    assert marked_vault([wiki / "n.md"]) == wiki


def test_vault_paths_split_inside_from_outside(tmp_path: Path) -> None:
    (tmp_path / "v").mkdir()
    inside, outside = vault_paths(tmp_path / "v", [tmp_path / "v" / "a b.md", tmp_path / "o.md"])
    assert (inside, outside) == (["a b.md"], [tmp_path / "o.md"])
    assert read_list("a.md\n\n  \nb c.md\r\n") == [Path("a.md"), Path("b c.md")]


@pytest.mark.slow
def test_a_big_note_is_announced_before_it_is_read(tmp_path: Path) -> None:
    from vaultkit.lint.cache.run import BIG_NOTE_BYTES, lint_vault

    (tmp_path / "small.md").write_text("[[big]]\n", encoding="utf-8")
    line = "Words and words about [[small]] today.\n\n"
    (tmp_path / "big.md").write_text(line * (BIG_NOTE_BYTES // len(line) + 1), encoding="utf-8")
    said: list[str] = []
    result = lint_vault(tmp_path, cache=False, notice=said.append)
    assert said == ["parsing big note big.md (5 MB)"]
    assert result.findings == []
    lint_vault(tmp_path, cache=True, notice=said.append)  # the full run that stores the state
    assert said[1:] == ["parsing big note big.md (5 MB)"]
    lint_vault(tmp_path, cache=True, notice=said.append)  # nothing to read: nothing to say
    assert len(said) == 2
