"""parse_note and the lean markdown-it parser: decoding, frontmatter, tags, findings, speed."""

from __future__ import annotations

import json
import time

import pytest

from vaultkit.vault.model import Link
from vaultkit.vault.parse import parse_note, parse_note_with
from vaultkit.vault.wikilink import (
    BLOCK_RULES,
    INLINE_RULES,
    get_parser,
    make_parser,
    split_wikilink,
)


def _targets(text: str) -> list[str]:
    return [link.target for link in parse_note("n.md", text.encode()).links]


def _codes(data: bytes) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in parse_note("n.md", data).findings]


# --------------------------------------------------------------------------- the parser itself


def test_parser_enables_only_the_rules_vaultkit_needs() -> None:
    active = make_parser().get_active_rules()
    assert set(active["block"]) == {*BLOCK_RULES, "vk_footnote", "vk_math"}
    assert active["block"].index("vk_math") < active["block"].index("fence")
    assert active["block"].index("vk_footnote") < active["block"].index("reference")
    assert set(active["inline"]) == {*INLINE_RULES, "wikilink", "vk_comment", "vk_math"}
    assert active["core"] == ["normalize", "block", "inline"]
    inline = active["inline"]
    assert inline.index("wikilink") < inline.index("link")
    assert inline.index("vk_comment") < inline.index("link")


def test_parser_is_built_once_per_process() -> None:
    assert get_parser() is get_parser()
    assert make_parser() is not make_parser()


@pytest.mark.parametrize(
    ("inner", "expected"),
    [
        ("a", ("a", "", None)),
        (" a b | shown ", ("a b", "", "shown")),
        ("t#h#sub", ("t", "h#sub", None)),
        ("t#^blk|x", ("t", "^blk", "x")),
        ("#h", ("", "h", None)),
        ("t\\|shown", ("t", "", "shown")),
        ("img.png|100", ("img.png", "", "100")),
        ("a|b|c", ("a", "", "b|c")),
    ],
)
def test_split_wikilink(inner: str, expected: tuple[str, str, str | None]) -> None:
    parts = split_wikilink(inner)
    assert parts is not None
    assert (parts.target, parts.subpath, parts.display) == expected


@pytest.mark.parametrize("inner", ["", "  ", "#", "|x"])
def test_split_wikilink_rejects_empty_targets(inner: str) -> None:
    assert split_wikilink(inner) is None


# --------------------------------------------------------------------------- decoding


def test_invalid_utf8_is_a_finding_and_the_rest_still_parses() -> None:
    data = b"# T\n\nok [[one]]\nbad \xff byte [[two]]\n"
    note = parse_note("n.md", data)
    assert [link.target for link in note.links] == ["one", "two"]
    assert [(f.code, f.line, f.col, f.severity) for f in note.findings] == [
        ("VK202", 4, 5, "error")
    ]
    assert note.findings[0].message == "not valid UTF-8 (byte 0xff at line 4)"


def test_invalid_utf8_line_counts_crlf_once() -> None:
    data = b"a\r\nb\r\n\xc3(\r\n"
    assert _codes(data) == [("VK202", 3)]


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00[[a]]\xff\xd8",  # NUL, not UTF-8
        b"\x00\x01\x02",  # nothing but control bytes
        b"\x00" * 4096 + b"[[a]]",  # a zeroed file
        b"[[a]] " + b"\x00\x01\x02\x03" * 400,  # UTF-8, but mostly control bytes
    ],
)
def test_binary_content_has_no_links(data: bytes) -> None:
    note = parse_note("x.md", data)
    assert note.links == ()
    assert [(f.code, f.message) for f in note.findings] == [("VK202", "binary content")]


@pytest.mark.parametrize(
    "data",
    [
        b"[[a]]\x00\x01\x02[[b]]",
        b"# T\n\n```\nraw \x00 byte\n```\n\n[[a]] and [[b]]\n",
        b"\x1b[31mred\x1b[0m [[a]] \x07\x08 [[b]]\n",
        "caf\u00e9 \x00 [[a]] [[b]]".encode(),
    ],
)
def test_a_control_byte_in_a_utf8_note_is_text(data: bytes) -> None:
    note = parse_note("x.md", data)
    assert [link.target for link in note.links] == ["a", "b"]
    assert note.findings == ()


def test_cr_only_and_crlf_line_endings_keep_positions() -> None:
    for newline in ("\n", "\r\n", "\r"):
        text = newline.join(["---", "a: 1", "---", "", "  > x [[t]]"])
        (link,) = parse_note("n.md", text.encode()).links
        assert (link.line, link.col) == (5, 7), repr(newline)


