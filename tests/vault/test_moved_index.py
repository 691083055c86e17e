"""moved_file_index: the updated index equals a rebuild over the moved paths."""

from __future__ import annotations

import random

import pytest

from vaultkit.vault.resolve import FileIndex, build_file_index, moved_file_index, resolve_target

NAMES = ("Plan", "plan", "Ünïcode", "Notes", "a b", "Plan.md", "pic")
FOLDERS = ("", "projects/", "projects/old/", "Archive/", "x/y/")
EXTS = (".md", ".md", ".png", ".pdf")


def _fields(index: FileIndex) -> tuple[object, ...]:
    return (
        index.paths,
        index.notes,
        dict(index._keys),
        dict(index._order),
        dict(index._folders),
        dict(index._by_name),
        dict(index._by_path),
        dict(index._by_alias),
        index._written,
    )


def _vault(rng: random.Random) -> tuple[list[str], dict[str, list[str]]]:
    paths = sorted(
        {
            rng.choice(FOLDERS) + rng.choice(NAMES) + rng.choice(EXTS)
            for _ in range(rng.randint(2, 14))
        }
    )
    notes = [p for p in paths if p.endswith(".md")]
    aliases = {p: [rng.choice(NAMES), " "] for p in notes if rng.random() < 0.3}
    return paths, aliases


def _moves(rng: random.Random, paths: list[str]) -> dict[str, str]:
    moving = rng.sample(paths, rng.randint(1, min(3, len(paths))))
    return {p: rng.choice(FOLDERS) + rng.choice(NAMES) + rng.choice(EXTS) for p in moving}


@pytest.mark.parametrize("seed", range(200))
def test_moved_index_equals_rebuild(seed: int) -> None:
    rng = random.Random(seed)
    paths, aliases = _vault(rng)
    moves = _moves(rng, paths)
    before = build_file_index(paths, aliases)
    renamed = {moves.get(p, p): a for p, a in aliases.items()}
    rebuilt = build_file_index((moves.get(p, p) for p in paths), renamed)
    updated = moved_file_index(before, moves)
    assert _fields(updated) == _fields(rebuilt)
    for target in (*NAMES, "projects/Plan", "pic.png", "Plan.md"):
        for source in ("", "projects/x.md"):
            got = resolve_target(updated, source, target)
            assert got == resolve_target(rebuilt, source, target)


def test_moved_index_a_rename_leaves_the_input_alone() -> None:
    before = build_file_index(["a/Plan.md", "Plan.md", "b.md"], {"b.md": ["Road"]})
    after = moved_file_index(before, {"Plan.md": "Goal.md", "b.md": "c/b.md"})
    assert before.files_named("Plan.md") == ("Plan.md", "a/Plan.md")
    assert after.files_named("Plan.md") == ("a/Plan.md",)
    assert after.files_named("Goal.md") == ("Goal.md",)
    assert after.notes_with_alias("road") == ("c/b.md",)
