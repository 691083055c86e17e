"""``--all-projects`` merge: hits from stores of very different sizes merged by rank."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from vaultkit.search.across import fuse, search_stores
from vaultkit.search.find import Filters
from vaultkit.search.recall import search_folder

_JSON3 = ("--format", "json", "--limit", "3")


def _note(top: Path, name: str, body: str) -> None:
    wiki = top / "wiki"
    wiki.mkdir(parents=True, exist_ok=True)
    (wiki / f"{name}.md").write_text(f"---\ntitle: {name}\n---\n# {name}\n\n{body}\n", "utf-8")


def _stores(tmp_path: Path) -> tuple[Path, Path]:
    """A small store where every note says "jitter" (its idf is nil) and a large one where a
    dozen of forty notes mention it once in passing (its idf is high)."""
    small = tmp_path / "small" / "sessions"
    _note(small, "Jitter notes", "jitter backoff, and why jitter matters")
    _note(small, "Uploader retry", "the uploader retries with jitter")
    large = tmp_path / "large" / "sessions"
    for i in range(40):
        words = " ".join(f"filler{i}w{j}" for j in range(30))
        _note(large, f"Note {i}", words + (" jitter" if i < 12 else ""))
    return small, large


def test_a_small_stores_best_note_is_not_buried_by_a_large_stores_scores(
    tmp_path: Path,
) -> None:
    small, large = _stores(tmp_path)
    raw = [
        h
        for top in (large, small)
        for h in search_folder(top, "jitter", Filters(limit=10), update=None).hits
    ]
    small_best = search_folder(small, "jitter", Filters(), update=None).hits[0]
    assert sorted(raw, key=lambda h: -h.score).index(small_best) >= 10  # raw merge buries it
    found = search_stores([str(large), str(small)], "jitter", Filters(limit=3))
    assert len(found.hits) == 3 and found.stores == 2 and found.skipped == ()
    top_two = {(Path(p.project).name, p.hit.path) for p in found.hits[:2]}
    assert ("small", "wiki/Jitter notes.md") in top_two
    assert {Path(p.project).name for p in found.hits} == {"small", "large"}
    assert all(p.project in (str(small.parent), str(large.parent)) for p in found.hits)


def test_the_merge_is_stable_and_interleaves_by_rank(tmp_path: Path) -> None:
    small, large = _stores(tmp_path)
    per_store = [
        (str(top.parent), search_folder(top, "jitter", Filters(), update=None).hits)
        for top in (large, small)
    ]
    once = fuse(per_store, 4)
    assert once == fuse(per_store, 4)
    assert [Path(p.project).name for p in once] == ["large", "small", "large", "small"]
    assert fuse(per_store, 0) == ()


def test_an_unreadable_store_is_skipped_with_why(tmp_path: Path) -> None:
    # The index falls back to memory for most damage; a wiki folder that is a symlink loop
    # cannot be read at all (and, unlike a chmod, stops root too).
    small, _ = _stores(tmp_path)
    broken = tmp_path / "broken" / "sessions"
    broken.mkdir(parents=True)
    (broken / "wiki").symlink_to(broken / "wiki")
    found = search_stores([str(broken), str(small)], "jitter", Filters(limit=5))
    assert found.stores == 2
    assert len(found.skipped) == 1 and found.skipped[0].startswith(str(broken))
    assert "symbolic links" in found.skipped[0]
    assert found.hits[0].hit.path == "wiki/Jitter notes.md"
    assert found.as_json()["skipped"] == list(found.skipped)


def test_the_cli_json_merges_by_rank_and_names_each_project(tmp_path: Path) -> None:
    small, large = _stores(tmp_path)
    home = tmp_path / "data"
    home.mkdir()
    (home / "projects.txt").write_text(f"{large}\n{small}\n", "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "search", "jitter", "--all-projects", *_JSON3],
        cwd=tmp_path,
        env={**os.environ, "VAULTKIT_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["results"]
    assert len(results) == 3
    assert {"project", "path"} <= set(results[0])
    top_two = {(Path(r["project"]).name, r["path"]) for r in results[:2]}
    assert ("small", "wiki/Jitter notes.md") in top_two
