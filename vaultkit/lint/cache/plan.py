"""The lint cache's incremental plan: what changed, which notes are linted again, and linting them.

From the folders whose stat digest changed: the notes whose stat changed (read and hashed;
parsed only when the hash differs), the files created or deleted and the aliases that changed.
The notes linted again are those whose content changed, those with a link a created, deleted or
renamed file or a changed alias can affect (:func:`vaultkit.vault.relink.affected`, looked up
by dependency key) and those with ``#heading``/``#^block`` links into a note whose headings or
block ids changed. Only they become Note values (from the note cache when it is current, else
parsed); their links are resolved against an index of just the files they could match.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.config import Config
from vaultkit.lint.cache.state import Full, LintStore, Meta, NoteRow
from vaultkit.lint.cache.walk import Stat, Stats, Walked, same_file_stat
from vaultkit.lint.compact import NoteData, name_key, note_data
from vaultkit.lint.context import LintContext
from vaultkit.lint.links import link_name, link_rules
from vaultkit.lint.notes import degraded_rule
from vaultkit.vault import cache as notecache
from vaultkit.vault import strategy
from vaultkit.vault.load import Vault
from vaultkit.vault.model import Finding, Heading, Note
from vaultkit.vault.records import note_from_record, read_one
from vaultkit.vault.relink import Affected, LinkState, affected
from vaultkit.vault.resolve import (
    FileIndex,
    ResolvedLink,
    build_file_index,
    by_source,
    match_key,
    resolve_all,
)

FULL_FRACTION = 0.25  # more dirty notes than this: the full path is as fast and simpler


@dataclass(frozen=True, slots=True)
class Inputs:
    """What every step of a cached run reads: the vault, its settings and the note cache's
    file (both found once per command), the open lint database, its meta values and the walk."""

    root: Path
    config: Config
    note_cache: Path
    store: LintStore
    meta: Meta
    walked: Walked


@dataclass(frozen=True, slots=True)
class Reread:
    """Notes whose stat changed (or that must be re-read), after reading them."""

    changed: dict[str, Note | None]  # content changed; None: cannot be read now
    errors: dict[str, str]
    digests: dict[str, bytes]


@dataclass(frozen=True, slots=True)
class Delta:
    """What changed since the stored run, from the folders whose stats changed."""

    folders: list[str]  # folders whose file list or note stats changed
    suspects: list[str]  # notes read again (stat changed, new, racy or to retry)
    removed: list[str]  # notes gone
    added_files: list[str]
    gone_files: list[str]
    old: dict[str, NoteRow]  # stored rows of suspects and removed notes
    reread: Reread
    aliases: dict[str, tuple[str, ...]]  # current aliases of the suspects that have any
    stale: set[str]  # notes whose stored alias rows may be out of date
    old_files: tuple[str, ...]  # every file of the changed folders, before and now
    new_files: tuple[str, ...]

    @property
    def unreadable(self) -> set[str]:
        """Notes that cannot be read now."""
        return {p for p, note in self.reread.changed.items() if note is None}


@dataclass(frozen=True, slots=True)
class Relinted:
    """The outcome of the plan: what changed and the new row of every note linted again
    (None: the note is gone); ``old`` also holds the stored rows of the dirty notes."""

    delta: Delta
    old: dict[str, NoteRow]
    rows: dict[str, NoteRow | None]


def _reread(root: Path, suspects: Sequence[str], old: Mapping[str, NoteRow]) -> Reread:
    def known(path: str) -> bytes | None:
        row = old.get(path)
        return row.digest if row is not None and row.data.ok and row.digest else None

    changed: dict[str, Note | None] = {}
    errors: dict[str, str] = {}
    digests: dict[str, bytes] = {}
    for parsed in strategy.read_all(str(root), [(p, known(p)) for p in suspects]):
        if parsed.error is not None:
            changed[parsed.path] = None
            errors[parsed.path] = parsed.error
        elif parsed.record is not None:
            changed[parsed.path] = note_from_record(marshal.loads(parsed.record))
            digests[parsed.path] = parsed.digest
    return Reread(changed, errors, digests)


def _current_aliases(
    suspects: Iterable[str], reread: Reread, old: Mapping[str, NoteRow]
) -> dict[str, tuple[str, ...]]:
    aliases: dict[str, tuple[str, ...]] = {}
    for path in suspects:
        if path in reread.changed:
            note = reread.changed[path]
            current = note.aliases if note is not None else ()
        else:
            current = old[path].data.aliases if path in old else ()
        if current:
            aliases[path] = current
    return aliases


def read_delta(inputs: Inputs) -> Delta:
    """Compare the walk with the stored folders and read the notes that may have changed."""
    store, meta, walked = inputs.store, inputs.meta, inputs.walked
    stored = store.folders()
    folders = sorted(
        f for f in walked.digests.keys() | stored.keys() if walked.digests.get(f) != stored.get(f)
    )
    old_part = store.folder_stats(folders)
    new_part: Stats = {p: st for f in folders for p, st in walked.groups.get(f, {}).items()}
    again = {p for p in (*meta.racy, *meta.retry) if walked.stats.get(p) is not None}
    changed = {p for p, st in new_part.items() if st is not None and old_part.get(p) != st}
    suspects = sorted(changed | again)
    removed = [p for p, st in old_part.items() if st is not None and p not in new_part]
    old = store.rows([*suspects, *removed])
    reread = _reread(inputs.root, suspects, old)
    return Delta(
        folders=folders,
        suspects=suspects,
        removed=removed,
        added_files=[p for p in new_part if p not in old_part],
        gone_files=[p for p in old_part if p not in new_part],
        old=old,
        reread=reread,
        aliases=_current_aliases(suspects, reread, old),
        stale={*suspects, *removed},
        old_files=tuple(sorted(old_part)),
        new_files=tuple(sorted(new_part)),
    )


def link_change(delta: Delta) -> Affected:
    """The file names and alias keys whose link matches may differ since the stored run."""
    old = delta.old
    before = {p: old[p].data.aliases for p in delta.stale if p in old and old[p].data.aliases}
    return affected(
        LinkState(delta.old_files, tuple(sorted(before.items()))),
        LinkState(delta.new_files, tuple(sorted(delta.aliases.items()))),
    )


def _anchors(row: NoteRow | None) -> object:
    if row is None or not row.data.ok:
        return None
    return (row.data.heads, row.data.blocks)


def _anchors_of(note: Note | None, exists: bool) -> object:
    if note is None or not exists:
        return None
    return (tuple(h.text for h in note.headings), note.block_ids)


def dirty_paths(inputs: Inputs, delta: Delta) -> set[str] | Full:
    """The notes to lint again: changed content, links a file or alias change may move,
    anchored links into notes whose headings or block ids changed."""
    store, stats, changed = inputs.store, inputs.walked.stats, delta.reread.changed
    change = link_change(delta)
    if change.everything:
        return Full("no stored file list to compare with")
    dirty = set(changed)
    if not change.nothing:
        keys = {"n:" + n for n in change.names}
        keys |= {"n:" + n[:-3] for n in change.names if n.endswith(".md")}
        keys |= {"a:" + k for k in change.alias_keys}
        keys.add("d:")
        dirty |= store.paths_with(keys)
    anchors = [
        p
        for p in (*changed, *delta.removed)
        if _anchors(delta.old.get(p)) != _anchors_of(changed.get(p), stats.get(p) is not None)
    ]
    dirty |= store.paths_with("t:" + p for p in anchors)
    dirty = {p for p in dirty if stats.get(p) is not None}
    if len(dirty) > FULL_FRACTION * max(inputs.meta.notes, 1):
        return Full("too many notes to lint again")
    return dirty


def _same(row: notecache.Row, stat: Stat, digest: bytes) -> bool:
    """The note cache's row is of the content this cache last saw (its racy flag does not
    matter: this cache's own racy list has verified the content by hash)."""
    return same_file_stat(stat, row.file_stat()) and row.digest == digest


