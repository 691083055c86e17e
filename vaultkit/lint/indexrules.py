"""INDEX.md rules: a note missing from it (VK401) and a stale file (VK402).

Both apply only to a vault that has a root INDEX.md; a plain vault without one gets neither.
``index_findings`` is the rule over plain values (INDEX.md's text, its line links, the entries
``vaultkit index`` would write and the note paths), so the lint cache can run it without notes;
:func:`index_rules_again` is its incremental strategy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence

from vaultkit.errors import VaultkitError
from vaultkit.lint.codes import finding
from vaultkit.lint.compact import Again, EntryRow, GlobalChange, NoteData
from vaultkit.lint.context import LintContext
from vaultkit.lint.links import link_name
from vaultkit.vault.index import (
    INDEX_NAME,
    IndexEntry,
    LineLink,
    _fold,
    build_entries,
    index_line_links,
    is_index_path,
    listed_targets,
    plan_index,
    unlinkable,
)
from vaultkit.vault.model import NOTE_SUFFIX, Finding


def _unlisted(path: str) -> str:
    bad = unlinkable(link_name(path))
    if bad:
        held = ", ".join(repr(c) for c in bad)
        return (
            f"not listed in INDEX.md: its name holds {held}, which a [[link]] cannot hold; rename"
        )
    return "not listed in INDEX.md: run `vaultkit index`"


def index_findings(
    text: str,
    links: Mapping[int, LineLink],
    entries: Sequence[IndexEntry],
    note_paths: Iterable[str],
) -> Iterator[Finding]:
    """VK401 per unlisted note, VK402 when regenerating would change ``text``. A note whose
    name a wikilink cannot hold is never listed by ``vaultkit index`` (it says so), so it gets
    VK401 but does not make INDEX.md stale."""
    entries = [e for e in entries if not unlinkable(link_name(e.path))]
    listed = listed_targets(text, links)
    for path in note_paths:
        if not is_index_path(path) and path not in listed:
            yield finding(path, 1, 1, "VK401", _unlisted(path))
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


def _entry(data: NoteData | None) -> EntryRow | None:
    return None if data is None else data.entry


def index_rules_again(change: GlobalChange, tracked: bool, index_now: bool) -> Again:
    """VK401/VK402 of an incremental run. ``tracked``: the stored state keeps every note's
    entry (the vault had a readable INDEX.md); ``index_now``: it has one now. Computed again
    when INDEX.md, the file set or an entry changed; an INDEX.md that appeared needs every
    note's entry, which only a full load has."""
    if not tracked:
        return "full" if index_now else "reuse"
    entries_moved = any(_entry(c.before) != _entry(c.after) for c in change.notes.values())
    stale = entries_moved or INDEX_NAME in change.notes or change.files_changed
    return "rerun" if stale else "reuse"


def updated_entries(entries: Mapping[str, EntryRow], change: GlobalChange) -> dict[str, EntryRow]:
    """The stored entries (note path -> entry data), corrected by ``change``."""
    updated = dict(entries)
    for path, (_, after) in change.notes.items():
        updated.pop(path, None)
        if after is not None and after.entry is not None:
            updated[path] = after.entry
    return updated


def index_entries(rows: Mapping[str, EntryRow]) -> tuple[IndexEntry, ...]:
    """``build_entries`` over compact rows (note path -> entry data): same entries, same order."""
    listed = [(p, row) for p, row in rows.items() if not is_index_path(p)]
    counts = Counter(_fold(link_name(p)) for p, _ in listed)
    entries = []
    for path, row in listed:
        name = link_name(path)
        link = name if counts[_fold(name)] == 1 else path[: -len(NOTE_SUFFIX)]
        entries.append(IndexEntry(path, link, row.description, row.stamp, row.reason))
    entries.sort(key=lambda e: (_fold(e.link), e.path))
    entries.sort(key=lambda e: e.stamp, reverse=True)
    return tuple(entries)


def compact_index_findings(
    text: str, index: NoteData, entries: Mapping[str, EntryRow], notes: Sequence[str]
) -> Iterator[Finding]:
    """VK401/VK402 from compact data: INDEX.md's ``text`` and stored line links, every
    note's entry and the readable ``notes``."""
    links = {row.line: LineLink(row.target, row.path) for row in index.index_links}
    yield from index_findings(text, links, index_entries(entries), notes)
