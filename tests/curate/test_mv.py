"""``vaultkit mv`` on real files: every link form rewritten in place, the vault's link format,
folders and attachments, dry runs, refusals, a killed move completed, INDEX.md following."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.curate import journal as jr
from vaultkit.curate.apply import move
from vaultkit.errors import VaultkitError

OTHER = (
    '---\nrelated: "[[Old note]]"\n---\n# Other\n\n'
    "A [[Old note#Goals|the plan]], an ![[Old note#^blk]], a [md](Old%20note.md#Goals),\n"
    "an [angle](<Old note.md>) and a self [[#Other]] | table [[Old note\\|x]] |\n"
)


def _mv(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "mv", "--vault", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    (root / "projects").mkdir(parents=True)
    (root / "Old note.md").write_text("# Old\n\n## Goals\n\ngoal ^blk\n", encoding="utf-8")
    (root / "projects" / "Other.md").write_text(OTHER, encoding="utf-8")
    return root


def test_a_rename_rewrites_every_link_form_and_nothing_else(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    done = _mv(root, "Old note.md", "New name.md")
    assert done.returncode == 0, done.stderr
    assert not (root / "Old note.md").exists()
    assert (root / "New name.md").read_text(encoding="utf-8").startswith("# Old")
    assert (root / "projects" / "Other.md").read_text(encoding="utf-8") == (
        '---\nrelated: "[[New name]]"\n---\n# Other\n\n'
        "A [[New name#Goals|the plan]], an ![[New name#^blk]], a [md](New%20name.md#Goals),\n"
        "an [angle](<New name.md>) and a self [[#Other]] | table [[New name\\|x]] |\n"
    )
    assert "rewrote 6 link(s) in 1 note(s)" in done.stderr


def test_dry_run_prints_the_diff_and_json_and_changes_nothing(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    done = _mv(root, "Old note.md", "archive/Renamed.md", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "-A [[Old note#Goals|the plan]]" in done.stdout
    assert "+A [[Renamed#Goals|the plan]]" in done.stdout  # the name is unique: no path
    assert (root / "Old note.md").exists() and not (root / "archive").exists()
    shown = _mv(root, "Old note.md", "projects/", "--json", "--dry-run")
    data = json.loads(shown.stdout)
    assert data["moved"] == [{"from": "Old note.md", "to": "projects/Old note.md"}]
    assert data["dry_run"] is True and data["rewritten"] == [] and "diff" in data
    assert (root / "Old note.md").exists()


def test_a_name_made_ambiguous_gets_a_path_in_the_vaults_format(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "archive").mkdir()
    (root / "archive" / "Plan.md").write_text("# the archived plan\n", encoding="utf-8")
    outcome = move(root, "Old note.md", "projects/Plan.md")
    text = (root / "projects" / "Other.md").read_text(encoding="utf-8")
    assert "[[projects/Plan#Goals|the plan]]" in text  # [[Plan]] alone would be a tie-break
    assert "[md](projects/Plan.md#Goals)" in text
    assert len(outcome.rewrites) == 6
    (root / ".obsidian").mkdir()
    (root / ".obsidian" / "app.json").write_text('{"newLinkFormat": "relative"}', "utf-8")
    move(root, "projects/Plan.md", "Plan two.md")
    text = (root / "projects" / "Other.md").read_text(encoding="utf-8")
    assert "[[../Plan two#Goals|the plan]]" in text
    assert "[angle](<../Plan two.md>)" in text


def test_folders_and_attachments_move_with_their_links(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "projects" / "pic one.png").write_bytes(b"\x89PNG")
    (root / "projects" / "Other.md").write_text(
        "![[pic one.png]] ![p](pic%20one.png) [[projects/Other]]\n", encoding="utf-8"
    )
    (root / "Home.md").write_text("[[projects/Other]] ![[projects/pic one.png]]\n", "utf-8")
    move(root, "projects", "work/current")
    assert (root / "work" / "current" / "pic one.png").read_bytes() == b"\x89PNG"
    assert not (root / "projects").exists()
    home = (root / "Home.md").read_text(encoding="utf-8")
    assert home == "[[Other]] ![[pic one.png]]\n"
    other = (root / "work" / "current" / "Other.md").read_text(encoding="utf-8")
    assert other == "![[pic one.png]] ![p](pic%20one.png) [[Other]]\n"


@pytest.mark.slow  # five CLI runs
def test_refuses_to_overwrite_leave_the_vault_or_write_through_a_link(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    before = (root / "projects" / "Other.md").read_bytes()
    taken = _mv(root, "Old note.md", "projects/other.md")  # another letter case is taken too
    assert taken.returncode != 0 and "exists already" in taken.stderr
    assert "Traceback" not in taken.stderr
    outside = _mv(root, "Old note.md", "../escaped.md")
    assert outside.returncode != 0 and "outside the vault" in outside.stderr
    hidden = _mv(root, "Old note.md", ".trash/Old note.md")
    assert hidden.returncode != 0 and "dot-folder" in hidden.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, root / "linked")
    linked = _mv(root, "Old note.md", "linked/Old note.md")
    assert linked.returncode != 0 and "symbolic link" in linked.stderr
    missing = _mv(root, "Nope.md", "B.md")
    assert missing.returncode != 0 and "no such note" in missing.stderr
    assert list(elsewhere.iterdir()) == []
    assert (root / "Old note.md").exists()
    assert (root / "projects" / "Other.md").read_bytes() == before


def test_the_next_mv_completes_a_move_killed_after_the_rename(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    state = tmp_path / "state"
    with pytest.raises(VaultkitError, match="exists already"):
        move(root, "Old note.md", "projects/Other.md", state_dir=state)
    planned = move(root, "Old note.md", "Renamed.md", dry_run=True, state_dir=state)
    other = root / "projects" / "Other.md"
    text = planned.diff  # the plan, as a killed run would have journalled it
    assert "[[Renamed#Goals|the plan]]" in text
    from vaultkit.curate.apply import Facts, prepare
    from vaultkit.vault.load import load_vault

    prep = prepare(root, Facts.of(load_vault(root, cache=False)), "Old note.md", "Renamed.md")
    jr.begin(state, jr.Journal(prep.rename, prep.writes))
    os.rename(root / "Old note.md", root / "Renamed.md")  # killed here: links not yet rewritten
    (root / "Third.md").write_text("[[Renamed]]\n", encoding="utf-8")
    outcome = move(root, "Third.md", "Fourth.md", state_dir=state)
    assert outcome.recovered == ("Old note.md", "Renamed.md")
    assert "[[Renamed#Goals|the plan]]" in other.read_text(encoding="utf-8")
    assert not jr.journal_path(state).exists()
    assert (root / "Fourth.md").read_text(encoding="utf-8") == "[[Renamed]]\n"


def test_index_md_follows_the_move(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    index = subprocess.run(
        [sys.executable, "-m", "vaultkit", "index", str(root)], capture_output=True, text=True
    )
    assert index.returncode == 0, index.stderr
    assert "[[Old note]]" in (root / "INDEX.md").read_text(encoding="utf-8")
    outcome = move(root, "Old note.md", "Fresh.md")
    listed = (root / "INDEX.md").read_text(encoding="utf-8")
    assert "[[Fresh]]" in listed and "[[Old note]]" not in listed
    assert [r.source for r in outcome.rewrites].count("INDEX.md") == 1
    check = subprocess.run(
        [sys.executable, "-m", "vaultkit", "index", "--check", str(root)],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout  # INDEX.md is what a regeneration writes


def test_paths_from_the_working_folder_work_as_vault_paths_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _vault(tmp_path)
    monkeypatch.chdir(tmp_path)
    outcome = move(root, "v/Old note.md", "v/projects/Renamed.md")
    assert outcome.moves == (("Old note.md", "projects/Renamed.md"),)
    assert (root / "projects" / "Renamed.md").is_file()
