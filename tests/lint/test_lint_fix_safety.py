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


def test_fix_rewrites_only_an_exact_alias_of_exactly_one_note(tmp_path: Path) -> None:
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
    out = lint("--fix", ".", cwd=tmp_path)
    assert (tmp_path / "Home.md").read_text(encoding="utf-8") == (
        "[[Other|Nick]] [[nick]] [[Pair]] [[Plan]] [[Other]] [[Kept]]\n"
    )
    # a suppressed finding is not fixed behind the user's back
    assert "[[Nick]]" in (tmp_path / "Kept.md").read_text(encoding="utf-8")
    lines = out.stdout.splitlines()
    nick = next(line for line in lines if line.startswith("Home.md:1:16: VK103"))
    assert "alias of Other.md" in nick and "[[Other|nick]]" in nick  # told, not rewritten
    pair = next(line for line in lines if line.startswith("Home.md:1:25: VK103"))
    assert "so --fix leaves it: link to one of the candidates One.md, Two.md" in pair
    assert "Home.md:1:34: VK101 [[Plan]]: no note named 'Plan'" in out.stdout


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
    out = lint("--fix", ".", cwd=root)
    after = (root / "Home.md").read_text(encoding="utf-8")
    assert after == before.replace("Met [[Ada]]", "Met [[Ada Lovelace|Ada]]", 1)
    assert out.stderr.startswith("fixed: Home.md\n")
    assert "[[ada]] matches no file" in out.stdout  # left, and still reported
    assert "candidates people/Ada Lovelace.md, people/Lady Lovelace.md" in out.stdout


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
    first = lint("--fix", ".", cwd=tmp_path)
    assert first.stderr.startswith("fixed: Home.md\n"), first.stderr
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
