"""The markdown-it-free helpers agree with markdown-it wherever they decide."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.common.utils import MD_TRIM_CHARS

from vaultkit.vault.wikilink import link_href
from vaultkit.vault.wikisyntax import (
    SIMPLE_WIKILINK,
    WikiParts,
    md_trim,
    plain_href,
    scan_wikilink,
    split_wikilink,
    wikilinks_in,
)

_DEST_CHARS = st.sampled_from(
    [
        *"aZ09-._~/#%:?@!$&'()*+,;=\\éßö日\u0301\u00a0\u2028\u3000\ufeff\x85",
        "\U0001f600",
        "\ud800",
        "%20",
        "%zz",
        "//",
    ]
)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.lists(_DEST_CHARS, max_size=12).map("".join))
def test_a_plain_href_is_markdown_its(destination: str) -> None:
    href = plain_href(destination)
    assert href is None or href == link_href(destination)


def test_plain_hrefs_decide_the_common_destinations_and_leave_the_rest() -> None:
    for plain in ("Note.md", "Folder/My%20note.md#Part", "a/b-c_d~e.md", "../up.md", "#Heading"):
        assert plain_href(plain) == plain == link_href(plain)
    for other in ("https://x.org", "//host/a", "a:b", "%zz", "a\\_b", "a&amp;b", "a\ud800b"):
        assert plain_href(other) is None
    for name in ("Caf\u00e9.md", "Notes/sm\u00f6rg%C3%A5sbord.md", "\u65e5\u8a18/\U0001f600.md"):
        assert plain_href(name) == link_href(name) != name


@given(st.text(alphabet=MD_TRIM_CHARS + "ab\u200b\u2060", max_size=12))
def test_md_trim_is_markdown_its_trim(text: str) -> None:
    assert md_trim(text) == text.strip(MD_TRIM_CHARS)


def test_a_vault_the_fast_path_reads_whole_loads_neither_markdown_it_nor_yaml(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "a.md").write_text("---\ntitle: A\ntags: [x]\n---\n# A\n[[b]] [b](b.md) `[[c]]`\n")
    (tmp_path / "b.md").write_text(
        "# B\n- [[a]]\n  1. item $x$\n\n| t | u |\n|---|---|\n| [[a]] | 2 |\n"
    )
    code = (
        "import sys; from pathlib import Path; from vaultkit.vault.load import load_vault; "
        "v = load_vault(Path(sys.argv[1]), cache=False); "
        "print(len(v.links), 'markdown_it' in sys.modules, 'yaml' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True
    )
    assert out.stdout.split() == ["4", "False", "False"], out.stderr


_LINK_PIECES = st.sampled_from(["[[", "]]", "![[", "[", "]", "|", "\\|", "#", "\n", "a", " ", "!"])
_LINK_TEXT = st.lists(_LINK_PIECES, max_size=10).map("".join)


def _reference_scan(src: str, opening: int) -> tuple[str, int]:
    """Obsidian's rule written the slow, obvious way: the first ``]]`` after the ``[[`` on the
    same line closes it, unless another ``[[`` comes first (nested: to the next ``]]``)."""
    line = src.find("\n", opening)
    line_end = len(src) if line < 0 else line
    close = src.find("]]", opening + 2)
    if close < 0 or close >= line_end:
        return "unclosed", -1
    inner = src[opening + 2 : close]
    if "[[" in inner:
        outer = src.find("]]", close + 2)
        return "nested", outer + 2 if 0 <= outer < line_end else -1
    return ("link" if split_wikilink(inner) else "empty"), close + 2


@settings(max_examples=3000, deadline=None)
@given(_LINK_TEXT, _LINK_TEXT)
def test_the_scanner_follows_the_rule_with_or_without_a_known_line_end(
    before: str, after: str
) -> None:
    src = before + "[[" + after
    opening = len(before)
    expected = _reference_scan(src, opening)
    line = src.find("\n", opening)
    for line_end in (None, len(src) if line < 0 else line):
        found = scan_wikilink(src, opening, line_end)
        assert (found.status, found.end) == expected, line_end
        assert (found.parts is not None) == (found.status == "link")


@settings(max_examples=3000, deadline=None)
@given(_LINK_TEXT)
def test_the_simple_pattern_finds_what_the_scanner_finds(src: str) -> None:
    for at in range(len(src)):
        match = SIMPLE_WIKILINK.match(src, at)
        if match is None:
            continue
        opening = at + len(match.group(1))
        found = scan_wikilink(src, opening)
        assert found.status in ("link", "empty") and found.end == match.end()
        assert found.parts == split_wikilink(match.group(2))


def test_frontmatter_strings_yield_each_closed_link_with_its_offset() -> None:
    found = list(wikilinks_in("see ![[a|b]] and [[ ]] [[x [[y]] z]] [[open"))
    assert found == [
        (4, WikiParts("a", "", "b"), True),
        (17, None, False),
        (27, ("y", "", None), False),  # the outer opening is skipped: it holds a nested one
    ]
