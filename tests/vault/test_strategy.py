"""Every load strategy, forced on every fixture vault, gives the vault one serial uncached load
gives; the strategy is picked by one function from one threshold table."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REPO

from vaultkit.errors import VaultkitError
from vaultkit.vault import strategy, thresholds
from vaultkit.vault.graph import vault_json
from vaultkit.vault.load import Vault, load_vault

FIXTURES = sorted(p for p in (REPO / "tests" / "fixtures" / "vaults").iterdir() if p.is_dir())
STRATEGIES = ("serial", "pool", "cache-cold", "cache-warm", "cache-relink", "packed")


def _outcome(vault: Vault) -> tuple[object, ...]:
    return (vault.notes, vault.links, vault.findings, vault.attachments, vault_json(vault))


def _copy(fixture: Path, tmp_path: Path) -> Path:
    """The fixture in a folder of its own (a cached load writes ``.vaultkit/`` into it)."""
    root = tmp_path / fixture.name
    shutil.copytree(fixture, root, symlinks=True)
    return root


def _renamed(root: Path) -> bool:
    """Rename the first note (links to it now dangle or resolve elsewhere); False if none."""
    note = next(iter(sorted(root.rglob("*.md"))), None)
    if note is None or note.is_symlink():
        return False
    note.rename(note.with_name("renamed " + note.name))
    return True


def _load(name: str, root: Path, monkeypatch: pytest.MonkeyPatch) -> Vault:
    if name in ("serial", "pool"):
        monkeypatch.setenv(strategy.FORCE_ENV, name)
        return load_vault(root, cache=False)
    if name == "packed":  # every body of two lines or more windowed, its links packed
        table = replace(thresholds.TABLE, big_body_lines=2, window_lines=3, pack_min_links=2)
        monkeypatch.setattr(thresholds, "TABLE", table)
        return load_vault(root, cache=False)
    first = load_vault(root, cache=True)
    if name == "cache-cold":
        return first
    if name == "cache-relink" and _renamed(root):
        return load_vault(root, cache=True)
    return load_vault(root, cache=True)


@pytest.mark.parametrize("name", STRATEGIES)
@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_each_strategy_loads_each_fixture_vault_the_same(
    fixture: Path, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _copy(fixture, tmp_path)
    got = _load(name, root, monkeypatch)
    monkeypatch.undo()
    monkeypatch.setenv(strategy.FORCE_ENV, "serial")
    assert _outcome(got) == _outcome(load_vault(root, cache=False))  # the vault as it is now


def test_the_table_picks_the_reader_and_the_cache() -> None:
    table = thresholds.TABLE
    many = strategy.cores() >= 2
    assert strategy.choose(table.pool_min_files - 1).reader == "serial"
    assert strategy.choose(table.pool_min_files).reader == ("pool" if many else "serial")
    assert not strategy.choose(table.cache_min_notes - 1).cache
    assert strategy.choose(table.cache_min_notes - 1, cache_exists=True).cache
    assert strategy.choose(table.cache_min_notes).cache
    assert not strategy.choose(10 * table.cache_min_notes, cache=False).cache


def test_a_forced_reader_wins_and_a_wrong_one_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(strategy.FORCE_ENV, "pool")
    assert strategy.choose(1) == strategy.Plan(False, "pool", max(2, strategy.cores()))
    monkeypatch.setenv(strategy.FORCE_ENV, "serial")
    assert strategy.choose(10 * thresholds.TABLE.pool_min_files).reader == "serial"
    monkeypatch.setenv(strategy.FORCE_ENV, "fast")
    with pytest.raises(VaultkitError) as raised:
        strategy.choose(1)
    assert strategy.FORCE_ENV in str(raised.value) and "serial, pool" in str(raised.value)
