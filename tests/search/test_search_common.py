"""A query with very many matches is ranked by its title and heading matches first (the
``heads`` table), and every hit still matches the whole query and its filters."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vaultkit.search.corpus import vault_corpus
from vaultkit.search.find import Filters, search
from vaultkit.search.index import opened, update_index
from vaultkit.search.query import parse_query

ALWAYS = 0  # ``common``: every query counts as common, so the heads ranking is tried first
NEVER = 10**9  # every match is ranked by BM25 over all columns


def _note(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def _found(folder: Path, text: str, common: int, **filters: object) -> list[str]:
    with opened(vault_corpus(folder)) as (conn, _):
        hits = search(conn, parse_query(text), Filters(**filters), common)  # type: ignore[arg-type]
    return [h.path for h in hits]


def _matches(conn: sqlite3.Connection, text: str) -> set[int]:
    rows = conn.execute("SELECT rowid FROM docs WHERE docs MATCH ?", (parse_query(text).match(),))
    return {int(r[0]) for r in rows}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    for i in range(12):
        _note(tmp_path, f"body{i:02}.md", f"# Note {i}\n\nalpha shows up in the body {i}.\n")
    _note(tmp_path, "title-a.md", "---\ntitle: Alpha runner\n---\nShort.\n")
    _note(tmp_path, "title-b.md", "---\ntitle: Alpha\ndate: 2026-11-20\n---\nbeta too.\n")
    _note(tmp_path, "heading.md", "Intro.\n\n## Alpha notes\n\nbeta and gamma.\n")
    _note(tmp_path, "title-c.md", "---\ntitle: Alpha gamma\n---\nNo other word.\n")
    _note(tmp_path, "dense.md", "alpha " * 12 + "\n")  # BM25 over all text ranks it high
    _note(tmp_path, "한국.md", "# 데이터 저장\n\n본문 데이터\n")
    _note(tmp_path, "한국2.md", "# 메모\n\n데이터 본문\n")
    update_index(vault_corpus(tmp_path))
    return tmp_path


def test_a_common_query_ranks_title_and_heading_matches_first(vault: Path) -> None:
    top = _found(vault, "alpha", ALWAYS, limit=4)
    assert sorted(top) == ["heading.md", "title-a.md", "title-b.md", "title-c.md"]
    assert top[-1] == "heading.md"  # a heading weighs less than a title
    assert "dense.md" in _found(vault, "alpha", NEVER, limit=4)  # what the tier changes


def test_every_hit_matches_the_whole_query_exclusions_included(vault: Path) -> None:
    assert sorted(_found(vault, "alpha beta", ALWAYS, limit=2)) == ["heading.md", "title-b.md"]
    assert "title-c.md" not in _found(vault, "alpha -gamma", ALWAYS, limit=3)
    assert "heading.md" not in _found(vault, "alpha -gamma", ALWAYS, limit=3)


def test_titles_and_headings_holding_every_word_come_first(vault: Path) -> None:
    _note(vault, "both.md", "Intro.\n\n## Beta\n\n## Alpha\n\nmore text here.\n")
    update_index(vault_corpus(vault))
    assert _found(vault, "alpha beta", ALWAYS, limit=1) == ["both.md"]
    assert _found(vault, "beta alpha", ALWAYS, limit=1) == ["both.md"]


def test_filters_narrow_the_title_and_heading_candidates(vault: Path) -> None:
    assert _found(vault, "alpha", ALWAYS, limit=1, since="2026-11-01") == ["title-b.md"]


def test_when_titles_and_headings_cannot_fill_the_limit_every_match_is_ranked(
    vault: Path,
) -> None:
    assert _found(vault, "alpha", ALWAYS, limit=10) == _found(vault, "alpha", NEVER, limit=10)
    assert _found(vault, "alpha beta", ALWAYS, limit=3) == _found(vault, "alpha beta", NEVER)[:3]


@pytest.mark.parametrize("text", ['"alpha runner"', "alph*", "데이", "데", "alpha OR 데이터"])
def test_phrases_prefixes_and_cjk_substrings_take_the_same_path(vault: Path, text: str) -> None:
    with opened(vault_corpus(vault)) as (conn, _):
        wanted = _matches(conn, text)
        hits = search(conn, parse_query(text), Filters(limit=1), ALWAYS)
        ids = {
            int(conn.execute("SELECT id FROM files WHERE path = ?", (h.path,)).fetchone()[0])
            for h in hits
        }
    assert len(hits) == 1 and ids <= wanted


WORDS = ("alpha", "beta", "gamma", "delta")
_text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=4).map(" ".join)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    notes=st.lists(st.tuples(_text, _text, _text), min_size=1, max_size=12),
    query=st.sampled_from(["alpha", "alpha beta", "beta OR gamma", "alpha -delta", '"alpha beta"']),
    limit=st.integers(1, 6),
)
def test_any_common_ranking_returns_matches_only_and_as_many_as_the_full_one(
    tmp_path_factory: pytest.TempPathFactory,
    notes: list[tuple[str, str, str]],
    query: str,
    limit: int,
) -> None:
    folder = tmp_path_factory.mktemp("v")
    for i, (title, heading, body) in enumerate(notes):
        _note(folder, f"n{i}.md", f"---\ntitle: T{i} {title}\n---\n## {heading}\n\n{body}\n")
    common = _found(folder, query, ALWAYS, limit=limit)
    full = _found(folder, query, NEVER, limit=limit)
    everything = set(_found(folder, query, NEVER, limit=100))
    assert len(common) == len(full) == min(limit, len(everything))
    assert set(common) <= everything
    # exactly ``common`` matches is not yet common: every match is ranked, as by NEVER
    assert _found(folder, query, len(everything), limit=limit) == full
