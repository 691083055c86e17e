"""A question's complete matches blended with its partial ones: a note whose title names the
query beats a long note that merely holds every word (vaultkit.search.blend)."""

from __future__ import annotations

from pathlib import Path

from vaultkit.search.blend import about_share, credits, title_share
from vaultkit.search.corpus import vault_corpus
from vaultkit.search.find import Filters
from vaultkit.search.index import opened
from vaultkit.search.loose import rarities
from vaultkit.search.query import parse_query
from vaultkit.search.recall import search_folder
from vaultkit.search.sections import best_sections, sections

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
        share = title_share(conn, credits(conn, units, rarities(conn, units)), list(paths))
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


def test_a_note_holding_the_words_in_one_section_beats_one_holding_them_apart(
    tmp_path: Path,
) -> None:
    parts = ("Save it.", "The layout.", "Split panes.", "Open one.", "Come back later.")
    manual = "".join(f"## Part {i}\n\n{text}\n\n" for i, text in enumerate(parts))
    _note(tmp_path, "Manual.md", "# Manual\n\n" + manual)
    _note(tmp_path, "Spaces.md", "# Spaces\n\nSave the layout of your panes.\n")
    for i in range(5):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nSomething else.\n")
    hits = _hits(tmp_path, "How do I save the layout of my panes to open later?")
    assert [path for path, _ in hits[:2]] == ["Spaces.md", "Manual.md"]


def test_words_in_a_notes_lead_count_as_if_in_a_heading(tmp_path: Path) -> None:
    # the same words, once in the lead of a note (before its first heading) and once in a
    # later section of a note as long: the lead says what the note is about
    filler = "".join(f"Step {i} of the tour.\n\n" for i in range(8))
    body = "a panel that shows each footnote of the page"
    _note(tmp_path, "Tour.md", f"# Tour\n\n## Start\n\n{filler}## More\n\nThere is {body}.\n")
    _note(tmp_path, "Notes view.md", f"# Notes view\n\nThis is {body}.\n\n## Use\n\n{filler}")
    for i in range(5):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nSomething else.\n")
    hits = _hits(tmp_path, "Is there a panel that shows every footnote of a page?")
    assert [path for path, _ in hits[:2]] == ["Notes view.md", "Tour.md"]


def test_sections_are_cut_at_headings_outside_code() -> None:
    body = "intro\n# One\ntext\n```\n# not a heading\n```\n## Two\nmore\n"
    starts, heads = sections(body)
    assert [body[s : s + 5] for s in starts] == ["intro", "# One", "## Tw"]
    assert [body[s:h] for s, h in zip(starts, heads, strict=True)] == ["", "# One", "## Two"]


def _about(folder: Path, query: str) -> dict[str, float]:
    with opened(vault_corpus(folder)) as (conn, _):
        paths = dict(conn.execute("SELECT id, path FROM files"))
        units = parse_query(query).units()
        rarity = rarities(conn, units)
        share = about_share(
            credits(conn, units, rarity), best_sections(conn, units, list(paths), rarity)
        )
    return {paths[fid]: value for fid, value in share.items()}


def test_the_about_fields_are_the_lead_and_the_headings_not_the_rest(tmp_path: Path) -> None:
    _note(tmp_path, "Lead.md", "# Lead\n\nShows the outline here.\n\n## Use\n\nNothing more.\n")
    _note(tmp_path, "Late.md", "# Late\n\nNothing first.\n\n## Use\n\nShows the outline.\n")
    _note(tmp_path, "Heading.md", "# Heading\n\nNothing first.\n\n## The outline\n\nShows.\n")
    described = "---\ndescription: Shows the outline.\n---\n# Described\n\nNothing here.\n"
    _note(tmp_path, "Described.md", described)
    for i in range(4):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nSomething else.\n")
    about = _about(tmp_path, "outline")
    assert about["Lead.md"] == about["Heading.md"] == about["Described.md"] == 1.0
    assert about["Late.md"] == 0.0  # the word stands under a later heading only
    _note(tmp_path, "Both.md", "# Both\n\nShows the outline.\n\n## Outline\n\nShows.\n")
    again = _about(tmp_path, "outline")
    assert again["Both.md"] == 2 * again["Lead.md"] > 0  # named in both fields


SIBLING = (  # holds every word of the question (and wins without ABOUT), about keys
    "# Keys\n\nKeys of every kind, listed below.\n\n"
    + "".join(f"## Part {i}\n\nPress keys {i} for the thing {i}.\n\n" for i in range(8))
    + "## More\n\nEvery command has a shortcut; a shortcut runs a command.\n\n"
    + "## Last\n\nRun a command; remember a shortcut; run it again.\n"
)
ANSWER = (  # says in its lead what it is for, and holds fewer of the question's words
    "# Palette\n\nThe palette lets you run a command by name.\n\n## Pinned\n\nPin what you use.\n"
)


def test_the_note_whose_lead_names_the_question_beats_a_sibling(tmp_path: Path) -> None:
    _note(tmp_path, "Keys.md", SIBLING)
    _note(tmp_path, "Palette.md", ANSWER)
    for i in range(6):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nA note about keys and things.\n")
    query = "How do I run a command when I don't remember its shortcut?"
    assert _hits(tmp_path, query)[0][0] == "Palette.md"


def test_an_about_word_counts_by_its_stem_where_a_word_starts(tmp_path: Path) -> None:
    _note(tmp_path, "Later.md", "# Later\n\nHeadless, subheadings, then headings.\n")
    _note(tmp_path, "Never.md", "# Never\n\nHeadless and subheadings only.\n")
    for i in range(4):
        _note(tmp_path, f"other{i}.md", f"# Other {i}\n\nSomething else.\n")
    about = _about(tmp_path, "headings")
    assert about["Later.md"] == 1.0  # found past the words that only start (or hold) it
    assert about["Never.md"] == 0.0


def test_a_bigram_across_words_earns_no_about_or_title_credit(tmp_path: Path) -> None:
    for i in range(6):
        _note(tmp_path, f"n{i}.md", f"# 第{i}篇\n\n链接。预览。\n")
    _note(tmp_path, "览链.md", "# 览链\n\n## 览链\n\n别的。\n")  # only the junk of 预览|链接
    query = "链接预览链接"  # 览链 stands between 预览 and the second 链接
    assert _shares(tmp_path, query)["览链.md"] == 0.0  # as it counts in coverage: nothing
    assert _about(tmp_path, query)["览链.md"] == 0.0
