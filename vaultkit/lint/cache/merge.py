"""An incremental run's findings: the stored ones with the re-linted notes' local findings
swapped in, each global rule reused or computed again by its own strategy (in the rule's
module), and the update the run stores."""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter

from vaultkit.lint.cache.plan import Inputs, Relinted
from vaultkit.lint.cache.state import (
    FolderRow,
    Full,
    Update,
    alias_rows,
    meta_values,
)
from vaultkit.lint.compact import (
    GLOBAL_CODES,
    EntryRow,
    FindingRow,
    GlobalChange,
    NoteChange,
    finding_row,
    name_key,
)
from vaultkit.lint.indexrules import compact_index_findings, index_rules_again, updated_entries
from vaultkit.lint.notes import (
    duplicate_name_findings,
    duplicate_names_again,
    duplicate_names_touched,
    links_moved,
    orphan_findings,
    orphans_again,
    orphans_touched,
    recount_incoming,
)
from vaultkit.lint.runner import read_index_text
from vaultkit.vault.index import INDEX_NAME

ROW_ORDER = itemgetter(0, 1, 2, 3, 5)  # FindingRow.sort_key, without a call per row
Readable = Callable[[], list[str]]  # the readable notes now, computed once when first asked


@dataclass(frozen=True, slots=True)
class Part:
    """One global rule's findings in this run and the stored inputs it changed."""

    rows: list[FindingRow]
    meta: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Merged:
    """Every finding of the run (sorted, as cache rows), the number of readable notes and
    what to store."""

    rows: list[FindingRow]
    notes: int
    update: Update


def global_change(relinted: Relinted) -> GlobalChange:
    old, delta = relinted.old, relinted.delta
    notes = {
        path: NoteChange(old[path].data if path in old else None, None if row is None else row.data)
        for path, row in relinted.rows.items()
    }
    was_unreadable = {p for p, row in old.items() if not row.data.ok}
    files_changed = bool(delta.added_files or delta.gone_files)
    return GlobalChange(notes, files_changed, delta.unreadable != was_unreadable)


def _stored(rows: Iterable[FindingRow], *codes: str) -> list[FindingRow]:
    return [r for r in rows if r.code in codes]


def _orphans(
    inputs: Inputs, change: GlobalChange, old_rows: Sequence[FindingRow], unreadable: set[str]
) -> Part:
    """VK301: the stored findings of the notes ``change`` cannot affect, the others counted
    again (:func:`orphans_touched`)."""
    if orphans_again(change) == "reuse":
        return Part(_stored(old_rows, "VK301"))
    incoming = recount_incoming(inputs.store.incoming(), change)
    meta: dict[str, object] = {"incoming": marshal.dumps(incoming)} if links_moved(change) else {}
    touched = orphans_touched(change)
    stats = inputs.walked.stats
    kept = [r for r in old_rows if r.code == "VK301" and r.path not in touched]
    now = sorted(p for p in touched if stats.get(p) is not None and p not in unreadable)
    return Part(kept + list(map(finding_row, orphan_findings(now, incoming))), meta)


def _duplicates(
    inputs: Inputs, relinted: Relinted, change: GlobalChange, old_rows: Sequence[FindingRow]
) -> Part:
    """VK303: the stored findings of the names no file of which appeared or went, the groups
    of the others formed again from the stored file names corrected by this run's changes."""
    if duplicate_names_again(change) == "reuse":
        return Part(_stored(old_rows, "VK303"))
    delta = relinted.delta
    keys = duplicate_names_touched(delta.added_files, delta.gone_files)
    gone = set(delta.gone_files)
    files = {p for p in inputs.store.file_names(keys) if p not in gone}
    files.update(p for p in delta.added_files if name_key(p) in keys)
    kept = [r for r in old_rows if r.code == "VK303" and name_key(r.path) not in keys]
    found = duplicate_name_findings(sorted(files))
    return Part(kept + list(map(finding_row, found)))


def entries_blob(entries: Mapping[str, EntryRow]) -> bytes:
    return marshal.dumps({path: tuple(entry) for path, entry in entries.items()})