# --------------------------------------------------------------------------- frontmatter


def test_dates_become_iso_strings_and_everything_is_json_friendly() -> None:
    text = (
        "---\n"
        "date: 2026-11-30\n"
        "when: 2026-11-30 08:09:10+09:00\n"
        "bad: 2026-13-45\n"
        "blob: !!binary aGVsbG8=\n"
        "set: !!set {b: null, a: null}\n"
        "1: one\n"
        "2026-01-01: day\n"
        "---\n"
    )
    fm = parse_note("n.md", text.encode()).frontmatter
    assert fm["date"] == "2026-11-30"
    assert fm["when"] == "2026-11-30T08:09:10+09:00"
    assert fm["bad"] == "2026-13-45"
    assert fm["blob"] == "aGVsbG8="
    assert fm["set"] == ["a", "b"]
    assert fm["1"] == "one"
    assert fm["2026-01-01"] == "day"
    json.dumps(dict(fm))


def test_invalid_yaml_reports_the_line_in_the_original_file() -> None:
    text = "---\ntitle: ok\nlist: [a\nnext: b\n---\n\n[[after]]\n"
    note = parse_note("n.md", text.encode())
    assert note.frontmatter == {}
    assert [(f.code, f.line, f.severity) for f in note.findings] == [("VK201", 4, "error")]
    assert note.findings[0].message.startswith("invalid YAML frontmatter: ")
    assert [(link.target, link.line) for link in note.links] == [("after", 7)]
    assert note.body_line == 6


@pytest.mark.parametrize("yaml_text", ["just a scalar", "- a\n- b", "42"])
def test_non_mapping_frontmatter_is_a_finding(yaml_text: str) -> None:
    note = parse_note("n.md", f"---\n{yaml_text}\n---\nbody [[x]]\n".encode())
    assert note.frontmatter == {}
    assert [f.message for f in note.findings] == ["frontmatter is not a mapping"]
    assert note.links[0].line == yaml_text.count("\n") + 4


def test_unsafe_yaml_tags_are_refused() -> None:
    note = parse_note("n.md", b"---\nx: !!python/object/apply:os.system ['echo hi']\n---\n")
    assert note.frontmatter == {}
    assert [(f.code, f.line) for f in note.findings] == [("VK201", 2)]


def test_dot_dot_dot_closes_frontmatter_and_empty_frontmatter_is_fine() -> None:
    assert parse_note("n.md", b"---\na: 1\n...\n# H\n").frontmatter == {"a": 1}
    empty = parse_note("n.md", b"---\n---\n# H\n")
    assert (empty.frontmatter, empty.findings, empty.body_line) == ({}, (), 3)


def test_unclosed_fence_means_no_frontmatter() -> None:
    note = parse_note("n.md", b"---\ntitle: x\n\n[[a]]\n")
    assert note.frontmatter == {}
    assert note.body_line == 1
    assert [(f.code, f.severity) for f in note.findings] == [("VK201", "warning")]
    assert [(link.target, link.line) for link in note.links] == [("a", 4)]


@pytest.mark.timeout(20)
def test_recursive_and_exponential_yaml_aliases_are_harmless() -> None:
    bomb = "---\na: &a [x, x, x, x, x, x, x, x, x]\n"
    for index in range(1, 12):
        bomb += f"b{index}: &b{index} [*{'a' if index == 1 else f'b{index - 1}'}] \n"
    bomb += "c: &c [*c]\n---\n"
    note = parse_note("n.md", bomb.encode())  # an expansion would hang into the timeout
    assert "b11" in note.frontmatter
    assert not [f for f in note.findings if "internal" in f.message]


def test_frontmatter_links_are_only_quoted_strings() -> None:
    text = '---\nrelated: "[[x]]"\nraw: [[y]]\n"[[key]]": 1\nn: 3\n---\n'
    links = parse_note("n.md", text.encode()).links
    assert links == (Link("frontmatter", "x", "", None, 2, 11, False),)


def test_multiline_frontmatter_string_keeps_positions() -> None:
    text = "---\nnote: >\n  see [[a]] and\n  then [[b|B]]\n---\n"
    links = parse_note("n.md", text.encode()).links
    assert [(link.target, link.display, link.line, link.col) for link in links] == [
        ("a", None, 3, 7),
        ("b", "B", 4, 8),
    ]


# --------------------------------------------------------------------------- tags, aliases


def test_tags_from_frontmatter_forms() -> None:
    text = "---\ntags: [One, '#two', 2026, [nested]]\ntag: 'three four,five'\n---\n#six\n"
    expected = ("2026", "five", "four", "nested", "one", "six", "three", "two")
    assert parse_note("n.md", text.encode()).tags == expected


