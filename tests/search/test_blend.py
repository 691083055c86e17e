"""A question's complete matches blended with its partial ones: a note whose title names the
query beats a long note that merely holds every word (vaultkit.search.blend)."""

from __future__ import annotations

from pathlib import Path

from vaultkit.search.blend import title_share
from vaultkit.search.corpus import vault_corpus
from vaultkit.search.find import Filters
from vaultkit.search.index import opened
from vaultkit.search.query import parse_query
from vaultkit.search.recall import search_folder

CATCH_ALL = (
    "# Command line\n\n"
    + "".join(f"## Command {i}\n\nPrints the {i}th thing of the vault.\n\n" for i in range(30))
    + "## Counting\n\nSee how many words a note has, and more.\n"
)


def _note(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def _hits(folder: Path, query: str) -> list[tuple[str, bool]]:
    hits = search_folder(folder, query, Filters(limit=5)).hits
    return [(h.path, h.complete) for h in hits]


def test_a_title_naming_the_question_beats_a_note_holding_every_word(tmp_path: Path) -> None:
    _note(tmp_path, "Command line.md", CATCH_ALL)
    _note(tmp_path, "Word count.md", "# Word count\n\nThe status bar counts them as you type.\n")
    for i in range(5):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nA note about something else.\n")
    hits = _hits(tmp_path, "How can I see how many words are in my note?")
    assert hits[0] == ("Word count.md", False)  # blended above the complete match ...
    assert ("Command line.md", True) in hits  # ... which is still marked complete


def test_keywords_naming_no_title_keep_the_complete_match_first(tmp_path: Path) -> None:
    _note(tmp_path, "Command line.md", CATCH_ALL)
    _note(tmp_path, "Word count.md", "# Word count\n\nThe status bar counts them as you type.\n")
    assert _hits(tmp_path, "vault prints")[0] == ("Command line.md", True)


def test_a_title_word_counts_by_its_stem_and_cjk_by_substring(tmp_path: Path) -> None:
    _note(tmp_path, "Headless sync.md", "# Headless sync\n\nNo headings here.\n")
    _note(tmp_path, "Headings.md", "# Headings\n\nFold them.\n")
    _note(tmp_path, "字数统计.md", "# 字数统计\n\n状态栏显示字数。\n")
    with opened(vault_corpus(tmp_path)) as (conn, _):
        paths = dict(conn.execute("SELECT id, path FROM files"))
        share = title_share(conn, parse_query("fold headings").units(), list(paths))
        named = {paths[fid]: value for fid, value in share.items()}
        cjk = title_share(conn, parse_query("字数统计").units(), list(paths))
    assert named["Headings.md"] == 0.5  # headings names Headings ...
    assert named["Headless sync.md"] == 0.0  # ... not Headless (head* would)
    assert {paths[fid]: value for fid, value in cjk.items()}["字数统计.md"] == 1.0
