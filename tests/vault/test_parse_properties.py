"""Property tests: parse_note never raises, code hides links, appending never removes links."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vaultkit.vault.model import Note
from vaultkit.vault.parse import parse_note

PIECES = [
    "[[", "]]", "![[", "[", "]", "(", ")", "|", "\\|", "#", "^", "%%", "`", "``", "```", "~~~",
    "\\", "<!--", "-->", "<div>", "!", "-", "*", ">", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r",
    "---", "...", ":", "a", "b", "x.md", "한글", "é", "1", "/", "http://", "[x](y.md)",
]  # fmt: skip
SAFE_PIECES = [p for p in PIECES if not set(p) & set("`~%\\<\r")]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

markdownish = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
safe_prefix = st.lists(st.sampled_from(SAFE_PIECES), max_size=40).map("".join)
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=12).map(
    lambda name: f"zz{name}"
)


def _assert_sane(note: Note) -> None:
    assert not [f for f in note.findings if "internal parser error" in f.message]
    positions = [(x.line, x.col) for x in note.links] + [(f.line, f.col) for f in note.findings]
    assert all(line >= 1 and col >= 1 for line, col in positions)


@SETTINGS
@given(st.text())
def test_never_raises_on_any_text(text: str) -> None:
    _assert_sane(parse_note("n.md", text.encode("utf-8", errors="surrogatepass")))


@SETTINGS
@given(st.binary())
def test_never_raises_on_any_bytes(data: bytes) -> None:
    _assert_sane(parse_note("n.md", data))


@SETTINGS
@given(markdownish, st.booleans())
def test_never_raises_on_markdown_like_text(text: str, with_frontmatter: bool) -> None:
    if with_frontmatter:
        text = f"---\nk: '{text[:10]}'\nl: [[a]]\n---\n{text}"
    note = parse_note("n.md", text.encode())
    _assert_sane(note)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for link in note.links:
        assert link.line <= len(lines)


@SETTINGS
@given(safe_prefix, names, safe_prefix)
def test_link_in_code_span_is_never_found(prefix: str, name: str, suffix: str) -> None:
    note = parse_note("n.md", f"{prefix}`[[{name}]]`{suffix}".encode())
    assert name not in {link.target for link in note.links}
    _assert_sane(note)


@SETTINGS
@given(safe_prefix, names, st.sampled_from(["```", "~~~", "````"]))
def test_link_in_fence_is_never_found(prefix: str, name: str, fence: str) -> None:
    text = f"{prefix}\n{fence}\n[[{name}]] ![[{name}]] [x]({name}.md)\n{fence}\n"
    note = parse_note("n.md", text.encode())
    assert name not in {link.target.removesuffix(".md") for link in note.links}


@SETTINGS
@given(markdownish, names)
def test_appending_a_link_never_removes_another(text: str, name: str) -> None:
    before = parse_note("n.md", text.encode()).links
    after = parse_note("n.md", f"{text}\n\n[[{name}]]\n".encode()).links
    assert set(before) <= set(after)


@SETTINGS
@given(safe_prefix, names)
def test_appended_link_is_found_after_plain_text(prefix: str, name: str) -> None:
    text = f"{prefix}\n\n[[{name}]]\n"
    links = [link for link in parse_note("n.md", text.encode()).links if link.target == name]
    assert len(links) == 1
    assert (links[0].line, links[0].col) == (text.count("\n"), 1)