def test_aliases_from_list_or_string() -> None:
    note = parse_note("n.md", b"---\naliases: [A, ' B ', A]\nalias: C, D\n---\n")
    assert note.aliases == ("A", "B", "C, D")
    assert parse_note("n.md", b"---\naliases: null\n---\n").aliases == ()


def test_body_tags_skip_code_links_and_comments() -> None:
    text = "#a `#b` [[x#c]] %%#d%% [#e](y.md) <span>#f</span> https://h.io/#g\n\n    #h\n"
    assert parse_note("n.md", text.encode()).tags == ("a",)


# --------------------------------------------------------------------------- links


def test_external_and_unsafe_urls_are_not_links() -> None:
    text = "[a](https://x.io) [b](Mailto:x@y) [c](javascript:alert(1)) [d](C:/x.md) [e]()"
    assert _targets(text) == []


def test_html_anchor_is_not_a_markdown_link() -> None:
    assert _targets('<a href="x.md">x</a> and [[y]]') == ["y"]


def test_links_do_not_nest() -> None:
    # CommonMark: a link's text cannot contain another link, so the wikilink wins.
    note = parse_note("n.md", b"[see [[a]] here](b.md) [`[[c]]`](d.md)")
    assert [(link.kind, link.target, link.col) for link in note.links] == [
        ("wikilink", "a", 6),
        ("markdown", "d.md", 24),
    ]


def test_unclosed_block_comment_hides_the_rest_of_its_container() -> None:
    assert _targets("[[a]]\n\n%%\n[[b]]\n\n[[c]]\n") == ["a"]
    assert _targets("- x %%\n  [[b]]\n\n[[c]]\n") == ["c"]


def test_setext_underline_inside_a_block_comment_is_hidden() -> None:
    text = b"%%\nnotes [[h1]]\n---\nmore [[h2]]\n%%\nafter [[v]]\n\nTitle\n---\n"
    note = parse_note("n.md", text)
    assert [(link.target, link.line) for link in note.links] == [("v", 6)]
    assert [(h.text, h.level, h.line) for h in note.headings] == [("Title", 2, 8)]


def test_newline_inside_wikilink_is_malformed() -> None:
    note = parse_note("n.md", b"a [[left\nright]] b\n")
    assert note.links == ()
    assert [(f.code, f.line, f.col) for f in note.findings] == [("VK106", 1, 3)]


def test_unclosed_is_reported_once_per_line() -> None:
    assert _codes(b"[[a [[b [[c\n[[d\n") == [("VK106", 1), ("VK106", 2)]


def test_first_text_falls_back_to_first_sentence() -> None:
    assert parse_note("n.md", b"> Quote *one*. Two.\n").first_text == "Quote one."
    assert parse_note("n.md", "첫 문장。 둘째".encode()).first_text == "첫 문장。"
    assert parse_note("n.md", b"---\na: 1\n---\n\n```\ncode\n```\n").first_text == ""


# --------------------------------------------------------------------------- speed


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    "data",
    [
        b"[[" * 500_000,
        b"![[" * 340_000,
        b"[[" * 499_999 + b"]]",
        b"%%" * 500_000,
        b"[[a [[b]] c]] " * 7_000,
    ],
    ids=["open-brackets", "open-embeds", "one-close", "percent", "nested"],
)
def test_pathological_megabyte_line_is_fast(data: bytes) -> None:
    note = parse_note("big.md", data)
    assert len(note.findings) <= 70_000
    assert not [f for f in note.findings if "internal" in f.message]


@pytest.mark.timeout(60)  # a hang guard: a quadratic scan would not finish; speed is benchmarked
def test_long_block_comment_with_many_markers_is_linear() -> None:
    data = b"%%\n\n" + b"[[no]] %% b %%\n\n" * 20_000 + b"%%\n[[yes]]\n"
    note = parse_note("n.md", data)
    assert [(link.target, link.line) for link in note.links] == [("yes", 40_004)]


REALISTIC = """---
title: Parser work
date: 2026-11-30
tags: [vaultkit, parser]
related: "[[Architecture]]"
---
# Parser work on the vault engine

We built the [[wikilink]] rule and the [[parse#Frontmatter|frontmatter]] handling.
It links [[Decisions#^d1]] and embeds ![[diagram.png|300]]; see [spec](../SPEC.md#links)
and `code [[not a link]]` plus #parser #vault/engine tags.

## Decisions

- Use markdown-it-py with the zero preset and enable rules one by one. ^d1
- Keep %%internal [[hidden]]%% comments out of the graph.

```python
links = [l for l in note.links]  # [[nope]]
```

> A quote with a [[Quoted link]] and more text that goes on for a while.

| Rule | Meaning |
|------|---------|
| VK106 | [[Malformed\\|malformed]] wikilink |
"""


