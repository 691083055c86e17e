"""Fixture-driven parser specification: each tests/fixtures/parse/*.md has an expected .json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from vaultkit.vault.model import Note
from vaultkit.vault.parse import parse_note

PARSE = FIXTURES / "parse"
CASES = sorted(PARSE.glob("*.md"))
NEWLINES = {"lf": b"\n", "crlf": b"\r\n", "cr": b"\r"}


def _observed(note: Note) -> dict[str, Any]:
    return {
        "links": [
            {
                "kind": link.kind,
                "target": link.target,
                "subpath": link.subpath,
                "display": link.display,
                "line": link.line,
                "col": link.col,
                "embed": link.embed,
            }
            for link in note.links
        ],
        "findings": [{"code": f.code, "line": f.line, "col": f.col} for f in note.findings],
        "tags": list(note.tags),
        "headings": [{"text": h.text, "level": h.level, "line": h.line} for h in note.headings],
        "block_ids": list(note.block_ids),
        "aliases": list(note.aliases),
        "first_text": note.first_text,
        "body_line": note.body_line,
        "frontmatter": dict(note.frontmatter),
    }


def _expected(case: Path) -> dict[str, Any]:
    expected: dict[str, Any] = json.loads(case.with_suffix(".json").read_text(encoding="utf-8"))
    expected.setdefault("frontmatter", {})
    return expected


def test_every_fixture_has_an_expectation() -> None:
    assert len(CASES) >= 10
    missing = [case.name for case in CASES if not case.with_suffix(".json").exists()]
    assert missing == []


@pytest.mark.parametrize("newline", sorted(NEWLINES))
@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_fixture(case: Path, newline: str) -> None:
    data = case.read_bytes().replace(b"\n", NEWLINES[newline])
    note = parse_note(case.name, data)
    assert _observed(note) == _expected(case)


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_positions_point_at_the_link_text(case: Path) -> None:
    lines = case.read_text(encoding="utf-8").split("\n")
    for link in parse_note(case.name, case.read_bytes()).links:
        at = lines[link.line - 1][link.col - 1 :]
        if link.kind == "markdown":
            assert at.startswith("![" if link.embed else "["), (link, at)
        else:
            assert at.startswith("![[" if link.embed else "[["), (link, at)
            assert link.target.split("/")[-1][:3] in at, (link, at)


def test_hidden_and_code_text_never_becomes_a_link() -> None:
    for name in ("comments.md", "non_links.md"):
        note = parse_note(name, (PARSE / name).read_bytes())
        targets = {link.target for link in note.links}
        assert targets, name
        assert not {t for t in targets if t.startswith("c") and t[1:].isdigit()}, targets
        assert not {t for t in targets if "fenced" in t or "html" in t or "code" in t}, targets


def test_bom_does_not_shift_columns() -> None:
    case = PARSE / "positions.md"
    plain = parse_note(case.name, case.read_bytes())
    with_bom = parse_note(case.name, b"\xef\xbb\xbf" + case.read_bytes())
    assert with_bom.links == plain.links
    assert with_bom.findings == ()
