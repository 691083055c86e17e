"""The write tools' engine on real files: the linter's error checks hold a note back, and
edit_note's heading matching forgives case, spacing and the ``#`` level but not ambiguity."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultkit.curate.write import content_hash, edit_note, edit_text, write_note
from vaultkit.errors import VaultkitError

TWO = "# T\n\n## Plan\n\nA\n\n### plan\n\nB\n"


def _vault(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "wiki"
    root.mkdir()
    (root / "Existing note.md").write_text("# E\n", encoding="utf-8")
    return root, tmp_path / "state"


def test_invalid_frontmatter_is_held_back_as_the_linter_says(tmp_path: Path) -> None:
    root, state = _vault(tmp_path)
    result = write_note(root, state, "Bad.md", "---\nkey: [unclosed\n---\n# B\n")
    assert result["written"] is False
    errors = result["errors"]
    assert isinstance(errors, list) and any("VK201" in str(e) for e in errors)
    assert not (root / "Bad.md").exists()


def test_a_ghost_comes_back_with_the_closest_names_and_a_placeholder_is_fine(
    tmp_path: Path,
) -> None:
    root, state = _vault(tmp_path)
    held = write_note(root, state, "New.md", "# N\n\n[[Existing nte]]\n")
    assert held["written"] is False
    assert held["ghosts"] == [{"target": "Existing nte", "line": 3, "closest": ["Existing note"]}]
    made = write_note(root, state, "New.md", "# N\n\n[[Existing note]]\n")
    assert made["written"] is True and made["errors"] == []


def test_headings_match_loosely_and_refuse_ambiguity() -> None:
    assert edit_text(TWO, "## PLAN", "X", append=False) == "# T\n\n## Plan\n\nX\n"
    assert edit_text(TWO, "###   Plan", "X", append=False).endswith("### plan\n\nX\n")
    assert edit_text(TWO, "Plan", "X", append=False) == "# T\n\n## Plan\n\nX\n"  # exact text
    both = r"names 2 sections \(line 3 ## Plan, line 7 ### plan\)"
    with pytest.raises(VaultkitError, match=both):
        edit_text(TWO, " PLAN ", "X", append=False)
    assert edit_text(TWO, "### Risks", "R", append=False).endswith("\n### Risks\n\nR\n")


def test_edit_note_refuses_an_ambiguous_heading_and_writes_nothing(tmp_path: Path) -> None:
    root, state = _vault(tmp_path)
    (root / "Two.md").write_text(TWO, encoding="utf-8")
    with pytest.raises(VaultkitError, match="hint: give the heading with its level"):
        edit_note(root, state, "Two.md", content_hash(TWO.encode()), "pLaN", "X", False)
    assert (root / "Two.md").read_text(encoding="utf-8") == TWO
