"""Whatever the title, a note vaultkit writes lints clean: the title is inert in the frontmatter,
the heading and INDEX.md (a property test over hostile titles, bodies, projects and branches).

Each example writes the worker's two notes (session/notes/write.py) into a fresh store, regenerates
INDEX.md as the worker does, and runs the real lint on ``wiki/`` and ``summary/``. No error may
come from a frontmatter, a heading or INDEX.md; the body's own ghost links (``[[x]]`` in the
body is an intended link to a note that does not exist) are the only errors allowed, and only on
body lines.
"""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from vaultkit.base.store import Store
from vaultkit.lint.runner import collect, load_context
from vaultkit.session.notes.naming import heading_text, inert_title
from vaultkit.session.notes.write import NoteMeta, read_frontmatter, write_session_notes
from vaultkit.vault.indexer import regenerate_index
from vaultkit.vault.model import Finding

SID = "c0ffee00-1234-5678-9abc-def012345678"
WHEN = datetime(2026, 11, 30, 22, 15, tzinfo=timezone(timedelta(hours=9)))
BODY_GHOSTS = frozenset({"VK101", "VK102"})

HOSTILE = [
    "[[",
    "]]",
    "![[",
    "[[x]]",
    "![[x.png]]",
    "[[x|y]]",
    "[[#h]]",
    "#tag",
    " ^block",
    "^b1",
    "%%",
    "<!--",
    "-->",
    "|",
    "`",
    "```",
    "$",
    "$$",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\x00",
    "\x1b",
    "\u202e",
    "\u2028",
    "\x85",
    "\ufeff",
    ": ",
    "- ",
    "? ",
    "&a ",
    "*a ",
    "! ",
    "> ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "#",
    "'",
    '"',
    "---",
    "...",
    "\\",
    "](x.md)",
    "[a](b.md)",
    "<b>",
    "=",
    "~~",
    "한국어",
    "   ",
]
pieces = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=12))
hostile_text = st.lists(pieces, max_size=14).map("".join)
long_text = st.integers(min_value=150, max_value=700).map(lambda n: ("[[a]] #t ^b " * n)[:n])
titles = st.one_of(hostile_text, long_text)


def _body_lines(path: Path) -> int:
    """The 1-based number of the heading line; body lines come after it."""
    lines = path.read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    closing = lines.index("---", 1)
    return next(n for n, line in enumerate(lines, 1) if n > closing and line.startswith("# "))


def _errors(vault: Path) -> list[Finding]:
    """Error findings not explained by an intended link in a body."""
    found = [f for f in collect(load_context(vault, cache=False)) if f.severity == "error"]
    allowed = []
    for f in found:
        note = vault / f.path
        if f.code in BODY_GHOSTS and f.path != "INDEX.md" and f.line > _body_lines(note):
            allowed.append(f)
    return [f for f in found if f not in allowed]


def _write(root: Path, title: str, body: str, project: str, branch: str) -> Store:
    store = Store(root / "sessions")
    meta = NoteMeta(SID, project, WHEN, f"raw/2026-11-30_2215_{SID}.jsonl", branch)
    write_session_notes(store, meta, title, body, body)
    regenerate_index(store.wiki)
    return store


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=titles, body=hostile_text, project=hostile_text, branch=hostile_text)
@example(title="[[Injected]] #tag ^block", body="plain", project="p", branch="main")
@example(title="![[x.png]] [a](b.md) %% <!--", body="\x00", project="[[p]]", branch="[[b]]")
def test_a_written_note_lints_clean_whatever_its_title(
    title: str, body: str, project: str, branch: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = _write(Path(folder), title, body, project, branch)
        assert _errors(store.wiki) == []
        assert _errors(store.summary) == []
        [wiki] = [p for p in store.wiki.glob("*.md") if p.name != "INDEX.md"]
        front = read_frontmatter(wiki)
        assert front["title"] == (inert_title(title) or "untitled")
        assert "[[" not in front["title"] and "\n" not in front["title"]


def test_the_reported_title_keeps_its_words_and_only_loses_its_power(tmp_path: Path) -> None:
    store = _write(tmp_path, "[[Injected]] #tag ^block", "Body.", "proj", "main")
    [wiki] = [p for p in store.wiki.glob("*.md") if p.name != "INDEX.md"]
    assert read_frontmatter(wiki)["title"] == "[Injected] #tag ^block"
    assert "\n# \\[Injected\\] \\#tag \\^block\n" in wiki.read_text(encoding="utf-8")
    context = load_context(store.wiki, cache=False)
    [note] = [n for n in context.vault.notes if n.path == wiki.name]
    assert note.links == () and "tag" not in note.tags and "block" not in note.tags
    assert heading_text("a_b*c") == "a\\_b\\*c"


def test_the_check_would_see_an_active_title(tmp_path: Path) -> None:
    """The same lint on a note whose heading carries the raw title does report a ghost."""
    store = _write(tmp_path, "Plain", "Body.", "proj", "main")
    [wiki] = [p for p in store.wiki.glob("*.md") if p.name != "INDEX.md"]
    wiki.write_text(wiki.read_text(encoding="utf-8").replace("# Plain", "# [[Injected]]"))
    assert [f.code for f in _errors(store.wiki)] == ["VK101"]
