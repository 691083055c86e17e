"""Lint output formats and the pure half of the safe fixes (exact in-place link rewrites)."""

from __future__ import annotations

import json

from vaultkit.lint.codes import RULES
from vaultkit.lint.fix import Edit, apply_edits
from vaultkit.lint.output import render_github, render_json, render_text, summary_line
from vaultkit.vault.model import Finding

ERR = Finding("a b.md", 3, 7, "VK101", "error", "[[x]]: no note named 'x'")
WARN = Finding("sub/c.md", 1, 1, "VK301", "warning", "50% done,\nsecond: line")


def test_text_is_the_editor_shape_under_the_shown_prefix() -> None:
    assert render_text([ERR], "vault") == "vault/a b.md:3:7: VK101 [[x]]: no note named 'x'\n"
    assert render_text([ERR]) == "a b.md:3:7: VK101 [[x]]: no note named 'x'\n"


def test_github_commands_escape_data_and_properties() -> None:
    out = render_github([ERR, WARN], "my,vault:x")
    assert out.splitlines() == [
        "::error file=my%2Cvault%3Ax/a b.md,line=3,col=7,title=VK101::[[x]]: no note named 'x'",
        "::warning file=my%2Cvault%3Ax/sub/c.md,line=1,col=1,title=VK301::"
        "50%25 done,%0Asecond: line",
    ]


def test_json_has_the_versioned_schema() -> None:
    doc = json.loads(render_json([ERR, WARN], vault="v", notes=2, exit_code=1))
    assert doc["version"] == 1
    assert doc["vault"] == "v"
    assert doc["findings"][1]["name"] == "orphan"
    assert doc["summary"]["by_code"] == {"VK101": 1, "VK301": 1}
    assert (doc["summary"]["errors"], doc["summary"]["warnings"]) == (1, 1)


def test_summary_line_counts() -> None:
    assert summary_line([], 1) == "no findings in 1 note"
    assert summary_line([ERR, WARN], 3) == "2 findings (1 error, 1 warning) in 3 notes"


def test_rule_table_matches_the_architecture_codes() -> None:
    assert list(RULES) == [
        "VK101", "VK102", "VK103", "VK104", "VK105", "VK106", "VK107", "VK201", "VK202",
        "VK203", "VK301", "VK302", "VK303", "VK401", "VK402", "VK501",
    ]  # fmt: skip
    assert {r.severity for r in RULES.values()} == {"error", "warning"}


def test_edits_replace_exactly_the_link_at_its_position() -> None:
    text = "a [[Nick]] b [[Nick]]\r\nsecond [[Nick|shown]]\n"
    edits = [Edit(1, 14, "[[Target|Nick]]"), Edit(2, 8, "[[Target|shown]]")]
    assert apply_edits(text, edits) == ("a [[Nick]] b [[Target|Nick]]\r\nsecond [[Target|shown]]\n")


def test_edits_keep_escaped_pipes_in_tables_embeds_and_a_bom() -> None:
    table = "| a | [[Nick\\|x]] |\n"
    assert apply_edits(table, [Edit(1, 7, "[[T|x]]")]) == "| a | [[T\\|x]] |\n"
    assert apply_edits("\ufeff![[Nick]]\n", [Edit(1, 1, "![[T|Nick]]")]) == "\ufeff![[T|Nick]]\n"


def test_edits_leave_text_alone_when_the_position_no_longer_holds_the_link() -> None:
    text = "moved [[Nick]]\n"
    assert apply_edits(text, [Edit(1, 1, "[[T|Nick]]"), Edit(5, 1, "[[T|Nick]]")]) == text
