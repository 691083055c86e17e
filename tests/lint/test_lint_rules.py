"""Each lint rule on a small real vault: the code, the position and what the message names."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultkit.errors import VaultkitError
from vaultkit.lint.runner import Selection, choose, collect, exit_code, load_context
from vaultkit.lint.runner import select_findings as select
from vaultkit.vault.model import Finding


def make_vault(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def lint(root: Path, files: dict[str, str | bytes]) -> list[Finding]:
    return collect(load_context(make_vault(root, files)))


def codes(findings: list[Finding]) -> list[tuple[str, str, int, int]]:
    return [(f.path, f.code, f.line, f.col) for f in findings]


def test_a_clean_vault_has_no_findings_and_exits_zero(tmp_path: Path) -> None:
    found = lint(tmp_path, {"a.md": "Go to [[b]].\n", "b.md": "Back to [[a]].\n"})
    assert found == []
    assert exit_code(found, strict=True) == 0


def test_ghost_link_and_ghost_embed(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.md": "[[b]] then [[Missing note]]\n\n![[gone.png]] and ![[Also missing]]\n",
            "b.md": "[[a]]\n",
        },
    )
    assert codes(found) == [
        ("a.md", "VK101", 1, 12),
        ("a.md", "VK102", 3, 1),
        ("a.md", "VK101", 3, 19),
    ]
    assert "Missing note" in found[0].message
    assert found[0].severity == "error"
    assert exit_code(found, strict=False) == 1


def test_alias_only_link_is_vk103_instead_of_vk101_with_the_fix(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.md": "See [[Short]] and [[b]].\n",
            "sub/Long name.md": "---\naliases: [Short]\n---\nBack to [[a]].\n",
            "b.md": "[[Long name]]\n",
        },
    )
    assert codes(found) == [("a.md", "VK103", 1, 5)]
    assert "sub/Long name.md" in found[0].message
    assert "[[Long name|Short]]" in found[0].message
    assert exit_code(found, strict=False) == 0
    assert exit_code(found, strict=True) == 1


def test_ambiguous_link_names_the_winner_and_the_others(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.md": "[[Plan]]\n",
            "x/Plan.md": "[[a]]\n",
            "y/deeper/Plan.md": "[[a]] [[x/Plan]]\n",
        },
    )
    vk104 = [f for f in found if f.code == "VK104"]
    assert codes(vk104) == [("a.md", "VK104", 1, 1)]
    assert "resolves to x/Plan.md" in vk104[0].message
    assert "y/deeper/Plan.md" in vk104[0].message


def test_duplicate_names_are_reported_once_per_extra_file(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.md": "[[x/Plan]] [[y/Plan]] [[z/Plan]]\n",
            "x/Plan.md": "[[a]]\n",
            "y/Plan.md": "[[a]]\n",
            "z/plan.md": "[[a]]\n",
        },
    )
    assert codes([f for f in found if f.code == "VK303"]) == [
        ("y/Plan.md", "VK303", 1, 1),
        ("z/plan.md", "VK303", 1, 1),
    ]


def test_paths_differing_only_in_case_are_named_a_clone_hazard(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {"a.md": "[[x/Plan]] [[y/plan]]\n", "x/Plan.md": "[[a]]\n", "x/plan.md": "[[a]]\n"},
    )
    found += lint(tmp_path / "other", {"b.md": "[[c]]\n", "c.md": "[[b]]\n", "d/c.md": "[[b]]\n"})
    [same_folder, other_folder] = [f.message for f in found if f.code == "VK303"]
    assert "x/Plan.md differs from this path only in letter case" in same_folder
    assert "macOS or Windows holds just one of them" in same_folder
    assert "`vaultkit mv` rewrites the links to it" in same_folder
    assert "letter case" not in other_folder
    assert "`vaultkit mv` rewrites the links to it) or link by path" in other_folder


def test_broken_heading_and_block_anchors(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.md": "[[b#Goals]] [[b#Missing]]\n[[b#^blk]] [[b#^nope]] [[#Local]] [[#Nope]]\n\n"
            "# Local\n",
            "b.md": "# Goals\n\nA paragraph. ^blk\n\n[[a]]\n",
        },
    )
    assert codes(found) == [
        ("a.md", "VK105", 1, 13),
        ("a.md", "VK105", 2, 12),
        ("a.md", "VK105", 2, 35),
    ]
    assert "block" in found[1].message


def test_parse_findings_are_merged_and_the_note_is_still_checked(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.md": "---\ntitle: [unclosed\n---\nLink [[b]] and [[broken\n",
            "b.md": "[[a]]\n",
            "c.md": b"\xff\xfe binary \x00 stuff",
        },
    )
    got = {(f.path, f.code) for f in found}
    assert ("a.md", "VK201") in got
    assert ("a.md", "VK106") in got
    assert ("c.md", "VK202") in got
    assert exit_code(found, strict=False) == 1


def test_orphans_ignore_index_and_self_links_and_degraded_notes(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "INDEX.md": "- [[a]]\n- [[b]]\n- [[lonely]]\n",
            "a.md": "[[b]]\n",
            "b.md": "[[a]]\n",
            "lonely.md": "---\nquality: degraded\ndegraded_reason: timeout\n---\n[[lonely]]\n",
        },
    )
    assert [(f.path, f.code) for f in found if f.code in ("VK301", "VK302")] == [
        ("lonely.md", "VK301"),
        ("lonely.md", "VK302"),
    ]
    assert "timeout" in next(f for f in found if f.code == "VK302").message


def test_index_rules_only_when_the_vault_has_an_index(tmp_path: Path) -> None:
    plain = lint(tmp_path / "plain", {"a.md": "[[b]]\n", "b.md": "[[a]]\n"})
    assert plain == []
    found = lint(
        tmp_path / "indexed", {"INDEX.md": "- [[a]]\n", "a.md": "[[b]]\n", "b.md": "[[a]]\n"}
    )
    assert codes(found) == [("INDEX.md", "VK402", 1, 1), ("b.md", "VK401", 1, 1)]


def test_select_and_ignore_by_code_or_prefix(tmp_path: Path) -> None:
    found = lint(tmp_path, {"a.md": "[[ghost]] ![[gone.png]]\n", "b.md": "x\n"})
    assert {f.code for f in found} == {"VK101", "VK102", "VK301"}
    assert {f.code for f in select(found, Selection(select=("VK1",)))} == {"VK101", "VK102"}
    assert {f.code for f in select(found, Selection(ignore=("vk101", "VK3")))} == {"VK102"}


def test_cli_flags_override_the_config_and_unknown_codes_fail(tmp_path: Path) -> None:
    make_vault(tmp_path, {"vaultkit.toml": '[lint]\nignore = ["VK301"]\nstrict = true\n'})
    config = load_context(tmp_path).config
    assert choose(config, None, None, False) == Selection((), ("VK301",), True)
    assert choose(config, ["VK1"], ["VK104"], False) == Selection(("VK1",), ("VK104",), True)
    with pytest.raises(VaultkitError, match="VK999"):
        choose(config, ["VK999"], None, False)


def test_unknown_lint_setting_is_an_error_naming_the_key(tmp_path: Path) -> None:
    make_vault(tmp_path, {"vaultkit.toml": "[lint]\nselekt = []\n", "a.md": "x\n"})
    with pytest.raises(VaultkitError, match=r"lint\.selekt"):
        load_context(tmp_path)


def test_alias_fix_uses_a_path_when_the_owner_name_is_shared(tmp_path: Path) -> None:
    found = lint(
        tmp_path,
        {
            "a.md": "[[Nick]] [[x/Plan]] [[y/Plan]]\n",
            "x/Plan.md": "---\naliases: [Nick]\n---\n[[a]]\n",
            "y/Plan.md": "[[a]]\n",
        },
    )
    vk103 = next(f for f in found if f.code == "VK103")
    assert vk103.message.endswith("write [[x/Plan|Nick]]")


def test_markdown_ghosts_are_shown_as_written(tmp_path: Path) -> None:
    found = lint(tmp_path, {"a.md": "[the plan](plans/Missing%20plan.md)\n"})
    assert [(f.code, f.message) for f in found if f.code == "VK101"] == [
        ("VK101", "[the plan](plans/Missing plan.md): no note named 'plans/Missing plan.md'")
    ]


def test_an_unreadable_index_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    found = lint(tmp_path, {"INDEX.md": b"- [[a]] caf\xe9\n", "a.md": "x\n"})
    assert ("INDEX.md", "VK202") in {(f.path, f.code) for f in found}
    assert not {f.code for f in found} & {"VK401", "VK402"}


def test_a_dotted_note_name_with_a_block_or_heading_is_a_note(tmp_path: Path) -> None:
    text = "![[2021.07.17#^id]] ![[2021.07.18#^id]] ![[2021.07.19]] ![[v1.2#Notes]] "
    text += "![[a.pdf#page=2]]"
    found = lint(tmp_path, {"a.md": text + "\n[[2021.07.17]]\n", "2021.07.17.md": "x ^id\n[[a]]\n"})
    assert [(f.code, f.col) for f in found] == [
        ("VK101", 21),
        ("VK101", 41),
        ("VK101", 57),
        ("VK102", 73),  # a known attachment format keeps its code, subpath or not
    ]
    assert "no note named '2021.07.18'" in found[0].message


def test_a_link_to_an_attachment_without_its_suffix_names_the_file(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "a.md": "![[pic]] [[img/shot]] ![[img/pic#x]] [[nothing]]\n",
        "pic.png": b"png",
        "img/shot.jpeg": b"jpeg",
        "img/pic.webp": b"webp",
        "b.md": "[[a]]\n",
    }
    found = [f for f in lint(tmp_path, files) if f.code == "VK101"]
    assert [f.col for f in found] == [1, 10, 23, 38]
    assert found[0].message == (
        "![[pic]]: no note named 'pic'; did you mean ![[pic.png]]? pic.png exists "
        "(also img/pic.webp): a link to an attachment needs its suffix"
    )
    assert "did you mean [[img/shot.jpeg]]? img/shot.jpeg exists:" in found[1].message
    assert "did you mean ![[img/pic.webp#x]]? img/pic.webp exists:" in found[2].message
    assert "(also" not in found[2].message  # pic.png is not in img/
    assert found[3].message == "[[nothing]]: no note named 'nothing'"