@pytest.mark.timeout(60)
def test_realistic_note_parses_quickly() -> None:
    data = (REALISTIC + "\nMore prose with a [[link]] in it. " * 36).encode()
    assert 1800 < len(data) < 2600
    note = parse_note("n.md", data)
    assert len(note.links) == 8 + 36
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        parse_note("n.md", data)
    average = (time.perf_counter() - start) / rounds
    assert average < 0.02  # generous: CI machines are shared; the report has real numbers


@pytest.mark.parametrize(
    ("row", "targets", "tags"),
    [
        ("| [[N|al]] | #t |", [("N", "al")], ["t"]),
        ("|#a|b #c|", [], ["a", "c"]),
        ("| x | y | [[Extra]] #more |", [("Extra", None)], ["more"]),  # beyond the header
        ("| `[[code]] #no` | [[a\\|b]] |", [("a", "b")], []),
        ("| %%[[hidden]]%% | $[[math]]$ |", [], []),
    ],
)
def test_table_rows_are_read_whole(
    row: str, targets: list[tuple[str, str | None]], tags: list[str]
) -> None:
    note = parse_note("t.md", f"| h | k |\n|---|---|\n{row}\n".encode())
    assert [(link.target, link.display) for link in note.links] == targets
    assert list(note.tags) == tags


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("| a %% [[b]] |\n| [[c]] |\n| d %% [[e]] |\n| [[f]] |\n", ["e", "f"]),
        ("| a %% |\n| [[b]] |\n\n[[c]] %% [[d]]\n", ["d"]),  # runs on past the table
        ("| a %% |\n| [[b]] |\n\n# [[c]]\n\n[[d]]\n", []),  # never closed: the rest
        ("| [[a]] %% b %% [[c]] |\n| `%%` [[d]] |\n", ["a", "c", "d"]),  # closed, or code
        ("| h %% |\n|---|\n| [[a]] |\n| %% [[b]] |\n", ["b"]),  # opened in the header
    ],
)
def test_a_comment_left_open_in_a_table_row_runs_on_to_its_closing_marks(
    text: str, targets: list[str]
) -> None:
    body = text if text.startswith("| h") else "| h |\n|---|\n" + text
    note = parse_note("t.md", body.encode())
    assert [link.target for link in note.links] == targets
    assert parse_note_with("t.md", body.encode(), fast=False) == note


def test_a_line_glued_under_a_table_keeps_its_links() -> None:
    note = parse_note("t.md", b"| h |\n|---|\nglued [[g]] #x\n# After [[h]]\n")
    assert [(link.target, link.line, link.col) for link in note.links] == [("g", 3, 7), ("h", 4, 9)]
    assert note.tags == ("x",)


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("[^1]: see [[Other]]\n", ["Other"]),
        ("a[^1]\n\n[^1]: x.md\n", []),  # a footnote is no reference definition
        ("[^n]: one [[A]]\nlazy [[B]]\n\n    more [[C]]\n\n    code? no: [[D]]\n", list("ABCD")),
        ("[^n]: one\n\n    still the note [[in]]\n\nend\n\n    code [[no]]\n", ["in"]),
        ("text\n[^1]: [[F]]\n", ["F"]),
        ("[x]: y.md\n\n[x] and [^x]\n", ["y.md"]),  # real reference links still work
    ],
)
def test_footnote_definitions(text: str, targets: list[str]) -> None:
    assert [link.target for link in parse_note("f.md", text.encode()).links] == targets


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("$[[a]]$ [[b]]", ["b"]),
        ("$ [[a]] $", ["a"]),  # a space after the opening $: no math
        ("$x [[a]] $", ["a"]),  # a space before the closing $: no math
        ("$5 and $10 [[a]]", ["a"]),
        ("$a\\$ [[b]]$ [[c]]", ["c"]),  # an escaped $ does not close
        ("\\$[[a]]$", ["a"]),
        ("`$`[[a]]`$`", ["a"]),
        ("$$[[a]]$$ [[b]]", ["b"]),
        ("$$\n[[a]]\n\n[[b]]\n$$\n[[c]]", ["c"]),
        ("text $$[[a]]\n[[b]]$$ end", []),  # inline $$ spans the paragraph's lines
        ("$$unclosed [[a]]\n\n[[b]]\n", ["a", "b"]),
        ("> $$\n> [[a]]\n> $$\n\n[[b]]", ["b"]),
        ("- $$\n  [[a]]\n  $$\n- [[b]]", ["b"]),
        ("[[a$b$]] $c$", ["a$b$"]),
    ],
)
def test_math_holds_no_links(text: str, targets: list[str]) -> None:
    assert [link.target for link in parse_note("m.md", text.encode()).links] == targets


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # CommonMark: the first "[" opens a link whose text is "[FR] title"
        (b"[[FR] title](Other.md)", [("markdown", "Other.md", 1, False)]),
        (b"see [[x](Other.md) too", [("markdown", "Other.md", 6, False)]),  # "[", then a link
        (b"![[FR] shot](pic.png)", [("markdown", "pic.png", 1, True)]),
        (
            b"a [[x] y](<b c.md>) [[z]]",
            [("markdown", "b c.md", 3, False), ("wikilink", "z", 21, False)],
        ),
    ],
)
def test_a_bracket_before_a_markdown_link_is_no_unclosed_wikilink(
    text: bytes, expected: list[tuple[str, str, int, bool]]
) -> None:
    note = parse_note("n.md", text)
    assert [(x.kind, x.target, x.col, x.embed) for x in note.links] == expected
    assert note.findings == ()


