"""What a vault's own settings keep out of lint: globs, excluded files, templates, suppressions.

The fixture vaults under tests/fixtures/lint/<case>/ hold a ``vault/`` and the exact findings
(``expected.txt``, as ``path:line:col: CODE message``) that the cached and the uncached lint
must both give.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES

from vaultkit.base.config import parse_config
from vaultkit.errors import VaultkitError
from vaultkit.lint.cache.run import lint_vault
from vaultkit.lint.globs import glob_match
from vaultkit.lint.scope import load_scope
from vaultkit.lint.suppress import scan

CASES = FIXTURES / "lint"
NAMES = sorted(p.name for p in CASES.iterdir() if (p / "expected.txt").is_file())


def _copy(name: str, tmp_path: Path) -> Path:
    root = tmp_path / name
    shutil.copytree(CASES / name / "vault", root)
    return root


def _rendered(root: Path, cache: bool) -> str:
    return "".join(f.render() + "\n" for f in lint_vault(root, cache=cache).findings)


def test_there_are_lint_fixture_vaults() -> None:
    assert {"templates", "config", "suppress"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_fixture_vault_gives_its_expected_findings(name: str, tmp_path: Path) -> None:
    root = _copy(name, tmp_path)
    expected = (CASES / name / "expected.txt").read_text(encoding="utf-8")
    assert _rendered(root, cache=False) == expected
    assert _rendered(root, cache=True) == expected  # first run: the full path stores its state
    assert _rendered(root, cache=True) == expected  # second: the stored findings


def test_the_template_vault_is_clean_only_because_of_its_obsidian_settings(
    tmp_path: Path,
) -> None:
    root = _copy("templates", tmp_path)
    shutil.rmtree(root / ".obsidian")
    codes = {(f.path, f.code) for f in lint_vault(root, cache=False).findings}
    assert ("Templates/Daily.md", "VK201") in codes  # `created: {{date}}` is not YAML
    assert ("Templates/Daily.md", "VK101") in codes  # [[Project name here]]
    assert ("Tpl/Meeting.md", "VK101") in codes
    assert ("Archive/Old plan.md", "VK101") in codes
    assert ("Notes/Sketch.excalidraw.md", "VK101") in codes
    # placeholders are never ghosts, with or without settings
    assert not any("{{" in f.message or "<%" in f.message for f in lint_vault(root).findings)


def test_an_excluded_note_still_resolves_links_and_its_links_still_count(tmp_path: Path) -> None:
    root = _copy("templates", tmp_path)
    (root / "Home.md").write_text("[[Old plan]]\n", encoding="utf-8")
    (root / "Notes" / "Reading.md").write_text("alone\n", encoding="utf-8")
    found = {(f.path, f.code) for f in lint_vault(root, cache=False).findings}
    # Home is linked only from the excluded Archive/Old plan.md, so it is no orphan
    assert found == {("Notes/Reading.md", "VK301")}


def test_an_edit_that_removes_a_suppression_is_seen_by_the_cached_lint(tmp_path: Path) -> None:
    root = _copy("suppress", tmp_path)
    assert lint_vault(root, cache=True).how == "full"
    home = root / "Home.md"
    home.write_text(home.read_text(encoding="utf-8").replace("%% vaultkit: ignore VK101 %%", ""))
    again = lint_vault(root, cache=True)
    assert again.how != "stored"
    assert "Home.md:3:1: VK101" in "\n".join(f.render() for f in again.findings)
    assert again.findings == lint_vault(root, cache=False).findings


@pytest.mark.parametrize(
    ("path", "pattern", "matches"),
    [
        ("Templates/Daily.md", "Templates/**", True),
        ("Templates/sub/Daily.md", "Templates/**", True),
        ("Notes/Templates/Daily.md", "Templates/**", False),  # with "/": anchored at the root
        ("Notes/Templates/Daily.md", "Templates", True),  # without: a name at any depth
        ("Archive/2023/x.md", "Archive", True),  # a folder matches what is below it
        ("Archive2/x.md", "Archive", False),
        ("a/b/c.scratch.md", "*.scratch.md", True),
        ("a/b/c.md", "a/*.md", False),  # * stays within one segment
        ("a/b/c.md", "a/**/*.md", True),
        ("a/c.md", "a/**/*.md", True),  # ** may be no folder at all
        ("a/c.md", "./a/c.md", True),
        ("Daily/2024-01-05.md", "Daily/2024-0?-*.md", True),
        ("Daily/2024-11-05.md", "Daily/2024-0?-*.md", False),
        ("x/b.md", "x/[abc].md", True),
        ("x/d.md", "x/[!abc].md", True),
        ("x/a.md", "x/[!abc].md", False),
        ("x/[.md", "x/[.md", True),  # an unclosed [ is a literal
        ("notes/Plan.md", "notes/plan.md", False),  # case-sensitive
        ("a+b (1).md", "a+b (1).md", True),  # regex characters are literal
    ],
)
def test_glob_semantics(path: str, pattern: str, matches: bool) -> None:
    assert glob_match(path, pattern) is matches


def test_lint_settings_accept_exclude_and_per_file_ignores() -> None:
    text = '[lint]\nexclude = ["drafts/**"]\n[lint.per-file-ignores]\n"Templates/**" = ["VK101"]\n'
    lint = parse_config(text, "vaultkit.toml").lint
    assert lint.exclude == ["drafts/**"]
    assert lint.per_file_ignores == {"Templates/**": ["VK101"]}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[lint]\nexclud = []\n", "unknown setting lint.exclud"),
        ('[lint]\nexclude = "drafts"\n', "lint.exclude must be list"),
        ('[lint.per-file-ignores]\n"a" = "VK101"\n', "table of lists of strings"),
    ],
)
def test_bad_lint_settings_are_errors_naming_the_file(text: str, said: str) -> None:
    with pytest.raises(VaultkitError, match=said) as caught:
        parse_config(text, "vault/vaultkit.toml")
    assert "vault/vaultkit.toml" in str(caught.value)


def test_an_unknown_code_in_per_file_ignores_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("x\n", encoding="utf-8")
    (tmp_path / "vaultkit.toml").write_text('[lint.per-file-ignores]\n"*" = ["VK9"]\n')
    with pytest.raises(VaultkitError, match="unknown rule code 'VK9'"):
        lint_vault(tmp_path, cache=False)


def test_obsidian_filters_are_prefixes_or_regexes(tmp_path: Path) -> None:
    (tmp_path / ".obsidian").mkdir()
    filters = '["Archive", "/^Daily/\\\\d{4}/", "/[unclosed/", 7, ""]'
    (tmp_path / ".obsidian" / "app.json").write_text(f'{{"userIgnoreFilters": {filters}}}')
    scope = load_scope(tmp_path)
    assert scope.excluded("Archive/x.md")
    assert scope.excluded("Archived.md")  # a prefix, as Obsidian tests it
    assert scope.excluded("Daily/2024/x.md")
    assert not scope.excluded("Daily/notes.md")
    assert not scope.excluded("archive/x.md")


def test_broken_obsidian_settings_change_nothing(tmp_path: Path) -> None:
    (tmp_path / ".obsidian").mkdir()
    (tmp_path / ".obsidian" / "app.json").write_text("{not json")
    (tmp_path / ".obsidian" / "templates.json").write_text('["a list"]')
    assert load_scope(tmp_path) == load_scope(tmp_path / "nowhere")


def test_suppressions_are_found_outside_code_and_frontmatter() -> None:
    text = (
        "---\nvaultkit-ignore: [VK301]\nnote: '%% vaultkit: ignore VK101 %%'\n---\n"
        "a %% vaultkit: ignore VK101,VK105 %%\n~~~\n%% vaultkit: ignore %%\n~~~\n"
        "%%vaultkit:ignore%%\n%% vaultkit: ignored VK101 %%\n"
    )
    found = [(s.codes, s.lines, s.line) for s in scan(text)]
    assert found == [
        (("VK301",), (), 2),
        (("VK101", "VK105"), (5, 6), 5),
        (("VK",), (9, 10), 9),
    ]


def test_a_warm_lint_reads_no_note_for_suppressions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from vaultkit.lint import suppress
    from vaultkit.lint.cache import scan
    from vaultkit.lint.suppress import Suppression

    root = _copy("suppress", tmp_path)
    for note in root.glob("*.md"):  # old enough not to be racy
        os.utime(note, ns=(note.stat().st_atime_ns, note.stat().st_mtime_ns - 10**10))
    first = lint_vault(root, cache=True)
    read: list[str] = []

    def counted(base: Path, path: str) -> tuple[Suppression, ...]:
        read.append(path)
        return suppress.read_suppressions(base, path)

    monkeypatch.setattr(scan, "read_suppressions", counted)
    assert lint_vault(root, cache=True).findings == first.findings
    assert read == []
    home = root / "Home.md"
    home.write_text(home.read_text(encoding="utf-8").replace("VK999, ", ""), encoding="utf-8")
    again = lint_vault(root, cache=True)
    assert read == ["Home.md"]
    assert again.findings == lint_vault(root, cache=False).findings
    assert "VK999" not in "".join(f.message for f in again.findings)
