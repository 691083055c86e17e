"""INDEX.md rules: a note missing from it (VK401) and a stale file (VK402).

Both apply only to a vault that has a root INDEX.md; a plain vault without one gets neither.
"""

from __future__ import annotations

from collections.abc import Iterator

from vaultkit.errors import VaultkitError
from vaultkit.index import (
    INDEX_NAME,
    index_line_links,
    is_index_path,
    listed_targets,
    vault_index_plan,
)
from vaultkit.lint.codes import finding
from vaultkit.lint.context import LintContext
from vaultkit.model import Finding


def index_rules(ctx: LintContext) -> Iterator[Finding]:
    """VK401 per unlisted note, VK402 when regenerating would change INDEX.md."""
    text = ctx.index_text
    if text is None or ctx.vault.note(INDEX_NAME) is None:
        return
    listed = listed_targets(text, index_line_links(ctx.vault))
    for note in ctx.vault.notes:
        if not is_index_path(note.path) and note.path not in listed:
            yield finding(note.path, 1, 1, "VK401", "not listed in INDEX.md: run `vaultkit index`")
    try:
        limit = ctx.config.index.description_max
        stale = vault_index_plan(ctx.vault, text, description_max=limit).text != text
    except VaultkitError as exc:
        yield finding(INDEX_NAME, 1, 1, "VK402", exc.message)
        return
    if stale:
        message = "INDEX.md is out of date: run `vaultkit index` (or `vaultkit lint --fix`)"
        yield finding(INDEX_NAME, 1, 1, "VK402", message)
