"""Note rules: orphans (VK301), degraded notes (VK302) and duplicate file names (VK303)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from vaultkit.lint.codes import finding
from vaultkit.lint.context import LintContext
from vaultkit.lint.links import link_name
from vaultkit.vault.analysis import orphans
from vaultkit.vault.model import Finding


def orphan_finding(path: str) -> Finding:
    """The VK301 finding for the note at ``path``."""
    return finding(path, 1, 1, "VK301", "orphan: no other note links here (INDEX.md excluded)")


def orphan_rule(ctx: LintContext) -> Iterator[Finding]:
    """VK301: no other note links here (links from INDEX.md and self-links do not count)."""
    for path in orphans(ctx.vault):
        yield orphan_finding(path)


def degraded_rule(ctx: LintContext) -> Iterator[Finding]:
    """VK302: frontmatter says ``quality: degraded`` (never inferred from the body)."""
    for note in ctx.vault.notes:
        if note.degraded:
            reason = note.frontmatter.get("degraded_reason")
            why = f" ({reason})" if isinstance(reason, str) and reason.strip() else ""
            message = (
                f"degraded note{why}: its distillation was not clean; review it and remove "
                "`quality: degraded` from its frontmatter"
            )
            yield finding(note.path, 1, 1, "VK302", message)


def duplicate_findings(groups: Iterable[Sequence[str]]) -> Iterator[Finding]:
    """VK303 for every path but the first of each group of notes sharing a file name."""
    for first, *extra in groups:
        for path in extra:
            name = link_name(path)
            message = (
                f"duplicate name: {first} is also called {name!r}, so a bare [[{name}]] is "
                "ambiguous; rename one note or link by path"
            )
            yield finding(path, 1, 1, "VK303", message)


def duplicate_name_rule(ctx: LintContext) -> Iterator[Finding]:
    """VK303: once per extra note sharing a file name with another (the first is kept)."""
    yield from duplicate_findings(ctx.vault.index.same_name_notes())