def test_an_unclosed_wikilink_beside_a_markdown_link_is_still_reported() -> None:
    note = parse_note("n.md", b"[[FR] title](Other.md) and [[broken\n[[x] no link\n")
    assert [x.target for x in note.links] == ["Other.md"]
    assert [(f.code, f.line, f.col) for f in note.findings] == [("VK106", 1, 28), ("VK106", 2, 1)]


LAZY_FIRSTS = ["- a", "1. a", "- a\n  - b", "-   a", "- a\n\n  p"]
LAZY_OPENS = ["$$", "$$ x", " $$", "x $$", "$$ x $$"]
LAZY_CLOSES = ["", "$$", "  $$", "x\n$$", "  x\n  $$"]


@pytest.mark.parametrize("first", LAZY_FIRSTS)
def test_math_on_a_list_items_lazy_line_keeps_the_next_items_link(first: str) -> None:
    """``$$`` on a lazy continuation line: CommonMark's lazy line is paragraph text unless it
    starts a block (a closed math block, here at the top level), and either way the next
    item is an item of its own, so its link counts, in markdown-it and in the hybrid path."""
    for opening in LAZY_OPENS:
        for closing in LAZY_CLOSES:
            for item in ("- n [[L]]", "2. n [[L]]", "  - n [[L]]"):
                lines = [first, opening, *([closing] if closing else []), item]
                data = ("\n".join(lines) + "\n").encode()
                slow = parse_note_with("n.md", data, fast=False)
                assert slow is not None
                assert [x.target for x in slow.links] == ["L"], data
                assert parse_note("n.md", data) == slow, data


QUOTED_FIRSTS = ["> - a", "> 1. a", "> - a\n>   - b", "> [!note]\n> - a", "> a", "> > - a", ">- a"]
QUOTED_ITEMS = ["> - n [[L]]", "> 2. n [[L]]", ">   - n [[L]]", "> n [[L]]", "> > - n [[L]]"]
LATER_MATH = ["", "\n$$\nE\n$$", "\nt\n$$ y $$", "\n- $$\n  x\n  $$"]


@pytest.mark.parametrize("first", QUOTED_FIRSTS)
def test_math_on_a_quoted_items_lazy_line_keeps_the_next_items_link(first: str) -> None:
    """``$$`` on the lazy line of a list or paragraph in a blockquote or callout: inside the
    quote only its ``>`` lines could close the math, so the line is lazy and the next item's
    link counts, whatever ``$$`` comes further down the note (issue 23)."""
    for opening in LAZY_OPENS[:4]:
        for item in QUOTED_ITEMS:
            for later in LATER_MATH:
                data = (f"{first}\n{opening}\n{item}\n{later}\n").encode()
                slow = parse_note_with("n.md", data, fast=False)
                assert slow is not None
                assert [x.target for x in slow.links] == ["L"], data
                assert parse_note("n.md", data) == slow, data


def test_math_closed_inside_the_quote_still_hides_what_it_holds() -> None:
    """A ``$$`` on a later ``>`` line closes the math the lazy line opened: its lines are math."""
    data = b"> - a\n$$\n> - n [[Hidden]]\n> $$\n> - after [[Shown]]\n"
    slow = parse_note_with("n.md", data, fast=False)
    assert slow is not None
    assert [x.target for x in slow.links] == ["Shown"]
    assert parse_note("n.md", data) == slow