def _cached_note(row: notecache.Row) -> Note | None:
    try:
        return note_from_record(marshal.loads(row.record))
    except (ValueError, EOFError, TypeError):  # damaged bytes in the note cache: parse again
        return None


def unchanged_notes(
    inputs: Inputs, dirty: Iterable[str], old: Mapping[str, NoteRow]
) -> dict[str, Note] | Full:
    """Notes to lint again whose content did not change: from the note cache when its row is
    current, else parsed."""
    wanted = sorted(dirty)
    cached = notecache.stored_rows(inputs.note_cache, wanted, records=True)
    notes: dict[str, Note] = {}
    base = str(inputs.root)
    for path in wanted:
        row, stat, mine = cached.get(path), inputs.walked.stats[path], old.get(path)
        note = None
        if (
            row is not None
            and stat is not None
            and mine is not None
            and _same(row, stat, mine.digest)
        ):
            note = _cached_note(row)
        if note is None:
            parsed = read_one(base, (path, None))
            if parsed.error is not None or parsed.record is None:
                return Full("a note to lint again cannot be read")
            note = note_from_record(marshal.loads(parsed.record))
        notes[path] = note
    return notes


def _wanted_names(
    notes: Iterable[Note], owners: Mapping[str, tuple[str, ...]]
) -> tuple[set[str], set[str]]:
    """Name keys of every file the links of ``notes`` could resolve to (or name in a VK103
    message), and the alias owners their ghosts could name."""
    names: set[str] = set()
    extra: set[str] = set()
    for note in notes:
        folder = match_key(note.path.rpartition("/")[0]).split("/")
        for link in note.links:
            text = link.target.strip()
            if not text:
                continue
            key = match_key(text)
            segments = key.split("/")
            if text.startswith(("/", ".")) or {".", ".."}.intersection(segments):
                names.update(segments)
                names.update(folder)
            else:
                names.add(segments[-1])
            for owner in owners.get(key, ()):
                extra.add(owner)
                names.add(name_key(link_name(owner).strip()))
    return names, extra


