"""A vault or store whose index cannot be written is still searchable (the index is kept in
memory), and a store that does not exist yet gets nothing written for a search."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from vaultkit.base.store import Store
from vaultkit.cli import main
from vaultkit.mcp.tools import Memory
from vaultkit.mcp.tools import search as mcp_search
from vaultkit.search.find import Filters
from vaultkit.search.recall import search_folder

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Callouts.md").write_text("# Callouts\n\nFold a callout.\n", encoding="utf-8")
    (vault / "Tags.md").write_text("# Tags\n\nAdd a tag.\n", encoding="utf-8")
    return vault


def test_a_vault_whose_state_folder_cannot_be_made_is_searched_in_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vault = _vault(tmp_path)
    (vault / ".vaultkit").write_text("not a folder\n", encoding="utf-8")  # blocks the index
    before = _files(vault)
    found = search_folder(vault, "How do I fold a callout?", Filters())
    assert [h.path for h in found.hits] == ["Callouts.md"]
    assert found.refresh.in_memory and found.refresh.total == 2
    assert main(["search", "tag", str(vault)]) == 0
    err = capsys.readouterr().err
    assert "is not writable, so its search index was built in memory" in err
    assert _files(vault) == before  # nothing written, nothing changed


@pytest.mark.skipif(ROOT, reason="root writes into read-only folders")
def test_a_read_only_vault_with_a_current_index_is_searched_from_a_copy(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    assert search_folder(vault, "callout", Filters()).refresh.rebuilt  # index on disk
    modes = {}
    for path in [vault, *vault.rglob("*")]:
        modes[path] = path.stat().st_mode
        path.chmod(stat.S_IMODE(modes[path]) & ~0o222)
    try:
        before = _files(vault)
        found = search_folder(vault, "tag", Filters())
        assert [h.path for h in found.hits] == ["Tags.md"]
        assert found.refresh.in_memory and found.refresh.updated == 0  # copied, not re-read
        assert _files(vault) == before
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def test_a_store_that_does_not_exist_yet_gets_nothing_written(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    memory = Memory(Store(repo / "sessions"))
    answer = mcp_search(memory, "anything at all", [], "", "", 10)
    assert answer["results"] == []
    assert "advice" in answer
    assert list(repo.iterdir()) == []  # no sessions/, no .vaultkit/


def test_updating_an_index_that_cannot_be_written_parses_nothing(tmp_path: Path) -> None:
    from vaultkit.search.corpus import vault_corpus
    from vaultkit.search.index import update_index

    vault = _vault(tmp_path)
    (vault / ".vaultkit").write_text("not a folder\n", encoding="utf-8")
    result = update_index(vault_corpus(vault))
    assert (result.in_memory, result.updated, result.total) == (True, 0, 0)


def test_a_targeted_update_of_a_missing_index_fills_it_whole(tmp_path: Path) -> None:
    from vaultkit.search.corpus import vault_corpus
    from vaultkit.search.index import update_index

    vault = _vault(tmp_path)
    result = update_index(vault_corpus(vault), only=["Tags.md"])
    assert (result.rebuilt, result.total) == (True, 2)  # both notes, not just the one named
