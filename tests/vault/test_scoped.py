"""The scoped warm load: its byte filter never misses a note whose links may name a file, and
it reads again what changed since the cache was written."""

from __future__ import annotations

import marshal
import os
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vaultkit.vault import scoped
from vaultkit.vault.load import load_vault
from vaultkit.vault.model import Link, Note
from vaultkit.vault.records import note_record
from vaultkit.vault.resolve import match_key

NAMES = (
    "Plan.md",
    "Moving target.md",
    "Kick back.md",
    "x.md.md",
    "img.png",
    "Café.md",
    "ΑΣ.md",
    "Straße.md",
)


def test_to_ascii_is_every_character_whose_nfc_holds_ascii() -> None:
    found = []
    for code in range(0x80, sys.maxunicode + 1):
        char = chr(code)
        if any(c.isascii() for c in unicodedata.normalize("NFC", char)):
            found.append(char)
    assert tuple(found) == scoped.TO_ASCII
    lowered = [chr(c) for c in range(0x80, sys.maxunicode + 1) if chr(c).lower().isascii()]
    assert lowered == ["\u212a"]  # the Kelvin sign, which NFC turns into K first


def _spelled(data: st.DataObject, name: str) -> str:
    """``name`` as a link may write it: any letter case, the Kelvin sign for k, NFD, with or
    without ``.md``, under folders or dot segments."""
    stem = name[:-3] if name.endswith(".md") and data.draw(st.booleans()) else name
    chars = []
    for char in stem:
        if char in "kK" and data.draw(st.booleans()):
            chars.append("\u212a")
        else:
            upper = char.upper()
            chars.append(upper if len(upper) == 1 and data.draw(st.booleans()) else char.lower())
    text = "".join(chars)
    if data.draw(st.booleans()):
        text = unicodedata.normalize("NFD", text)
    prefix = data.draw(st.sampled_from(["", "a/", "./", "../b/", "/", "a/../"]))
    suffix = data.draw(st.sampled_from(["", "/.", "/x/.."]))
    return prefix + text + suffix


def _record(targets: list[str]) -> bytes:
    links = tuple(Link("wikilink", t, line=i + 1) for i, t in enumerate(targets))
    note = Note("n.md", {"title": "Über"}, links, first_text="Ünïcode and ascii")
    return marshal.dumps(note_record(note))


def _names_it(target: str, name: str) -> bool:
    """Whether some segment of ``target`` matches the file name ``name`` (``.md`` optional)."""
    key = match_key(name)
    keys = {key, key[:-3]} if key.endswith(".md") else {key}
    return any(match_key(seg) in keys for seg in target.strip().split("/"))


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=3))
def test_the_filter_passes_every_record_with_a_link_naming_the_file(
    data: st.DataObject, name: str, others: list[str]
) -> None:
    target = _spelled(data, name)
    assume(_names_it(target, name))  # a sigma lowered alone is not final: no match then
    noise = [f"Other {n}" for n in others]
    record = _record([*noise, target])
    assert scoped.record_filter([f"folder/{name}"])(record)
    assert scoped.record_filter([f"folder/{name}", "Plain.md"])(record)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(["Plan", "x.md", "Kick", "K\u212aick", "Caf\u00e9"]))),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3),
)
def test_the_one_pass_finds_what_the_filter_of_each_record_finds(
    targets: list[list[str]], names: list[str]
) -> None:
    records = [_record(t) for t in targets]
    may_name = scoped.record_filter(names)
    assert scoped.records_naming(records, names) == {
        n for n, record in enumerate(records) if may_name(record)
    }


def test_a_folder_of_many_names_reads_every_record() -> None:
    records = [_record(["Plan"]), _record([])]
    names = [f"f/Name {n}.md" for n in range(scoped.PROBES_MAX + 1)]
    assert scoped.records_naming(records, names) == {0, 1}
    assert scoped.records_naming(records, names[:2]) == set()


def test_the_filter_leaves_out_records_naming_other_files() -> None:
    record = _record(["Plan", "Other", "img.png"])
    assert not scoped.record_filter(["Moving target.md"])(record)
    assert not scoped.record_filter(["Café.md"])(record)
    assert scoped.record_filter(["other.md"])(record)


def _vault(root: Path, notes: int) -> None:
    root.mkdir()
    for n in range(notes):
        (root / f"Note {n}.md").write_text(f"# Note {n}\n\n[[Note {n + 1}]]\n", encoding="utf-8")
    (root / "Target.md").write_text("# Target\n", encoding="utf-8")
    (root / "Linking.md").write_text("See [[Target]].\n", encoding="utf-8")
    past = time.time() - 3600
    for path in root.iterdir():
        os.utime(path, (past, past))  # not racy: the rows are trusted by their stat
    load_vault(root, cache=True)


def _sources(links: object) -> set[str]:
    return {item.source for item in links}  # type: ignore[attr-defined]


def test_only_the_notes_that_may_name_the_file_are_read(tmp_path: Path) -> None:
    root = tmp_path / "v"
    _vault(root, 60)
    found = scoped.warm(root)
    assert found is not None and found.changed == ()
    links = found.links_naming(["Target.md", "Renamed.md"], {"Target.md"})
    assert _sources(links) == {"Linking.md"}  # Target.md has no links of its own
    full = {(i.source, i.link, i.resolution.path) for i in load_vault(root, cache=False).links}
    assert {(i.source, i.link, i.resolution.path) for i in links} <= full


def test_a_note_edited_since_the_cache_was_written_is_read_again(tmp_path: Path) -> None:
    root = tmp_path / "v"
    _vault(root, 60)
    (root / "Note 7.md").write_text("Now [[Target#Intro|it]].\n", encoding="utf-8")
    (root / "Linking.md").write_text("No link any more.\n", encoding="utf-8")
    found = scoped.warm(root)
    assert found is not None
    assert {n.path for n in found.changed} == {"Note 7.md", "Linking.md"}
    links = found.links_naming(["Target.md", "Renamed.md"], {"Target.md"})
    resolved = [(i.source, i.link.target, i.resolution.path) for i in links]
    assert ("Note 7.md", "Target", "Target.md") in resolved
    assert all(source != "Linking.md" or path != "Target.md" for source, _, path in resolved)


def test_a_touched_note_keeps_its_cached_record(tmp_path: Path) -> None:
    root = tmp_path / "v"
    _vault(root, 60)
    os.utime(root / "Linking.md")  # a new mtime, the same bytes
    found = scoped.warm(root)
    assert found is not None and found.changed == () and "Linking.md" in found.records


def test_no_cache_or_too_many_changes_mean_the_full_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "v"
    _vault(root, 60)
    monkeypatch.setattr(scoped, "STALE_MAX", 3)
    assert scoped.warm(root) is not None
    for n in range(4):
        (root / f"New {n}.md").write_text("new\n", encoding="utf-8")
    assert scoped.warm(root) is None
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "A.md").write_text("[[B]]\n", encoding="utf-8")
    assert scoped.warm(bare) is None