def _written_aliases(store: LintStore, delta: Delta, keys: set[str]) -> dict[str, list[str]]:
    """Aliases (as written, per note) whose key is one of ``keys``: the stored ones corrected
    by this run's changes."""
    written: dict[str, list[str]] = {}
    for row in store.aliases(keys):
        if row.path not in delta.stale:
            written.setdefault(row.path, []).append(row.alias)
    for path, aliases in delta.aliases.items():
        for alias in aliases:
            if alias.strip() and match_key(alias.strip()) in keys:
                written.setdefault(path, []).append(alias)
    return written


def resolve_subset(
    store: LintStore, delta: Delta, notes: Mapping[str, Note]
) -> tuple[FileIndex, Sequence[ResolvedLink]]:
    """The links of ``notes`` resolved against an index of only the files they could match
    (the same resolutions as the whole vault's index gives); the candidates come from the
    stored file names and aliases, corrected by this run's changes."""
    keys = {
        match_key(link.target.strip())
        for note in notes.values()
        for link in note.links
        if link.target.strip()
    }
    written = _written_aliases(store, delta, keys)
    owners: dict[str, list[str]] = {}
    for path, own in written.items():
        for alias in own:
            owners.setdefault(match_key(alias.strip()), []).append(path)
    names, extra = _wanted_names(notes.values(), {k: tuple(v) for k, v in owners.items()})
    wanted = names | {n + ".md" for n in names}
    gone = set(delta.gone_files)
    subset = {p for p in store.file_names(wanted) if p not in gone}
    subset.update(p for p in delta.added_files if name_key(p) in wanted)
    subset |= extra
    index = build_file_index(subset, {p: written[p] for p in subset if p in written})
    return index, resolve_all(index, [notes[path] for path in sorted(notes)])


def _stub(path: str, data: NoteData) -> Note | None:
    """A note with only what an anchored link into it checks (headings and block ids)."""
    if not data.ok:
        return None
    return Note(path, headings=tuple(Heading(t, 1, 1) for t in data.heads), block_ids=data.blocks)


def _partial_vault(inputs: Inputs, delta: Delta, notes: Mapping[str, Note]) -> Vault:
    """A vault of the dirty notes, the files their links could match and stubs of the notes
    their anchored links point into: enough for the local rules."""
    index, links = resolve_subset(inputs.store, delta, notes)
    targets = {
        x.resolution.path
        for x in links
        if x.link.subpath and x.resolution.path is not None and x.resolution.path not in notes
    }
    stubs = [_stub(p, row.data) for p, row in inputs.store.rows(t for t in targets if t).items()]
    everything = [*notes.values(), *(s for s in stubs if s is not None)]
    return Vault(
        inputs.root,
        tuple(sorted(everything, key=lambda n: n.path)),
        (),
        index,
        links,
        tuple(f for n in notes.values() for f in n.findings),
    )


def _local_findings(
    inputs: Inputs, vault: Vault, dirty: set[str], errors: Mapping[str, str]
) -> dict[str, list[Finding]]:
    ctx = LintContext(vault, inputs.config, None)
    local: dict[str, list[Finding]] = {}
    for f in (*vault.findings, *link_rules(ctx), *degraded_rule(ctx)):
        if f.path in dirty:
            local.setdefault(f.path, []).append(f)
    for path, error in errors.items():
        local[path] = [notecache.unreadable_finding(path, error)]
    return local


def relint(inputs: Inputs) -> Relinted | Full:
    """Read what changed, find the notes to lint again and lint them."""
    delta = read_delta(inputs)
    dirty = dirty_paths(inputs, delta)
    if isinstance(dirty, Full):
        return dirty
    old = {**delta.old, **inputs.store.rows(p for p in dirty if p not in delta.old)}
    changed = delta.reread.changed
    notes = unchanged_notes(inputs, (p for p in dirty if p not in changed), old)
    if isinstance(notes, Full):
        return notes
    notes.update({p: n for p, n in changed.items() if n is not None})
    vault = _partial_vault(inputs, delta, notes)
    local = _local_findings(inputs, vault, dirty, delta.reread.errors)
    grouped = by_source(vault.links)
    limit = inputs.config.index.description_max if inputs.meta.indexed else None
    rows: dict[str, NoteRow | None] = dict.fromkeys(delta.removed)
    for path in sorted(dirty):
        note = notes.get(path)
        data = note_data(path, note, grouped.get(path, ()), local.get(path, ()), limit)
        digest = delta.reread.digests.get(path) or (old[path].digest if path in old else b"")
        rows[path] = NoteRow(digest if note is not None else b"", data)
    return Relinted(delta, old, rows)
