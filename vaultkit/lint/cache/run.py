"""Cached ``vaultkit lint``: an unchanged vault costs one stat walk, an edit re-lints only what
it can affect. The findings are always those of the full computation (``collect``).

This module composes the parts: :mod:`~vaultkit.lint.cache.walk` (the stat walk and its
fingerprint), :mod:`~vaultkit.lint.cache.state` (the stored state), :mod:`~vaultkit.lint.cache.plan`
(what changed and re-linting it) and :mod:`~vaultkit.lint.cache.merge` (the merged findings,
each global rule's strategy living beside the rule).

Nothing changed (same fingerprint): the stored findings are returned (``how="stored"``). A note
whose mtime was within ``RACY_NS`` of the run that stored them is re-hashed first (it may have
changed again within the same timestamp), and a note that could not be read is always read
again. Something changed: the incremental plan (``how="incremental"``). No usable stored state,
other settings, more than ``FULL_FRACTION`` of the notes dirty, or an INDEX.md that appeared: the
full path (``how="full"``, ``why`` says which), which stores a fresh state.

Only a damaged or foreign database is caught: SQLite's ``DatabaseError`` and stored bytes that
do not decode (:class:`~vaultkit.lint.cache.state.StoredDamage`) are logged in one line and
rebuilt by the full path; a busy database is left alone (the result is still computed). Any
other exception is a bug and propagates. Two runs at once each read one snapshot; a run writes
only when the generation it read is still current. ``cache=False`` (and vaults under
``thresholds.TABLE.cache_min_notes`` notes without a database) never touch it.
"""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from vaultkit.base.config import Config
from vaultkit.base.store import state_dir_for_vault
from vaultkit.lint.cache.merge import entries_blob, merge
from vaultkit.lint.cache.plan import Inputs, relint
from vaultkit.lint.cache.scan import scanned
from vaultkit.lint.cache.state import (
    LINT_CACHE_NAME,
    FolderRow,
    Full,
    LintStore,
    NoteRow,
    StoredDamage,
    Update,
    alias_rows,
    meta_values,
)
from vaultkit.lint.cache.walk import Walked, same_file_stat, walk_vault
from vaultkit.lint.compact import GLOBAL_CODES, FindingRow, TargetKeys, finding_row, note_data
from vaultkit.lint.context import LintContext, LintTarget
from vaultkit.lint.runner import collect, finish, lint_target, read_index_text
from vaultkit.vault import cache as notecache
from vaultkit.vault.index import INDEX_NAME
from vaultkit.vault.load import load_vault
from vaultkit.vault.model import Finding
from vaultkit.vault.records import read_one
from vaultkit.vault.resolve import by_source

Progress = Callable[[int, int], None]
Notice = Callable[[str], None]
BIG_NOTE_BYTES = 5_000_000  # a note this large takes a visible while: say so before reading it


@dataclass(frozen=True, slots=True)
class LintResult:
    """Every finding (all codes, sorted), the number of readable notes and the settings;
    ``how`` the run took and, for a full run, ``why`` the stored state could not serve.
    ``found`` holds each finding as it came: a :class:`Finding`, or the lint cache's row when a
    run asked for ``rows`` (:func:`all_findings`) was served from the store; ``findings`` gives
    them all as :class:`Finding` values."""

    found: Sequence[Finding | FindingRow]
    notes: int
    config: Config
    how: Literal["full", "stored", "incremental"] = "full"  # stored: nothing changed
    why: str = ""

    @property
    def findings(self) -> list[Finding]:
        """Every finding as a :class:`Finding` (a row is built on each call: read it once)."""
        return [as_finding(f) for f in self.found]


def as_finding(found: Finding | FindingRow) -> Finding:
    """A finding of :attr:`LintResult.found` as a :class:`Finding` (a cache row is built)."""
    return found if isinstance(found, Finding) else Finding(*found)


class _Served(NamedTuple):
    """A result from the stored state, with the generation it was read at and what to store."""

    result: LintResult
    generation: int
    update: Update


def lint_cache_path(root: Path, state_dir: Path | None = None) -> Path:
    """Where the lint cache of the vault at ``root`` lives (in ``state_dir`` when known)."""
    return (state_dir if state_dir is not None else state_dir_for_vault(root)) / LINT_CACHE_NAME


