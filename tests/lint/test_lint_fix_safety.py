"""``--fix`` is safe by construction, and ghosts get near names as text, never as a fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES

from vaultkit.lint.suggest import closest, with_suggestions
from vaultkit.vault.model import Finding


def lint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "lint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_an_alias_rewrite_is_an_unsafe_fix_of_an_exact_alias(tmp_path: Path) -> None:
    home = "[[Nick]] [[nick]] [[Pair]] [[Plan]] [[Other]] [[Kept]]\n"
    _write(
        tmp_path,
        {
            "Home.md": home,
            "Other.md": "---\naliases: [Nick]\n---\n[[Home]]\n",
            "One.md": "---\naliases: [Pair]\n---\n[[Home]]\n",
            "Two.md": "---\naliases: [pair]\n---\n[[Home]]\n",
            "Kept.md": "[[Home]] [[Nick]] %% vaultkit: ignore VK103 %%\n",
        },
    )
    safe = lint("--fix", ".", cwd=tmp_path)
    assert (tmp_path / "Home.md").read_text(encoding="utf-8") == home  # a guess is not safe
    assert "2 unsafe fix(es) not applied" in safe.stderr
    # [[nick]] is no alias link: the alias is "Nick" (hints are exact-case)
    assert "Home.md:1:10: VK101 [[nick]]: no note named 'nick'" in safe.stdout
    assert "'Pair' is an alias of One.md (aliases do not resolve links)" in safe.stdout
    shown = lint("--diff", "--unsafe-fixes", ".", cwd=tmp_path)
    assert "+[[Other|Nick]] [[nick]] [[One|Pair]] [[Plan]] [[Other]] [[Kept]]" in shown.stdout
    assert (tmp_path / "Home.md").read_text(encoding="utf-8") == home  # --diff writes nothing
    out = lint("--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert (tmp_path / "Home.md").read_text(encoding="utf-8") == (
        "[[Other|Nick]] [[nick]] [[One|Pair]] [[Plan]] [[Other]] [[Kept]]\n"
    )
    assert out.stderr.splitlines()[:2] == [  # every applied fix is listed
        "fixed Home.md:1:1: [[Nick]] -> [[Other|Nick]] (unsafe)",
        "fixed Home.md:1:19: [[Pair]] -> [[One|Pair]] (unsafe)",
    ]
    # a suppressed finding is not fixed behind the user's back
    assert "[[Nick]]" in (tmp_path / "Kept.md").read_text(encoding="utf-8")
    assert "Home.md:1:38: VK101 [[Plan]]: no note named 'Plan'" in out.stdout


def test_an_excluded_file_is_never_fixed(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "vaultkit.toml": '[lint]\nexclude = ["drafts"]\n',
            "Other.md": "---\naliases: [Nick]\n---\n",
            "drafts/d.md": "[[Nick]] [[Other]]\n",
        },
    )
    lint("--fix", ".", cwd=tmp_path)
    assert (tmp_path / "drafts" / "d.md").read_text(encoding="utf-8") == "[[Nick]] [[Other]]\n"


def test_ghosts_suggest_the_closest_note_names_as_text(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "Home.md": "[[Projct plan]] [[Zzz]]\n",
            "work/Project plan.md": "[[Home]]\n",
            "Project plans.md": "[[Home]]\n",
        },
    )
    out = lint("--fix", ".", cwd=tmp_path)
    assert out.stdout.splitlines()[0] == (
        "Home.md:1:1: VK101 [[Projct plan]]: no note named 'Projct plan'; "
        "did you mean 'Project plan' or 'Project plans'?"
    )
    assert "Home.md:1:17: VK101 [[Zzz]]: no note named 'Zzz'\n" in out.stdout
    assert (tmp_path / "Home.md").read_text(encoding="utf-8") == "[[Projct plan]] [[Zzz]]\n"


def test_suggestions_ignore_case_and_far_lengths() -> None:
    assert closest("PLAN", ["plan", "Plane", "A plan for the long winter"]) == ["plan", "Plane"]
    ghost = Finding("a.md", 1, 1, "VK101", "error", '[[x]]: no note named "it\'s"')
    assert with_suggestions([ghost], ["its.md"])[0].message.endswith("did you mean 'its'?")
    other = Finding("a.md", 1, 1, "VK102", "error", "![[p.png]]: attachment 'p.png' does not exist")
    assert with_suggestions([other], ["p.md"]) == [other]


def test_fix_on_the_alias_fixture_rewrites_the_one_exact_alias(tmp_path: Path) -> None:
    import shutil

    fixture = FIXTURES / "lint" / "aliases" / "vault"
    root = tmp_path / "v"
    shutil.copytree(fixture, root)
    before = (root / "Home.md").read_text(encoding="utf-8")
    out = lint("--fix", "--unsafe-fixes", ".", cwd=root)
    after = (root / "Home.md").read_text(encoding="utf-8")
    expected = before.replace("Met [[Ada]]", "Met [[Ada Lovelace|Ada]]", 1)
    assert after == expected.replace("[[Lovelace]]", "[[Ada Lovelace|Lovelace]]", 1)
    assert out.stderr.startswith("fixed Home.md:3:5: [[Ada]] -> [[Ada Lovelace|Ada]] (unsafe)\n")
    assert "VK101 [[ada]]: no note named 'ada'" in out.stdout  # left, and still reported


def test_fix_in_a_table_row_escapes_the_pipe_and_the_link_still_resolves(tmp_path: Path) -> None:
    table = (
        "---\ntitle: t\n---\n"
        "| who | note |\n|---|---|\n"
        "| [[Nick]] | [[Other]] |\n"  # a body row
        "glued [[Nick]] under the table\n"  # still a row: no blank line before it
        "\n"
        "Outside [[Nick]]\x0c and [[Nick]]\n"  # a form feed does not start a new line
        "> | q | [[Nick]] |\n> |---|---|\n"  # a header row inside a quote
    )
    _write(tmp_path, {"Home.md": table, "Other.md": "---\naliases: [Nick]\n---\n[[Home]]\n"})
    first = lint("--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert first.stderr.startswith("fixed Home.md:"), first.stderr
    assert (tmp_path / "Home.md").read_text(encoding="utf-8") == (
        "---\ntitle: t\n---\n"
        "| who | note |\n|---|---|\n"
        "| [[Other\\|Nick]] | [[Other]] |\n"
        "glued [[Other\\|Nick]] under the table\n"
        "\n"
        "Outside [[Other|Nick]]\x0c and [[Other|Nick]]\n"
        "> | q | [[Other\\|Nick]] |\n> |---|---|\n"
    )
    again = lint(".", cwd=tmp_path)  # each rewritten link resolves, no VK106 for a split cell
    assert again.returncode == 0, again.stdout
    assert again.stderr.endswith("no findings in 2 notes\n")
