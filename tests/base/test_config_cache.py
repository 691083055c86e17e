"""The hooks' settings cache: the same Config as a fresh parse, always; stale text never wins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vaultkit.base import config
from vaultkit.base.config import Config, load_cached, load_config, store_config
from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError

TEXT = '[distill]\nbackend = "offline"\nmax_attempts = 2\n\n[lint]\nselect = ["VK101"]\n'


@pytest.fixture(autouse=True)
def _fresh_process_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "_SEEN", {})  # each test starts like a new hook process


def _paths(tmp_path: Path) -> tuple[Path, str]:
    toml = tmp_path / "vaultkit.toml"
    return toml, str(tmp_path / ".vaultkit" / config.CACHE_NAME)


def test_cached_read_equals_a_fresh_parse_and_writes_the_cache(tmp_path: Path) -> None:
    toml, cache = _paths(tmp_path)
    toml.write_text(TEXT, encoding="utf-8")
    first = load_cached(toml, cache)
    assert first == load_config(toml)
    saved = json.loads(Path(cache).read_text(encoding="utf-8"))
    assert saved["source"] == TEXT
    config._SEEN.clear()
    assert load_cached(toml, cache) == first  # from the cache file this time
    assert first.distill.max_attempts == 2 and first.lint.select == ["VK101"]


def test_an_edit_is_seen_at_once_even_by_the_same_process(tmp_path: Path) -> None:
    toml, cache = _paths(tmp_path)
    toml.write_text(TEXT, encoding="utf-8")
    assert load_cached(toml, cache).distill.max_attempts == 2
    toml.write_text(TEXT.replace("= 2", "= 3"), encoding="utf-8")
    assert load_cached(toml, cache).distill.max_attempts == 3
    config._SEEN.clear()
    assert load_cached(toml, cache).distill.max_attempts == 3


def test_a_cache_for_other_text_or_a_broken_cache_is_ignored(tmp_path: Path) -> None:
    toml, cache = _paths(tmp_path)
    Path(cache).parent.mkdir()
    lie = {"version": config.CACHE_VERSION, "source": "x", "data": {"inject": {"recent": 9}}}
    Path(cache).write_text(json.dumps(lie), encoding="utf-8")
    toml.write_text(TEXT, encoding="utf-8")
    assert load_cached(toml, cache) == load_config(toml)
    config._SEEN.clear()
    Path(cache).write_text("{not json", encoding="utf-8")
    assert load_cached(toml, cache) == load_config(toml)


def test_invalid_settings_raise_as_without_cache_and_are_not_cached(tmp_path: Path) -> None:
    toml, cache = _paths(tmp_path)
    toml.write_text("[inject]\nbudget = 'big'\n", encoding="utf-8")
    with pytest.raises(VaultkitError) as cached:
        load_cached(toml, cache)
    with pytest.raises(VaultkitError) as fresh:
        load_config(toml)
    assert str(cached.value) == str(fresh.value)
    assert not Path(cache).exists()
    toml.write_text("[inject\n", encoding="utf-8")
    with pytest.raises(VaultkitError, match="invalid TOML"):
        load_cached(toml, cache)


def test_missing_file_gives_defaults_and_store_config_uses_the_state_folder(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    assert store_config(store) == Config()
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "vaultkit.toml").write_text(TEXT, encoding="utf-8")
    assert store_config(store).distill.backend == "offline"
    assert (tmp_path / "sessions" / ".vaultkit" / config.CACHE_NAME).is_file()