def big_notes(walked: Walked) -> list[str]:
    """``parsing big note X (50 MB)`` for each note of at least ``BIG_NOTE_BYTES``: the
    progress bar counts notes, so one huge note needs a sign of life of its own."""
    return [
        f"parsing big note {path} ({stat[0] / 1e6:.0f} MB)"
        for path, stat in walked.stats.items()
        if stat is not None and stat[0] >= BIG_NOTE_BYTES
    ]


def _announce(notice: Notice | None, walked: Walked) -> None:
    if notice is not None:
        for line in big_notes(walked):
            notice(line)


def lint_vault(
    where: Path | LintTarget,
    *,
    progress: Progress | None = None,
    cache: bool | None = None,
    notice: Notice | None = None,
) -> LintResult:
    """Every lint finding of the vault (all codes, sorted), through the lint cache when it is
    wanted (``cache``: as for :func:`vaultkit.vault.load.load_vault`). ``where``: the vault
    folder, or a :class:`LintTarget` whose settings and state folder are already looked up.

    The cache holds every finding; what the vault's settings and suppressions leave of them
    (:func:`~vaultkit.lint.runner.finish`) is worked out afresh on every run. ``notice`` is
    told about big notes before a run that reads every note (see :func:`big_notes`)."""
    target = where if isinstance(where, LintTarget) else lint_target(where)
    walked = walk_vault(target.root)
    result = all_findings(target, walked, progress, cache, notice)
    notes = [path for path, stat in walked.stats.items() if stat is not None]
    stored = lint_cache_path(target.root, target.state_dir).is_file() and cache is not False
    known = scanned(target.root, target.state_dir, walked) if stored else None
    findings = finish(target, notes, result.findings, known)
    return LintResult(findings, result.notes, result.config, result.how, result.why)


def all_findings(
    target: LintTarget,
    walked: Walked,
    progress: Progress | None,
    cache: bool | None,
    notice: Notice | None,
    *,
    rows: bool = False,
) -> LintResult:
    """Every finding of the vault as ``walked``, not yet finished (:func:`finish`), through the
    lint cache when it is wanted (a run that changed it stores its state). ``rows``: what the
    store serves stays as its rows (in :attr:`LintResult.found`), for a caller that reports only
    some of them (a :class:`Finding` each costs about a microsecond and a half)."""
    path = lint_cache_path(target.root, target.state_dir)
    store = LintStore.open(path) if notecache.wanted(path, walked.notes, cache) else None
    if store is None:
        _announce(notice, walked)
        vault = load_vault(target.root, progress=progress, cache=cache, state_dir=target.state_dir)
        ctx = LintContext(vault, target.config, read_index_text(target.root))
        return LintResult(collect(ctx), len(vault.notes), target.config, why="no cache")
    try:
        return _cached(target, progress, store, walked, notice, rows)
    finally:
        store.close()


def _cached(
    target: LintTarget,
    progress: Progress | None,
    store: LintStore,
    walked: Walked,
    notice: Notice | None,
    rows: bool,
) -> LintResult:
    try:
        with store.snapshot():
            served = _from_store(target, store, walked, rows)
    except (sqlite3.DatabaseError, StoredDamage) as exc:  # a damaged or foreign file: rebuild
        store.log(f"is unusable ({type(exc).__name__}: {exc}); rebuilt")
        served = Full(f"damaged: {exc}")
    if isinstance(served, Full):
        _announce(notice, walked)
        return _full(target, progress, store, walked, served.reason)
    if not served.update.empty:
        store.write(served.generation, served.update)
    return served.result


def _from_store(target: LintTarget, store: LintStore, walked: Walked, rows: bool) -> _Served | Full:
    """The stored findings, or the incremental run's; :class:`Full` when neither can be had."""
    meta = store.read_meta(target.config)
    if isinstance(meta, Full):
        return meta
    note_cache = notecache.cache_path(target.root, target.state_dir)
    inputs = Inputs(target.root, target.config, note_cache, store, meta, walked)
    stored = _reuse(inputs, rows)
    if stored is not None:
        return stored
    relinted = relint(inputs)
    if isinstance(relinted, Full):
        return relinted
    merged = merge(inputs, relinted)
    if isinstance(merged, Full):
        return merged
    result = _result(merged.rows, merged.notes, target.config, "incremental", rows)
    return _Served(result, meta.generation, merged.update)


def _result(
    found: list[FindingRow],
    notes: int,
    config: Config,
    how: Literal["stored", "incremental"],
    rows: bool,
) -> LintResult:
    return LintResult(found if rows else [Finding(*r) for r in found], notes, config, how)


