"""A question's complete matches blended with its partial ones: a note whose title names the
query beats a long note that merely holds every word (vaultkit.search.blend)."""

from __future__ import annotations

from pathlib import Path

from vaultkit.search.blend import title_share
from vaultkit.search.corpus import vault_corpus
from vaultkit.search.find import Filters
from vaultkit.search.index import opened
from vaultkit.search.loose import rarities
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


def _shares(folder: Path, query: str) -> dict[str, float]:
    with opened(vault_corpus(folder)) as (conn, _):
        paths = dict(conn.execute("SELECT id, path FROM files"))
        units = parse_query(query).units()
        share = title_share(conn, units, list(paths), rarities(conn, units))
    return {paths[fid]: value for fid, value in share.items()}


def test_a_title_word_counts_by_its_stem_and_cjk_by_substring(tmp_path: Path) -> None:
    _note(tmp_path, "Headless sync.md", "# Headless sync\n\nNo headings here.\n")
    _note(tmp_path, "Headings.md", "# Headings\n\nFold them.\n")
    _note(tmp_path, "字数统计.md", "# 字数统计\n\n状态栏显示字数。\n")
    for i in range(5):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nSomething else.\n")
    named = _shares(tmp_path, "fold headings")
    cjk = _shares(tmp_path, "字数统计")
    assert named["Headings.md"] == 0.5  # headings names Headings ...
    assert named["Headless sync.md"] == 0.0  # ... not Headless (head* would)
    assert cjk["字数统计.md"] == 1.0


def test_a_title_naming_a_word_most_notes_hold_earns_less(tmp_path: Path) -> None:
    _note(tmp_path, "Slides.md", "# Slides\n\nPresent a note as slides.\n")
    _note(tmp_path, "Daily note.md", "# Daily note\n\nA note a day.\n")
    for i in range(4):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nA note about something else.\n")
    named = _shares(tmp_path, "present note slides")
    assert named["Slides.md"] == 1 / 3  # slides: held by one note of six
    assert 0 < named["Daily note.md"] < 1 / 3 / 5  # note: held by every one
    assert _hits(tmp_path, "How can I present my note as slides?")[0][0] == "Slides.md"