def _index(
    inputs: Inputs,
    relinted: Relinted,
    change: GlobalChange,
    old_rows: Sequence[FindingRow],
    readable: Readable,
) -> Part | Full:
    unreadable = relinted.delta.unreadable
    index_now = inputs.walked.stats.get(INDEX_NAME) is not None and INDEX_NAME not in unreadable
    again = index_rules_again(change, inputs.meta.indexed, index_now)
    if again == "full":
        return Full("INDEX.md appeared")
    if again == "reuse":
        return Part(_stored(old_rows, "VK401", "VK402"))
    entries = updated_entries(inputs.store.entries(), change)
    text = read_index_text(inputs.root) if INDEX_NAME in entries else None
    if text is None:  # no INDEX.md note, or it cannot be read
        return Part([], {"entries": entries_blob(entries)})
    row = relinted.rows.get(INDEX_NAME) or inputs.store.rows([INDEX_NAME])[INDEX_NAME]
    found = compact_index_findings(text, row.data, entries, readable())
    return Part(list(map(finding_row, found)), {"entries": entries_blob(entries)})


def _unique_rows(rows: Iterable[FindingRow]) -> list[FindingRow]:
    """Sorted ``rows`` with equal neighbours once (what ``sorted(set(...))`` gives)."""
    out: list[FindingRow] = []
    for row in rows:
        if not out or row != out[-1]:
            out.append(row)
    return out


def _same_local(relinted: Relinted) -> bool:
    old = relinted.old
    return all(
        row is not None and path in old and old[path].data.local == row.data.local
        for path, row in relinted.rows.items()
    )


def _merged_rows(
    relinted: Relinted, change: GlobalChange, old_rows: list[FindingRow], parts: Sequence[Part]
) -> list[FindingRow]:
    """The run's findings: the stored ones when nothing came out differently."""
    stored_inputs_moved = any(part.meta for part in parts)
    globals_moved = change.files_changed or change.notes_changed or change.unreadable_changed
    if _same_local(relinted) and not stored_inputs_moved and not globals_moved:
        return old_rows  # the dirty notes' findings came out as before; globals reused
    touched = set(relinted.rows)
    kept = [r for r in old_rows if r.code not in GLOBAL_CODES and r.path not in touched]
    extra = [r for row in relinted.rows.values() if row is not None for r in row.data.local]
    extra += (r for part in parts for r in part.rows)
    kept += extra  # kept is one sorted run: the (stable) sort just merges the few others in
    kept.sort(key=ROW_ORDER)
    return _unique_rows(kept)


def _update(inputs: Inputs, relinted: Relinted, meta: dict[str, object]) -> Update:
    delta, old, walked = relinted.delta, relinted.old, inputs.walked
    folders: dict[str, FolderRow | None] = {}
    for folder in delta.folders:
        group = walked.groups.get(folder)
        folders[folder] = (
            None if group is None else FolderRow(walked.digests[folder], marshal.dumps(group))
        )
    return Update(
        meta=meta,
        rows=relinted.rows,
        old_deps={p: old[p].data.deps for p in relinted.rows if p in old},
        folders=folders,
        names_added=delta.added_files,
        names_removed=delta.gone_files,
        aliases_added=[r for p, a in delta.aliases.items() for r in alias_rows(p, a)],
        aliases_removed=[
            r for p in delta.stale if p in old for r in alias_rows(p, old[p].data.aliases)
        ],
    )


def merge(inputs: Inputs, relinted: Relinted) -> Merged | Full:
    """The findings of an incremental run and what it stores."""
    change = global_change(relinted)
    unreadable = relinted.delta.unreadable
    stats = inputs.walked.stats

    @cache
    def readable() -> list[str]:
        return [p for p, s in stats.items() if s is not None and p not in unreadable]

    old_rows = inputs.store.finding_rows()
    index = _index(inputs, relinted, change, old_rows, readable)
    if isinstance(index, Full):
        return index
    parts = [
        _orphans(inputs, change, old_rows, unreadable),
        _duplicates(inputs, relinted, change, old_rows),
        index,
    ]
    rows = _merged_rows(relinted, change, old_rows, parts)
    notes = inputs.walked.notes - len(unreadable)
    meta = {key: value for part in parts for key, value in part.meta.items()}
    findings = None if rows == old_rows else rows
    meta.update(meta_values(inputs.config, inputs.walked, sorted(unreadable), findings, notes))
    return Merged(rows, notes, _update(inputs, relinted, meta))