def _reuse(inputs: Inputs, rows: bool) -> _Served | None:
    """The stored findings when nothing changed (racy notes verified by their hash)."""
    meta, walked, store = inputs.meta, inputs.walked, inputs.store
    if meta.retry or walked.fingerprint != meta.fingerprint:
        return None
    if meta.racy:
        stored = store.rows(meta.racy)
        base = str(inputs.root)
        for path in meta.racy:
            row = stored.get(path)
            parsed = read_one(base, (path, None if row is None else row.digest))
            if parsed.error is not None or parsed.record is not None:
                return None
    racy = walked.racy()
    # verified: stop re-hashing notes that are old enough now
    update = Update(meta={"racy": marshal.dumps(racy)}) if racy != meta.racy else Update()
    result = _result(store.finding_rows(), meta.notes, inputs.config, "stored", rows)
    return _Served(result, meta.generation, update)


def _full(
    target: LintTarget, progress: Progress | None, store: LintStore, walked: Walked, why: str
) -> LintResult:
    root, config = target.root, target.config
    vault = load_vault(root, progress=progress, cache=True, state_dir=target.state_dir)
    ctx = LintContext(vault, config, read_index_text(root))
    findings = collect(ctx)
    update = full_state(target, ctx, findings, walked)
    if update is not None:
        store.write(store.generation(), update)
    return LintResult(findings, len(vault.notes), config, why=why)


def _note_rows(
    target: LintTarget, ctx: LintContext, findings: Sequence[Finding], walked: Walked
) -> tuple[dict[str, NoteRow], list[str]]:
    """Every note's row from a full load, and the notes whose digest is not known (read them
    again next run)."""
    vault, indexed = ctx.vault, ctx.vault.note(INDEX_NAME) is not None
    tracked = target.config.index.description_max if indexed else None  # no INDEX.md: no entries
    links = by_source(vault.links)
    local: dict[str, list[Finding]] = {}
    for f in findings:
        if f.code not in GLOBAL_CODES:
            local.setdefault(f.path, []).append(f)
    cached = notecache.stored_rows(notecache.cache_path(target.root, target.state_dir))
    memo: dict[str, TargetKeys] = {}
    rows: dict[str, NoteRow] = {}
    retry: list[str] = []
    for path, stat in walked.stats.items():
        if stat is None:
            continue
        note, row = vault.note(path), cached.get(path)
        data = note_data(path, note, links.get(path, ()), local.get(path, ()), tracked, memo)
        if note is None or row is None or not same_file_stat(stat, row.file_stat()):
            retry.append(path)  # content not known by hash: read it again next time
            rows[path] = NoteRow(b"", data)
        else:
            rows[path] = NoteRow(row.digest, data)
    return rows, retry


def _incoming(rows: Mapping[str, NoteRow]) -> dict[str, int]:
    incoming: dict[str, int] = {}
    for row in rows.values():
        for target in row.data.out:
            incoming[target] = incoming.get(target, 0) + 1
    return incoming


def full_state(
    target: LintTarget, ctx: LintContext, findings: Sequence[Finding], walked: Walked
) -> Update | None:
    """Everything a later run needs, from a full load; None when the vault changed between
    the walk and the load (nothing is stored then)."""
    vault = ctx.vault
    readable = {note.path for note in vault.notes}
    failed = {f.path for f in vault.findings if f.code == "VK202" and f.path not in readable}
    if readable | failed | set(vault.attachments) != set(walked.files):
        return None
    rows, retry = _note_rows(target, ctx, findings, walked)
    indexed = vault.note(INDEX_NAME) is not None
    meta = meta_values(
        target.config, walked, retry, [finding_row(f) for f in findings], len(vault.notes)
    )
    meta["incoming"] = marshal.dumps(_incoming(rows))
    meta["indexed"] = int(indexed)
    if indexed:
        entries = {p: row.data.entry for p, row in rows.items() if row.data.entry}
        meta["entries"] = entries_blob(entries)
    return Update(
        meta=meta,
        rows=rows,
        folders={
            f: FolderRow(walked.digests[f], marshal.dumps(group))
            for f, group in walked.groups.items()
        },
        names_added=walked.files,
        aliases_added=[r for p, row in rows.items() for r in alias_rows(p, row.data.aliases)],
        replace=True,
    )
