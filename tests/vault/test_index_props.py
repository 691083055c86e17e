"""Properties of INDEX.md generation over real parsing and resolution: a second run changes
nothing, every note is listed, hand-written prose survives; and generation scales linearly."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vaultkit.vault.index import INDEX_NAME, IndexEntry, build_entries, plan_index, vault_index_plan
from vaultkit.vault.load import Vault
from vaultkit.vault.model import Note
from vaultkit.vault.parse import parse_note
from vaultkit.vault.resolve import build_file_index, resolve_all

NAMES = st.text(alphabet="abcdefgh xyz위키", min_size=1, max_size=8).map(str.strip).filter(bool)
DATES = st.one_of(st.none(), st.dates().map(lambda d: d.isoformat()))
PROSE = st.text(alphabet="abc 가나.,!?", min_size=1, max_size=20).map(str.strip).filter(bool)


def _vault(notes: dict[str, str], index_text: str | None) -> Vault:
    files = dict(notes)
    if index_text is not None:
        files[INDEX_NAME] = index_text
    parsed = [parse_note(path, text.encode()) for path, text in sorted(files.items())]
    index = build_file_index(files, {n.path: n.aliases for n in parsed})
    return Vault(Path("/v"), tuple(parsed), (), index, resolve_all(index, parsed), ())


@st.composite
def vaults(draw: st.DrawFn) -> tuple[dict[str, str], str]:
    names = draw(st.lists(NAMES, min_size=1, max_size=6, unique_by=str.casefold))
    notes = {}
    for name in names:
        date = draw(DATES)
        front = f"---\ndate: '{date}'\n---\n" if date else ""
        notes[f"{name}.md"] = f"{front}{draw(PROSE)}\n"
    hand = draw(st.lists(PROSE, max_size=3))
    listed = draw(st.lists(st.sampled_from([*names, "gone"]), max_size=3, unique=True))
    existing = "\n".join(["# 위키 인덱스", "", *(f"- [[{n}]] — old" for n in listed), "", *hand])
    return notes, existing + "\n"


@settings(max_examples=60, deadline=None)
@given(vaults())
def test_regeneration_is_idempotent_and_lists_every_note(case: tuple[dict[str, str], str]) -> None:
    notes, existing = case
    first = vault_index_plan(_vault(notes, existing), existing, description_max=40)
    second = vault_index_plan(_vault(notes, first.text), first.text, description_max=40)
    assert second.text == first.text
    assert second.pruned == ()
    for path in notes:
        assert f"[[{path[:-3]}]]" in first.text
    for line in existing.splitlines()[3:]:
        if line and not line.startswith("- "):
            assert line in first.text.splitlines()


@pytest.mark.slow
def test_generation_scales_to_a_large_vault() -> None:
    notes = [Note(f"n{i:06d}.md", {"date": f"2026-01-{i % 28 + 1:02d}"}) for i in range(100_000)]
    entries = build_entries(notes, description_max=120)
    text = plan_index(None, entries, {}).text
    assert text.count("\n- [[") == 100_000


@pytest.mark.parametrize("limit", [1, 5, 120])
def test_descriptions_never_exceed_the_limit(limit: int) -> None:
    note = Note("a.md", {"description": "word " * 100})
    (entry,) = build_entries([note], description_max=limit)
    assert isinstance(entry, IndexEntry)
    assert len(entry.description) <= limit
