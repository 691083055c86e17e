"""Fixture vaults: each folder's graph and link analysis must equal its expected.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from vaultkit.errors import VaultkitError
from vaultkit.vault import analysis
from vaultkit.vault.graph import build_graph, ghost_key
from vaultkit.vault.index import INDEX_NAME
from vaultkit.vault.indexer import regenerate_index
from vaultkit.vault.load import Vault, list_vault_files, load_vault, through_link

VAULTS = FIXTURES / "vaults"
NAMES = sorted(p.name for p in VAULTS.iterdir() if (p / "expected.json").is_file())


def _observed(vault: Vault) -> dict[str, Any]:
    graph = build_graph(vault)
    return {
        "nodes": sorted([key, attrs["kind"]] for key, attrs in graph.nodes(data=True)),
        "edges": sorted([s, t, attrs["kind"]] for s, t, attrs in graph.edges(data=True)),
        "ghosts": sorted({ghost_key(item) for item in analysis.ghosts(vault)}),
        "orphans": list(analysis.orphans(vault)),
        "isolated": list(analysis.isolated(vault)),
        "dead_ends": list(analysis.dead_ends(vault)),
        "ambiguous": [[i.source, i.resolution.path] for i in analysis.ambiguous(vault)],
    }


def test_there_are_fixture_vaults() -> None:
    assert {"basic", "folders", "unicode_case", "attachments", "index_rules"} <= set(NAMES)
    obsidian_index = {"tables", "footnotes", "math", "control_bytes", "case", "symlinks"}
    obsidian_index |= {"table_comments"}
    assert obsidian_index | {"template_frontmatter"} <= set(NAMES)


def _links(vault: Vault) -> list[list[Any]]:
    """Each link as ``[source, line, col, kind, target, subpath, display, resolved path]``."""
    rows: list[list[Any]] = []
    for item in vault.links:
        link = item.link
        row = [link.line, link.col, link.kind, link.target, link.subpath, link.display]
        rows.append([item.source, *row, item.resolution.path])
    return rows


def _findings(vault: Vault) -> list[list[Any]]:
    return [[f.path, f.line, f.col, f.code] for f in vault.findings]


@pytest.mark.parametrize("name", NAMES)
def test_fixture_vault_matches_expected(name: str) -> None:
    """``links`` and ``findings`` are optional in expected.json; without ``findings`` the vault
    must have none."""
    expected = json.loads((VAULTS / name / "expected.json").read_text(encoding="utf-8"))
    vault = load_vault(VAULTS / name / "vault", cache=False)
    observed = _observed(vault)
    for key in ("nodes", "edges"):
        expected[key] = sorted(expected[key])
    assert _findings(vault) == expected.pop("findings", [])
    if "links" in expected:
        assert _links(vault) == expected.pop("links")
    assert observed == expected


def test_dot_folders_and_dot_files_are_not_part_of_the_vault() -> None:
    files = list_vault_files(VAULTS / "folders" / "vault")
    assert files == [
        "Home.md",
        "archive/Plan.md",
        "projects/Plan.md",
        "projects/Spec.md",
        "shared/Notes.md",
    ]


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_symlinks_are_followed_as_obsidian_follows_them(tmp_path: Path) -> None:
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    _write(vault, "a.md", "[[b]] [[secret]] [[latest]] [[shared/deep]]")
    _write(vault, "real/b.md", "# B")
    _write(outside, "secret.md", "# kept outside, linked in")
    _write(tmp_path / "other", "deep.md", "# deeper")
    os.symlink(outside, vault / "escape")  # a folder link: listed under the link's name
    os.symlink(outside, vault / "escape2")  # a second link to it: listed once
    os.symlink(tmp_path / "other", vault / "shared")
    os.symlink(outside / "secret.md", vault / "leak.md")
    os.symlink(vault / "real", vault / "alias")  # a second route into real/: listed once
    os.symlink(vault, vault / "real" / "loop")  # a loop: never followed round
    os.symlink(tmp_path / "other", tmp_path / "other" / "again")  # a loop met through a link
    os.symlink(vault / "real" / "b.md", vault / "latest.md")  # a file link is its own file
    os.symlink(vault / "gone.md", vault / "broken.md")
    os.symlink(vault / "nowhere", vault / "broken-folder")
    assert list_vault_files(vault) == [
        "a.md",
        "escape/secret.md",
        "latest.md",
        "leak.md",
        "real/b.md",
        "shared/deep.md",
    ]
    loaded = load_vault(vault, cache=False)
    assert [item.resolution.path for item in loaded.links] == [
        "real/b.md",
        "escape/secret.md",
        "latest.md",
        "shared/deep.md",
    ]
    assert loaded.findings == ()


def test_the_real_route_into_a_folder_wins_over_a_link_met_first(tmp_path: Path) -> None:
    _write(tmp_path, "z/real/n.md", "# N")
    os.symlink(tmp_path / "z" / "real", tmp_path / "a-link")  # sorts before z/
    assert list_vault_files(tmp_path) == ["z/real/n.md"]


def test_through_link_names_links_and_linked_folders(tmp_path: Path) -> None:
    _write(tmp_path, "outside/x.md", "x")
    _write(tmp_path, "vault/plain.md", "p")
    vault = tmp_path / "vault"
    os.symlink(tmp_path / "outside", vault / "linked")
    os.symlink(tmp_path / "outside" / "x.md", vault / "file.md")
    assert not through_link(vault, "plain.md")
    assert not through_link(vault, "missing/new.md")
    assert through_link(vault, "linked/x.md")
    assert through_link(vault, "file.md")


def test_index_is_never_written_through_a_link(tmp_path: Path) -> None:
    vault, elsewhere = tmp_path / "vault", tmp_path / "elsewhere.md"
    _write(vault, "a.md", "# A")
    elsewhere.write_text("hand-written\n", encoding="utf-8")
    os.symlink(elsewhere, vault / INDEX_NAME)
    with pytest.raises(VaultkitError, match="symbolic link") as raised:
        regenerate_index(vault)
    assert str(vault / INDEX_NAME) in raised.value.message
    assert elsewhere.read_text(encoding="utf-8") == "hand-written\n"
    assert (vault / INDEX_NAME).is_symlink()
    assert regenerate_index(vault, dry_run=True).changed  # computing is fine


def test_lint_fix_never_writes_through_a_link(tmp_path: Path) -> None:
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    _write(vault, "Target.md", "---\naliases: [Nick]\n---\n# T\n")
    _write(vault, "here.md", "[[Nick]]\n")
    _write(outside, "there.md", "[[Nick]]\n")
    _write(outside, "file.md", "[[Nick]]\n")
    os.symlink(outside, vault / "linked")
    os.symlink(outside / "file.md", vault / "file.md")
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", "--fix", "--unsafe-fixes", str(vault)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (0, 1), done.stderr
    assert (vault / "here.md").read_text(encoding="utf-8") == "[[Target|Nick]]\n"
    assert (outside / "there.md").read_text(encoding="utf-8") == "[[Nick]]\n"
    assert (outside / "file.md").read_text(encoding="utf-8") == "[[Nick]]\n"
    assert (vault / "file.md").is_symlink()


def test_a_file_that_vanishes_mid_walk_is_a_vk202_finding(tmp_path: Path) -> None:
    _write(tmp_path, "a.md", "[[b]] and [[c]]")
    doomed = _write(tmp_path, "b.md", "# B")
    _write(tmp_path, "c.md", "# C")
    calls: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        if done == 1:
            doomed.unlink()

    vault = load_vault(tmp_path, progress=progress)
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert [n.path for n in vault.notes] == ["a.md", "c.md"]
    assert [(f.path, f.code, f.severity) for f in vault.findings] == [("b.md", "VK202", "error")]


def test_binary_note_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "bin.md").write_bytes(b"\x00\x01\x02")
    _write(tmp_path, "ok.md", "[[bin]]")
    vault = load_vault(tmp_path)
    assert [f.code for f in vault.findings] == ["VK202"]
    assert [item.resolution.path for item in vault.links] == ["bin.md"]


def test_vault_note_lookup_and_sorting(tmp_path: Path) -> None:
    for rel in ("z.md", "a/b.md", "A.md", "pic.PNG", "Upper.MD"):
        _write(tmp_path, rel, "x")
    vault = load_vault(tmp_path)
    assert [n.path for n in vault.notes] == ["A.md", "Upper.MD", "a/b.md", "z.md"]
    assert vault.attachments == ("pic.PNG",)
    assert vault.note("a/b.md") is not None
    assert vault.note("A/B.md") is None
    assert vault.root == tmp_path
