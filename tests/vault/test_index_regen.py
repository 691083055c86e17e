"""INDEX.md regeneration on disk (atomic, quiet, idempotent, logged) and `vaultkit index`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

from vaultkit.vault.index import END_MARKER, START_MARKER
from vaultkit.vault.indexer import regenerate_index

SEED_INDEX = (
    "# 위키 인덱스\n\n"
    "- [[2026_11_29__08.30_abcdef12_위키]] — 옛 설명\n"
    "- [[Deleted note]] — 지워진 노트\n\n"
    "## 손으로 쓴 부분\n\n"
    "- [[Pinned]] — 내가 고른 노트\n"
    "메모는 남는다.\n"
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _seed_vault(root: Path) -> Path:
    return _write(
        root,
        {
            "INDEX.md": SEED_INDEX,
            "2026_11_29__08.30_abcdef12_위키.md": "# 세션 위키\n\n[[Pinned]] 참고.\n",
            "2026-11-30_0910_12345678_New.md": "---\ntitle: New work\ndate: 2026-11-30T09:10:00\n"
            "quality: degraded\ndegraded_reason: no-markers\n---\n[[Pinned]]\n",
            "Pinned.md": "Pinned note. More text.\n",
        },
    )


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args], capture_output=True, text=True, cwd=cwd
    )


def test_seed_index_is_adopted_ghosts_pruned_and_hand_text_kept(tmp_path: Path) -> None:
    vault = _seed_vault(tmp_path)
    outcome = regenerate_index(vault)
    text = (vault / "INDEX.md").read_text(encoding="utf-8")
    assert text == (
        f"# 위키 인덱스\n\n{START_MARKER}\n"
        "- [[2026-11-30_0910_12345678_New]] — New work ⚠ degraded (no-markers)\n"
        "- [[2026_11_29__08.30_abcdef12_위키]] — 세션 위키\n"
        f"{END_MARKER}\n\n"
        "## 손으로 쓴 부분\n\n- [[Pinned]] — 내가 고른 노트\n메모는 남는다.\n"
    )
    assert outcome.changed and outcome.adopted
    assert outcome.pruned == ("- [[Deleted note]] — 지워진 노트",)
    assert outcome.degraded == ("2026-11-30_0910_12345678_New.md",)
    assert outcome.listed == 2


def test_second_run_is_byte_identical_and_does_not_write(tmp_path: Path) -> None:
    vault = _seed_vault(tmp_path)
    regenerate_index(vault)
    index = vault / "INDEX.md"
    before = (index.read_bytes(), index.stat().st_mtime_ns, index.stat().st_ino)
    again = regenerate_index(vault)
    assert not again.changed
    assert again.diff == ""
    assert (index.read_bytes(), index.stat().st_mtime_ns, index.stat().st_ino) == before
    assert sorted(p.name for p in vault.iterdir() if p.name.startswith(".INDEX")) == []


def test_each_run_logs_pruned_ghosts_orphans_and_degraded_notes(tmp_path: Path) -> None:
    vault = _seed_vault(tmp_path)
    regenerate_index(vault)
    regenerate_index(vault)
    lines = (vault / ".vaultkit" / "vaultkit.log").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert "updated" in lines[0] and "unchanged" in lines[1]
    assert "ghost lines pruned 1 (- [[Deleted note]] — 지워진 노트)" in lines[0]
    assert (
        "orphans 2 (2026-11-30_0910_12345678_New.md, 2026_11_29__08.30_abcdef12_위키.md)"
        in (lines[0])
    )
    assert "degraded 1 (2026-11-30_0910_12345678_New.md)" in lines[0]
    assert lines[0].startswith("[20")  # timestamped


def test_store_wiki_logs_to_the_store_state_folder(tmp_path: Path) -> None:
    wiki = _write(tmp_path / "sessions" / "wiki", {"a.md": "x\n"})
    regenerate_index(wiki)
    assert (tmp_path / "sessions" / ".vaultkit" / "vaultkit.log").is_file()
    assert not (wiki / ".vaultkit").exists()
    assert (wiki / "INDEX.md").read_text(encoding="utf-8") == (
        f"# Index\n\n{START_MARKER}\n- [[a]] — x\n{END_MARKER}\n"
    )


def test_check_and_dry_run_neither_write_nor_log(tmp_path: Path) -> None:
    vault = _seed_vault(tmp_path)
    for check in (True, False):
        outcome = regenerate_index(vault, check=check, dry_run=not check)
        assert outcome.changed
        assert "+" + START_MARKER in outcome.diff
        assert (vault / "INDEX.md").read_text(encoding="utf-8") == SEED_INDEX
    assert not (vault / ".vaultkit").exists()


def test_index_lists_every_note_but_itself_and_index_links_do_not_rescue_orphans(
    tmp_path: Path,
) -> None:
    vault = _write(tmp_path, {"a.md": "[[b]]\n", "b.md": "# B\n", "sub/c.md": "[[a]]\n"})
    outcome = regenerate_index(vault)
    text = (vault / "INDEX.md").read_text(encoding="utf-8")
    assert "[[INDEX]]" not in text
    assert [line for line in text.splitlines() if line.startswith("- [[")] == [
        "- [[a]] — b",
        "- [[b]] — B",
        "- [[c]] — a",
    ]
    assert outcome.orphans == ("sub/c.md",)


@pytest.mark.slow
def test_cli_check_exits_1_with_the_diff_then_0_after_index(tmp_path: Path) -> None:
    vault = _seed_vault(tmp_path)
    stale = _run("index", "--check", str(vault))
    assert stale.returncode == 1
    assert "+" + START_MARKER in stale.stdout
    assert "out of date" in stale.stderr
    done = _run("index", str(vault))
    assert done.returncode == 0, done.stderr
    assert "pruned ghost line: - [[Deleted note]]" in done.stderr
    fresh = _run("index", "--check", str(vault))
    assert (fresh.returncode, fresh.stdout) == (0, "")


def test_cli_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    vault = _seed_vault(tmp_path)
    out = _run("index", "--dry-run", str(vault))
    assert out.returncode == 0
    assert out.stdout.startswith("--- a/INDEX.md\n+++ b/INDEX.md\n")
    assert (vault / "INDEX.md").read_text(encoding="utf-8") == SEED_INDEX


def test_example_vault_index_is_current_and_idempotent(tmp_path: Path) -> None:
    vault = tmp_path / "wiki"
    shutil.copytree(EXAMPLES / "sessions" / "wiki", vault)
    before = (vault / "INDEX.md").read_bytes()
    outcome = regenerate_index(vault)
    assert not outcome.changed
    assert (vault / "INDEX.md").read_bytes() == before
    assert b"## Reference notes" in before  # hand-written section survives
    assert before.count(b"[[Glossary]]") == 1  # listed by hand, so not generated again


def test_a_broken_region_is_a_user_error_not_a_traceback(tmp_path: Path) -> None:
    vault = _write(tmp_path, {"INDEX.md": f"{START_MARKER}\n- [[a]]\n", "a.md": "x\n"})
    out = _run("index", str(vault))
    assert out.returncode == 2
    assert out.stderr.startswith("error: INDEX.md: the generated region is broken")
    assert "hint:" in out.stderr
    assert "Traceback" not in out.stderr


def test_frontmatter_above_the_region_keeps_line_numbers_right(tmp_path: Path) -> None:
    vault = _write(
        tmp_path,
        {
            "INDEX.md": '---\ntags: [index]\nrelated: "[[a]]"\n---\n# Index\n\n'
            f"{START_MARKER}\n{END_MARKER}\n\n- [[a]] kept\n- [[zz]] pruned\n",
            "a.md": "x\n",
            "b.md": "y\n",
        },
    )
    outcome = regenerate_index(vault)
    assert outcome.pruned == ("- [[zz]] pruned",)
    assert (vault / "INDEX.md").read_text(encoding="utf-8") == (
        '---\ntags: [index]\nrelated: "[[a]]"\n---\n# Index\n\n'
        f"{START_MARKER}\n- [[b]] — y\n{END_MARKER}\n\n- [[a]] kept\n"
    )
