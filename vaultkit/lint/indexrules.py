"""INDEX.md rules: a note missing from it (VK401) and a stale file (VK402).

Both apply only to a vault that has a root INDEX.md; a plain vault without one gets neither.
``index_findings`` is the rule over plain values (INDEX.md's text, its line links, the entries
``vaultkit index`` would write and the note paths), so the lint cache can run it without notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from vaultkit.errors import VaultkitError
from vaultkit.lint.codes import finding
from vaultkit.lint.context import LintContext
from vaultkit.vault.index import (
    INDEX_NAME,
    IndexEntry,
    LineLink,
    build_entries,
    index_line_links,
    is_index_path,
    listed_targets,
    plan_index,
)
from vaultkit.vault.model import Finding


def index_findings(
    text: str,
    links: Mapping[int, LineLink],
    entries: Sequence[IndexEntry],
    note_paths: Iterable[str],
) -> Iterator[Finding]:
    """VK401 per unlisted note, VK402 when regenerating would change ``text``."""
    listed = listed_targets(text, links)
    for path in note_paths:
        if not is_index_path(path) and path not in listed:
            yield finding(path, 1, 1, "VK401", "not listed in INDEX.md: run `vaultkit index`")
    try:
        stale = plan_index(text, entries, links).text != text
    except VaultkitError as exc:
        yield finding(INDEX_NAME, 1, 1, "VK402", exc.message)
        return
    if stale:
        message = "INDEX.md is out of date: run `vaultkit index` (or `vaultkit lint --fix`)"
        yield finding(INDEX_NAME, 1, 1, "VK402", message)


def index_rules(ctx: LintContext) -> Iterator[Finding]:
    """VK401 and VK402 for a loaded vault (what ``vault_index_plan`` would plan)."""
    text = ctx.index_text
    if text is None or ctx.vault.note(INDEX_NAME) is None:
        return
    notes = ctx.vault.notes
    entries = build_entries(notes, description_max=ctx.config.index.description_max)
    yield from index_findings(text, index_line_links(ctx.vault), entries, (n.path for n in notes))
