"""The rule table: every stable code with its name, default severity and one-line meaning."""

from __future__ import annotations

from dataclasses import dataclass

from vaultkit.vault.model import Finding, Severity


@dataclass(frozen=True, slots=True)
class Rule:
    """A documented rule (see docs/lint.md and docs/ARCHITECTURE.md)."""

    code: str
    name: str
    severity: Severity
    summary: str


RULES: dict[str, Rule] = {
    r.code: r
    for r in (
        Rule("VK101", "ghost-link", "error", "a link to a note that does not exist"),
        Rule("VK102", "ghost-embed", "error", "an embed or link to a missing attachment"),
        Rule("VK103", "alias-link", "warning", "a ghost whose text is another note's alias"),
        Rule("VK104", "ambiguous-link", "warning", "several files match a link"),
        Rule("VK105", "broken-anchor", "warning", "#heading or #^block not found in the note"),
        Rule("VK106", "malformed-wikilink", "warning", "unclosed, nested or broken wikilink"),
        Rule("VK201", "frontmatter-invalid", "error", "frontmatter YAML is invalid"),
        Rule("VK202", "unreadable-file", "error", "not UTF-8, binary, or unreadable"),
        Rule("VK301", "orphan", "warning", "no incoming link from another note"),
        Rule("VK302", "degraded-note", "warning", "frontmatter says quality: degraded"),
        Rule("VK303", "duplicate-name", "warning", "two notes share a file name"),
        Rule("VK401", "index-missing-note", "warning", "a note is not listed in INDEX.md"),
        Rule("VK402", "index-stale", "warning", "INDEX.md differs from `vaultkit index`"),
    )
}


def finding(path: str, line: int, col: int, code: str, message: str) -> Finding:
    """A :class:`Finding` with the rule's default severity."""
    return Finding(path, line, col, code, RULES[code].severity, message)


def rule_name(code: str) -> str:
    """The rule's name, or ``"unknown"`` for a code this version does not know."""
    rule = RULES.get(code)
    return rule.name if rule else "unknown"
