"""``vaultkit mv`` on a vault with a note cache: it reads the cache as it stands (stale rows
included) and leaves rows for the notes it rewrote, which a later edit still overrides."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from vaultkit.curate.apply import move
from vaultkit.vault.cache import cache_path, stored_rows
from vaultkit.vault.load import load_vault
from vaultkit.vault.scoped import warm


def _vault(root: Path) -> Path:
    root.mkdir()
    for n in range(60):
        (root / f"Note {n}.md").write_text(f"# Note {n}\n\n[[Note {n + 1}]]\n", encoding="utf-8")
    (root / "Target.md").write_text("# Target\n", encoding="utf-8")
    (root / "Linking.md").write_text("See [[Target]].\n", encoding="utf-8")
    past = time.time() - 3600
    for path in root.iterdir():
        os.utime(path, (past, past))
    load_vault(root, cache=True)
    return root


def _links(root: Path) -> list[tuple[str, str, str | None]]:
    vault = load_vault(root, cache=False)
    return [(i.source, i.link.target, i.resolution.path) for i in vault.links]


def test_a_note_edited_after_the_cache_is_rewritten_by_the_whole_process(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    (root / "Note 3.md").write_text("Now [[Target|it]] too.\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "mv", "--vault", str(root), "Target.md", "Renamed.md"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "rewrote 2 link(s) in 2 note(s)" in done.stderr
    assert (root / "Note 3.md").read_text(encoding="utf-8") == "Now [[Renamed|it]] too.\n"
    assert ("Linking.md", "Renamed", "Renamed.md") in _links(root)


def test_the_rewritten_notes_rows_are_reused_and_a_later_edit_is_read(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v")
    move(root, "Target.md", "Renamed.md")
    rows = stored_rows(cache_path(root), ["Linking.md"], records=True)
    assert rows["Linking.md"].racy == 1  # verified by its hash before it is trusted
    found = warm(root)
    assert found is not None and "Linking.md" in found.records
    assert {n.path for n in found.changed} == {"Renamed.md"}  # moved, not rewritten: no row
    info = os.stat(root / "Linking.md")
    (root / "Linking.md").write_text("See [[Note 1]].\n", encoding="utf-8")  # the same size
    os.utime(root / "Linking.md", ns=(info.st_atime_ns, info.st_mtime_ns))
    found = warm(root)
    assert found is not None and "Linking.md" in {n.path for n in found.changed}
    outcome = move(root, "Renamed.md", "Target.md")
    assert outcome.rewrites == ()  # Linking.md no longer links to it
    assert ("Linking.md", "Note 1", "Note 1.md") in _links(root)
