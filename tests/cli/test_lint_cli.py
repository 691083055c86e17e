"""`vaultkit lint` as a real process: the example's planted problems, formats, flags, fixes."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

from vaultkit.cli.progress import progress_for

DUP = "2026-11-05_1100_c47e9a13_Duplicate transaction detection.md"
SQL = "2026-11-12_1020_9e3b7c55_SQLite schema migration.md"
BUDGET = "2026-11-16_1705_52a8e4d1_Budget report export.md"
FX = "2026-11-20_0915_e0c4b9f7_Currency conversion cache.md"
GLOSSARY = "Glossary.md"  # hand-written: vaultkit's own session notes have no ghost (issue 26)
PLANTED = [
    (BUDGET, 1, 1, "VK302"),
    (FX, 1, 1, "VK301"),
    (GLOSSARY, 14, 72, "VK101"),
    (GLOSSARY, 15, 63, "VK103"),
]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


@pytest.fixture
def example(tmp_path: Path) -> Path:
    vault = tmp_path / "wiki"
    shutil.copytree(EXAMPLES / "sessions" / "wiki", vault)
    return vault


def _parsed(stdout: str) -> list[tuple[str, int, int, str]]:
    rows = []
    for line in stdout.splitlines():
        where, code = line.split(": ", 1)[0], line.split(": ", 1)[1].split(" ", 1)[0]
        path, row, col = where.rsplit(":", 2)
        rows.append((path, int(row), int(col), code))
    return rows


def test_example_vault_reports_exactly_the_planted_problems() -> None:
    out = run("examples/sessions/wiki", cwd=EXAMPLES.parent)
    assert out.returncode == 1  # the ghost link is an error
    expected = [(f"examples/sessions/wiki/{p}", line, col, code) for p, line, col, code in PLANTED]
    assert _parsed(out.stdout) == expected
    assert "[[Idempotent imports|Idempotency]]" in out.stdout
    assert "concepts/Idempotent imports.md" in out.stdout
    assert out.stderr == "4 findings (1 error, 3 warnings) in 16 notes\n"


def test_paths_are_vault_relative_when_run_inside_the_vault(example: Path) -> None:
    out = run(".", cwd=example)
    assert [row[0] for row in _parsed(out.stdout)] == [p for p, *_ in PLANTED]


def test_json_format_is_stable_and_documented(example: Path) -> None:
    first = run("--format", "json", str(example))
    assert first.stdout == run("--format", "json", str(example)).stdout
    doc = json.loads(first.stdout)
    assert doc["version"] == 1
    assert [(f["path"], f["line"], f["col"], f["code"]) for f in doc["findings"]] == PLANTED
    assert set(doc["findings"][0]) == {"path", "line", "col", "code", "name", "severity", "message"}
    assert doc["findings"][2]["name"] == "ghost-link"
    assert doc["summary"] == {
        "notes": 16,
        "findings": 4,
        "errors": 1,
        "warnings": 3,
        "by_code": {"VK101": 1, "VK103": 1, "VK301": 1, "VK302": 1},
        "exit_code": 1,
    }


def test_github_format_annotates_each_finding(example: Path) -> None:
    out = run("--format", "github", ".", cwd=example)
    lines = out.stdout.splitlines()
    assert len(lines) == 4
    assert lines[2] == (
        f"::error file={GLOSSARY},line=14,col=72,title=VK101::"
        "[[Backup and restore]]: no note named 'Backup and restore'"
    )
    assert lines[3].startswith(f"::warning file={GLOSSARY},line=15,col=63,title=VK103::")


def test_select_ignore_and_strict_change_output_and_exit_code(example: Path) -> None:
    warnings_only = run("--ignore", "VK101", str(example))
    assert warnings_only.returncode == 0
    assert [r[3] for r in _parsed(warnings_only.stdout)] == ["VK302", "VK301", "VK103"]
    assert run("--ignore", "VK101", "--strict", str(example)).returncode == 1
    selected = run("--select", "VK3,VK103", "--ignore", "VK302", str(example))
    assert [r[3] for r in _parsed(selected.stdout)] == ["VK301", "VK103"]


def test_lint_table_in_vaultkit_toml_and_flag_override(example: Path) -> None:
    (example / "vaultkit.toml").write_text('[lint]\nselect = ["VK3"]\nstrict = true\n')
    out = run(str(example))
    assert [r[3] for r in _parsed(out.stdout)] == ["VK302", "VK301"]
    assert out.returncode == 1  # strict from the file
    assert [r[3] for r in _parsed(run("--select", "VK101", str(example)).stdout)] == ["VK101"]


def test_usage_and_config_errors_exit_2(example: Path) -> None:
    (example / "vaultkit.toml").write_text("[lint]\nstrictly = true\n")
    bad_key = run(str(example))
    assert bad_key.returncode == 2
    assert "unknown setting lint.strictly" in bad_key.stderr
    (example / "vaultkit.toml").unlink()
    assert run("--select", "XX1", str(example)).returncode == 2
    assert run("--format", "yaml", str(example)).returncode == 2
    assert run(str(example / "missing")).returncode == 2


def test_no_progress_bar_when_stderr_is_not_a_terminal(example: Path) -> None:
    out = run(str(example))
    assert "\r" not in out.stderr
    assert run("--quiet", str(example)).stderr == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_on_a_terminal_only() -> None:
    tty = _Terminal()
    report = progress_for(False, tty)
    assert report is not None
    for done in range(1, 1001):
        report(done, 1000)
    assert "[##############################] 1000/1000" in tty.getvalue()
    assert progress_for(True, _Terminal()) is None
    assert progress_for(False, io.StringIO()) is None


def test_fix_dry_run_shows_the_diff_and_writes_nothing(example: Path) -> None:
    before = {p: p.read_bytes() for p in example.rglob("*.md")}
    safe = run("--fix", "--dry-run", str(example))
    assert "1 unsafe fix(es) not applied" in safe.stderr
    assert "[[Idempotent imports|Idempotency]]" not in safe.stdout  # an alias is a guess
    out = run("--diff", "--unsafe-fixes", str(example))
    assert out.returncode == 1
    assert "[[Idempotent imports|Idempotency]]" in out.stdout
    assert f"--- a/{GLOSSARY}" in out.stdout
    assert {p: p.read_bytes() for p in example.rglob("*.md")} == before


def test_fix_rewrites_alias_links_in_place_and_reports_what_is_left(example: Path) -> None:
    note = example / GLOSSARY
    old_line = note.read_text(encoding="utf-8").splitlines()[14]
    out = run("--fix", "--unsafe-fixes", str(example))
    assert f"fixed {GLOSSARY}:15:" in out.stderr
    new_line = note.read_text(encoding="utf-8").splitlines()[14]
    assert new_line == old_line.replace("[[Idempotency]]", "[[Idempotent imports|Idempotency]]")
    assert [r[3] for r in _parsed(out.stdout)] == ["VK302", "VK301", "VK101"]
    again = run("--diff", "--unsafe-fixes", str(example))
    assert (again.returncode, again.stdout) == (0, "")


def test_fix_never_touches_a_note_it_cannot_parse(tmp_path: Path) -> None:
    (tmp_path / "Target.md").write_text("---\naliases: [Nick]\n---\n[[bad]] [[good]]\n")
    bad = "---\ntitle: [oops\n---\n[[Nick]] [[Target]]\n"
    (tmp_path / "bad.md").write_text(bad)
    (tmp_path / "good.md").write_text("[[Nick]] [[Target]] [[bad]]\n")
    out = run("--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert (tmp_path / "bad.md").read_text() == bad
    assert (tmp_path / "good.md").read_text() == "[[Target|Nick]] [[Target]] [[bad]]\n"
    assert _parsed(out.stdout) == [("bad.md", 3, 1, "VK201"), ("bad.md", 4, 1, "VK103")]
    assert not (tmp_path / "INDEX.md").exists()  # --fix never creates an index


def test_fix_regenerates_a_stale_index(example: Path) -> None:
    index = example / "INDEX.md"
    text = index.read_text(encoding="utf-8")
    stale = "".join(line for line in text.splitlines(True) if "Currency conversion" not in line)
    index.write_text(stale, encoding="utf-8")
    found = _parsed(run("--select", "VK4", str(example)).stdout)
    assert [r[3] for r in found] == ["VK401", "VK402"]
    assert found[0][0].endswith(FX)
    run("--fix", str(example))
    assert run("--select", "VK4", str(example)).stdout == ""
    assert index.read_text(encoding="utf-8") == text


def test_fix_leaves_an_alias_claimed_by_two_notes_alone(tmp_path: Path) -> None:
    (tmp_path / "One.md").write_text("---\naliases: [Nick]\n---\n[[Two]] [[home]]\n")
    (tmp_path / "Two.md").write_text("---\naliases: [Nick]\n---\n[[One]]\n")
    (tmp_path / "home.md").write_text("[[Nick]] [[One]]\n")
    out = run("--fix", ".", cwd=tmp_path)
    assert (tmp_path / "home.md").read_text() == "[[Nick]] [[One]]\n"
    assert "One.md, Two.md" in out.stdout


@pytest.mark.slow
def test_caches_on_a_large_vault_and_no_cache_reads_everything_afresh(tmp_path: Path) -> None:
    vault = tmp_path / "big"
    vault.mkdir()
    for n in range(210):  # above the threshold (CACHE_MIN_NOTES) where caches start
        (vault / f"n{n}.md").write_text(f"[[n{(n + 1) % 210}]] [[ghost {n % 3}]]\n")
    uncached = run("--no-cache", str(vault))
    assert not (vault / ".vaultkit").exists()
    first, second = run(str(vault)), run(str(vault))
    assert {p.name for p in (vault / ".vaultkit").iterdir()} >= {"cache.sqlite", "lint.sqlite"}
    assert uncached.returncode == first.returncode == second.returncode == 1
    assert uncached.stdout == first.stdout == second.stdout
    assert uncached.stdout.count("VK101") == 210
    (vault / "n5.md").write_text("[[n6]]\n")  # one ghost fewer
    after = run(str(vault))
    assert after.stdout == run("--no-cache", str(vault)).stdout
    assert after.stdout.count("VK101") == 209
