"""``vaultkit search`` and ``vaultkit related`` on a copy of the example store, as run by a user."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from vaultkit.cli import main
from vaultkit.errors import VaultkitError
from vaultkit.search.recall import related_notes


@pytest.fixture
def store(tmp_path: Path) -> Path:
    target = tmp_path / "sessions"
    shutil.copytree(
        REPO / "examples" / "sessions", target, ignore=shutil.ignore_patterns(".vaultkit")
    )
    return target


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_search_as_a_real_process_finds_a_korean_note_by_two_characters(store: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "vaultkit", "search", "규칙", str(store), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    paths = [r["path"] for r in data["results"]]
    assert paths[:2] == [
        "summary/2026-11-09_1545_1d6f0b8a_카테고리 규칙 엔진.md",
        "wiki/2026-11-09_1545_1d6f0b8a_카테고리 규칙 엔진.md",
    ]
    assert data["indexed"] == 22 and data["reindexed"] == 22
    assert set(data["results"][0]) == {
        *("path", "line", "kind", "title", "date", "author", "score", "snippet", "complete")
    }
    assert data["advice"] == []  # every hit holds the query: nothing to explain
    assert not list(store.glob(".vaultkit/search.sqlite-*"))  # no journal left behind


def test_text_output_names_path_and_line_and_filters_apply(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "search", "migration", str(store), "--type", "wiki", "-n", "2")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 4
    assert lines[0].endswith(": SQLite schema migration (wiki, 2026-11-12)")
    assert lines[0].split(":")[1].isdigit()
    assert all("summary/" not in line for line in lines)


def test_nothing_found_exits_1_and_a_bad_query_exits_2(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "search", "zebra", str(store))
    assert (code, out) == (1, "")
    assert "no results for 'zebra' in 22 documents" in err
    assert "note: no document holds 'zebra': check the spelling" in err
    code, _, err = run(capsys, "search", '"open', str(store))
    assert code == 2
    assert err.startswith("error: search query '\"open': unclosed quote")
    code, _, err = run(capsys, "search", "x", str(store), "--since", "yesterday")
    assert code == 2 and "not a date" in err


def test_related_ranks_neighbours_with_reasons(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "related", "Idempotent imports", str(store / "wiki"), "-f", "json")
    assert code == 0
    data = json.loads(out)
    assert data["note"] == "concepts/Idempotent imports.md"
    first, second, third = data["related"][:3]
    assert first["path"] == "concepts/Transaction fingerprint.md"
    assert "linked from this note" in first["reasons"]
    # both sessions link here; the one that also links the fingerprint note ranks higher
    assert second["path"].endswith("Duplicate transaction detection.md")
    assert third["path"].endswith("CSV importer for bank exports.md")
    assert "links to this note" in second["reasons"] and "links to this note" in third["reasons"]
    assert all(r["path"] != "INDEX.md" for r in data["related"])


def test_related_of_an_unknown_note_is_a_clear_error(store: Path) -> None:
    with pytest.raises(VaultkitError, match="no note of that name"):
        related_notes(store / "wiki", "No such note")


def test_related_counts_rare_shared_tags_above_common_ones(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("#common #rare\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("#common #rare\n", encoding="utf-8")
    for i in range(6):
        (tmp_path / f"c{i}.md").write_text("#common\n", encoding="utf-8")
    (tmp_path / "INDEX.md").write_text("[[a]] [[b]] [[c0]]\n", encoding="utf-8")
    result = related_notes(tmp_path, "a")
    assert result.related[0].path == "b.md"
    assert result.related[0].reasons == ("shares tag #common, #rare",)
    assert result.related[0].score > 2 * result.related[1].score


def _vk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args], capture_output=True, text=True, timeout=60
    )


def test_a_word_starting_with_a_dash_is_an_excluded_word_not_an_option(store: Path) -> None:
    alone = _vk("search", "-migration", str(store))
    assert alone.returncode == 2, alone.stderr
    assert "only excluded words" in alone.stderr and "vaultkit search -- 'WORD -migration'" in (
        alone.stderr
    )
    assert "Invalid value" not in alone.stderr and "No such option" not in alone.stderr
    for argv in (("SQLite", "-migration"), ("-migration", "SQLite")):
        split = _vk("search", *argv, str(store), "--format", "json")
        quoted = _vk("search", "--format", "json", "--", " ".join(argv), str(store))
        assert split.returncode == quoted.returncode == 0, split.stderr
        assert json.loads(split.stdout)["results"] == json.loads(quoted.stdout)["results"]
    everything = json.loads(_vk("search", "SQLite", str(store), "-fjson").stdout)["results"]
    without = json.loads(_vk("search", "SQLite", "-migration", str(store), "-fjson").stdout)
    assert len(without["results"]) < len(everything)  # -fjson is still the format option


def test_an_empty_or_partial_answer_says_why_and_what_to_try(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "search", "migration", str(store), "--since", "2030-01-01")
    assert (code, out) == (1, "")
    assert "documents match without --since 2030-01-01: the filters left out every hit" in err
    code, out, err = run(
        capsys, "search", "How does the migration zebra work?", str(store), "-f", "json"
    )
    data = json.loads(out)
    assert code == 0 and data["results"]
    assert not any(r["complete"] for r in data["results"])
    assert data["advice"][0].startswith("no document holds every word of the query")
    assert "('zebra' found nowhere)" in data["advice"][0]
    assert data["advice"][-1] == "common words left out of the search: how, does, the"
