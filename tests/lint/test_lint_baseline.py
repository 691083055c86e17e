"""``--baseline``: today's findings recorded, later runs report only new ones, fixed ones drop
out of the file; keys survive line moves and other notes' changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from vaultkit.lint.baseline import key_of, read, render, split
from vaultkit.vault.model import Finding


def _lint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _vault(root: Path) -> Path:
    vault = root / "v"
    vault.mkdir()
    (vault / "a.md").write_text("a [[Ghost]] [[Other]]\n", encoding="utf-8")
    (vault / "Other.md").write_text("[[a]] [[Later]]\n", encoding="utf-8")
    return vault


def test_record_then_report_only_new_then_shrink(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    base = tmp_path / "baseline.json"
    first = _lint("--baseline", str(base), str(vault), cwd=tmp_path)
    assert (first.returncode, first.stdout) == (0, "")
    assert "recorded 2 finding(s)" in first.stderr
    assert sorted(r["message"] for r in json.loads(base.read_text())["findings"]) == [
        "[[Ghost]]: no note named 'Ghost'",
        "[[Later]]: no note named 'Later'",
    ]
    # lines move, a new ghost appears: only the new one is reported
    (vault / "Other.md").write_text("\n\nmoved\n[[a]] [[Later]] [[Fresh]]\n", encoding="utf-8")
    second = _lint("--baseline", str(base), str(vault), cwd=tmp_path)
    assert second.returncode == 1
    assert second.stdout == "v/Other.md:4:17: VK101 [[Fresh]]: no note named 'Fresh'\n"
    assert "2 known finding(s)" in second.stderr
    # a fixed finding leaves the file; the baseline never grows by itself
    (vault / "Other.md").write_text("[[a]]\n", encoding="utf-8")
    third = _lint("--baseline", str(base), str(vault), cwd=tmp_path)
    assert (third.returncode, third.stdout) == (0, "")
    assert "1 fixed finding(s) dropped" in third.stderr
    rows = json.loads(base.read_text())["findings"]
    assert [(r["path"], r["count"]) for r in rows] == [("a.md", 1)]
    # the ghost written again is new: the baseline forgot it
    (vault / "Other.md").write_text("[[a]] [[Later]]\n", encoding="utf-8")
    assert _lint("--baseline", str(base), str(vault), cwd=tmp_path).returncode == 1


def test_a_run_on_some_notes_never_shrinks_the_baseline(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    base = tmp_path / "b.json"
    _lint("--baseline", str(base), str(vault), cwd=tmp_path)
    before = base.read_text()
    done = _lint("--baseline", str(base), str(vault / "a.md"), cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "")
    assert base.read_text() == before


def test_a_broken_baseline_is_a_clear_error(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    base = tmp_path / "b.json"
    base.write_text("{not json", encoding="utf-8")
    done = _lint("--baseline", str(base), str(vault), cwd=tmp_path)
    assert done.returncode == 2
    assert "b.json: not a vaultkit lint baseline" in done.stderr
    assert "Traceback" not in done.stderr


def test_keys_ignore_what_other_notes_change() -> None:
    hint = Finding("a.md", 3, 1, "VK101", "error", "[[Plam]]: no note named 'Plam'")
    near = Finding("a.md", 9, 4, "VK101", "error", hint.message + "; did you mean 'Plan'?")
    assert key_of(hint) == key_of(near)
    amb = Finding("a.md", 1, 1, "VK104", "warning", "[[Plan]] matches 2 files: resolves to x")
    more = Finding("a.md", 2, 1, "VK104", "warning", "[[Plan]] matches 3 files: resolves to y")
    assert key_of(amb) == key_of(more)


def test_two_findings_with_one_key_are_counted(tmp_path: Path) -> None:
    twice = [Finding("a.md", n, 1, "VK101", "error", "[[X]]: no note named 'X'") for n in (1, 5)]
    path = tmp_path / "b.json"
    path.write_text(render({key_of(twice[0]): 1}), encoding="utf-8")
    recorded = read(path)
    assert recorded is not None
    got = split(twice, recorded)
    assert (len(got.new), got.known) == (1, 1)
