"""The markdown-it-free helpers agree with markdown-it wherever they decide."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.common.utils import MD_TRIM_CHARS

from vaultkit.vault.wikilink import link_href
from vaultkit.vault.wikisyntax import md_trim, plain_href

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
