"""The example store under examples/sessions holds exactly the four planted problems."""

from __future__ import annotations

import json
import re
import struct
import zlib
from datetime import datetime
from pathlib import Path

import pytest
import yaml
from conftest import REPO

from vaultkit.vault import analysis
from vaultkit.vault.load import Vault, load_vault

STORE = REPO / "examples" / "sessions"
WIKI = STORE / "wiki"
SESSION_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})_(\d{4})_([0-9a-f]{8})_(.+)\.md$")
GLOSSARY = "Glossary.md"  # the planted ghosts: hand-written, not in vaultkit's session notes
NEWEST = "2026-11-20_0915_e0c4b9f7_Currency conversion cache.md"
DEGRADED = "2026-11-16_1705_52a8e4d1_Budget report export.md"
REQUIRED_KEYS = {"title", "date", "project", "type", "source", "session_id", "git_branch", "tags"}


@pytest.fixture(scope="module")
def vault() -> Vault:
    return load_vault(WIKI)


def test_exactly_one_plain_ghost_and_one_alias_ghost(vault: Vault) -> None:
    found = [(g.source, g.link.target, g.resolution.alias_of) for g in analysis.ghosts(vault)]
    assert found == [
        (GLOSSARY, "Backup and restore", ()),
        (GLOSSARY, "Idempotency", ("concepts/Idempotent imports.md",)),
    ]


def test_exactly_one_orphan_one_degraded_no_ambiguity(vault: Vault) -> None:
    assert analysis.orphans(vault) == (NEWEST,)
    assert analysis.degraded(vault) == (DEGRADED,)
    assert analysis.ambiguous(vault) == ()
    assert analysis.isolated(vault) == ()
    assert vault.findings == ()


def test_the_orphan_is_linked_from_the_index_only(vault: Vault) -> None:
    assert [b.source for b in analysis.backlinks(vault, NEWEST)] == ["INDEX.md"]


def test_degraded_note_says_why(vault: Vault) -> None:
    note = vault.note(DEGRADED)
    assert note is not None
    assert note.frontmatter["degraded_reason"] == "no-markers"
    assert note.frontmatter["distill_retries"] == 1


def test_aliases_are_exactly_the_planted_one(vault: Vault) -> None:
    assert {n.path: n.aliases for n in vault.notes if n.aliases} == {
        "concepts/Idempotent imports.md": ("Idempotency",)
    }


def test_no_duplicate_names_and_enough_notes(vault: Vault) -> None:
    names = [n.name.casefold() for n in vault.notes]
    assert len(names) == len(set(names))
    assert len(vault.notes) - 1 >= 14  # INDEX.md aside
    assert vault.attachments == ("attachments/architecture.png",)


def test_every_link_kind_heading_and_block_ref_resolves(vault: Vault) -> None:
    kinds = {item.link.kind for item in vault.links}
    assert kinds == {"wikilink", "embed", "markdown", "frontmatter"}
    for item in vault.links:
        if not item.link.subpath or item.resolution.path is None:
            continue
        target = vault.note(item.resolution.path)
        assert target is not None
        sub = item.link.subpath
        if sub.startswith("^"):
            assert sub[1:] in target.block_ids
        else:
            assert sub in [h.text for h in target.headings]
    subpaths = {item.link.subpath for item in vault.links}
    assert {"Consequences", "^fingerprint-def"} <= subpaths


def test_embedded_image_is_a_real_png(vault: Vault) -> None:
    embeds = [i.resolution.path for i in vault.links if i.link.kind == "embed"]
    assert embeds == ["attachments/architecture.png"]
    data = (WIKI / "attachments" / "architecture.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (240, 120)
    assert zlib.crc32(data[12:29]) == struct.unpack(">I", data[29:33])[0]


def _session_notes(folder: Path) -> dict[str, dict[str, object]]:
    out = {}
    for path in sorted(folder.glob("*.md")):
        if SESSION_NAME.match(path.name):
            text = path.read_text(encoding="utf-8")
            out[path.name] = yaml.safe_load(text.split("---\n")[1])
    return out


def test_session_notes_follow_the_naming_and_frontmatter_convention() -> None:
    wiki, summary = _session_notes(WIKI), _session_notes(STORE / "summary")
    assert len(wiki) == 7
    assert set(wiki) == set(summary)
    assert any(re.search(r"[가-힣]", name) for name in wiki)
    for name, front in [*wiki.items(), *summary.items()]:
        match = SESSION_NAME.match(name)
        assert match is not None
        assert set(front) >= REQUIRED_KEYS
        assert str(front["session_id"]).startswith(match.group(3))
        assert datetime.fromisoformat(str(front["date"])).tzinfo is not None
        assert str(front["date"]).startswith(match.group(1))
    assert {f["type"] for f in wiki.values()} == {"session-wiki"}
    assert {f["type"] for f in summary.values()} == {"handoff-summary"}
    assert all(isinstance(f["auto_saved"], bool) for f in summary.values())


def test_index_lists_every_note_newest_first(vault: Vault) -> None:
    index = vault.note("INDEX.md")
    assert index is not None
    listed = [i.resolution.path for i in vault.links if i.source == "INDEX.md"]
    others = sorted(n.path for n in vault.notes if n.path != "INDEX.md")
    assert sorted(p for p in listed if p) == others
    sessions = [p for p in listed if p and SESSION_NAME.match(p)]
    assert sessions == sorted(sessions, reverse=True)
    lines = (WIKI / "INDEX.md").read_text(encoding="utf-8").splitlines()
    assert all(" — " in line for line in lines if line.startswith("- [["))


def test_raw_transcripts_are_jsonl_of_their_sessions() -> None:
    raws = sorted((STORE / "raw").glob("*.jsonl"))
    assert 2 <= len(raws) <= 3
    for path in raws:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        session = path.stem.split("_", 2)[2]
        assert {line["sessionId"] for line in lines} == {session}
        assert {"user", "assistant"} <= {line["type"] for line in lines}
        assert not re.search(r"sk-ant-|api[_-]?key", path.read_text(encoding="utf-8"), re.I)
