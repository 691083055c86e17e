"""The rule table: every stable code with its name, default severity and one-line meaning.

This is the table's one source: the copies in README.md and docs/lint.md are this module's
:func:`markdown_table` (``python -m vaultkit.lint.codes`` prints it), and tests/test_docs.py fails
when a copy drifts from it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from vaultkit.vault.model import Finding, Severity


@dataclass(frozen=True, slots=True)
class Rule:
    """A documented rule (each has a section with an example in docs/lint.md)."""

    code: str
    name: str
    severity: Severity
    summary: str


RULES: dict[str, Rule] = {
    r.code: r
    for r in (
        Rule("VK101", "ghost-link", "error", "a link to a note that does not exist"),
        Rule(
            "VK102",
            "ghost-embed",
            "error",
            "an embed or link to a missing attachment (a non-`.md` target)",
        ),
        Rule(
            "VK103",
            "alias-link",
            "warning",
            "a ghost whose text is another note's alias (aliases never resolve links)",
        ),
        Rule(
            "VK104",
            "ambiguous-link",
            "warning",
            "several files match; which one wins and which lose",
        ),
        Rule(
            "VK105",
            "broken-anchor",
            "warning",
            "`#heading` or `#^block` not found in the target note",
        ),
        Rule(
            "VK106",
            "malformed-wikilink",
            "warning",
            "unclosed or nested `[[`, newline inside, unescaped `|` in a table cell",
        ),
        Rule(
            "VK107",
            "ghost-property-link",
            "error",
            "a link in a frontmatter property to a note that does not exist",
        ),
        Rule(
            "VK201",
            "frontmatter-invalid",
            "error",
            "YAML does not parse, or is not a mapping (the rest of the note is still checked)",
        ),
        Rule("VK202", "unreadable-file", "error", "not UTF-8, binary content, or unreadable"),
        Rule(
            "VK203",
            "link-out-of-store",
            "error",
            "a session store's symlink out of the store or into its private parts (not read)",
        ),
        Rule(
            "VK301",
            "orphan",
            "warning",
            "no incoming link from another note (INDEX.md and self-links do not count)",
        ),
        Rule("VK302", "degraded-note", "warning", "frontmatter says `quality: degraded`"),
        Rule(
            "VK303",
            "duplicate-name",
            "warning",
            "two notes share a file name, so bare links to it are ambiguous",
        ),
        Rule("VK401", "index-missing-note", "warning", "a note is not listed in INDEX.md"),
        Rule(
            "VK402",
            "index-stale",
            "warning",
            "INDEX.md differs from what `vaultkit index` would write",
        ),
        Rule(
            "VK501",
            "unknown-suppression",
            "warning",
            "a `%% vaultkit: ignore … %%` comment or `vaultkit-ignore` key names an unknown code",
        ),
    )
}


def finding(path: str, line: int, col: int, code: str, message: str) -> Finding:
    """A :class:`Finding` with the rule's default severity."""
    return Finding(path, line, col, code, RULES[code].severity, message)


def rule_name(code: str) -> str:
    """The rule's name, or ``"unknown"`` for a code this version does not know."""
    rule = RULES.get(code)
    return rule.name if rule else "unknown"


def _table_row(cells: Sequence[str], widths: Sequence[int]) -> str:
    return f"| {' | '.join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))} |"


def markdown_table() -> str:
    """The rule table as Markdown: code, name, severity and meaning (``|`` escaped for GFM)."""
    header = ("code", "name", "severity", "meaning")
    rows = [(r.code, r.name, r.severity, r.summary.replace("|", "\\|")) for r in RULES.values()]
    # The first three columns line up; the meaning column is left ragged.
    widths = [*(max(len(row[i]) for row in [header, *rows]) for i in range(3)), len(header[3])]
    lines = [_table_row(row, widths) for row in [header, ["-" * w for w in widths], *rows]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown_table())
