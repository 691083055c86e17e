"""The store-wide step after a job's notes are written: INDEX.md, summary retention and the
search index, under the store lock; a failure is logged, never raised."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from filelock import FileLock

from vaultkit.base.config import Config
from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.search.corpus import store_corpus
from vaultkit.search.index import update_index
from vaultkit.session.notes.retention import apply_retention
from vaultkit.session.worker.outcome import Progress
from vaultkit.vault.indexer import regenerate_index

# The indexer and retention (markdown-it, networkx) are imported where they are used.

STORE_LOCK_TIMEOUT = 300.0


def finish_store(
    store: Store, config: Config, say: Progress, written: tuple[Path, ...] = ()
) -> None:
    """Under the store lock: regenerate INDEX.md and apply summary retention, then log counts.

    A failure here is logged, not raised: the notes are written, and the next worker (or
    ``vaultkit index``) redoes this step, so the session is not distilled — and paid for — twice.
    """

    store.locks.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(store.locks / "store.lock"), timeout=STORE_LOCK_TIMEOUT):
            index = regenerate_index(store.wiki)
            archived = apply_retention(store, config.retention.keep_summaries)
    except Exception as exc:
        say(f"INDEX.md/retention not updated ({exc!r}); the next worker or `vaultkit index` will")
        return
    say(
        f"INDEX.md {'updated' if index.changed else 'unchanged'}; "
        f"{len(index.pruned)} ghost line(s) pruned, {len(index.orphans)} orphan(s), "
        f"{len(archived)} summary(ies) archived"
    )
    moved = [store.summary / p.name for p in archived]  # where retention took them from
    update_search(store, say, (*written, *moved, *archived))


def update_search(store: Store, say: Progress, changed: tuple[Path, ...] = ()) -> None:
    """Re-index the files the worker changed for ``vaultkit search`` (all files when none are
    named). Derived state: a failure is logged and the next search refreshes the index."""

    only = [p.relative_to(store.root).as_posix() for p in changed] if changed else None
    try:
        result = update_index(store_corpus(store), only)
    except (VaultkitError, sqlite3.Error, OSError) as exc:
        say(f"search index not updated ({exc}); the next search refreshes it")
        return
    say(f"search index: {result.updated} document(s) re-indexed, {result.total} in all")
