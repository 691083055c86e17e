"""The store-wide step after a job's notes are written: INDEX.md, summary retention and the
search index, under the store lock; a failure is logged, never raised."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from filelock import FileLock

from vaultkit.base import pulled
from vaultkit.base.config import Config, store_config
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
    store: Store,
    config: Config,
    say: Progress,
    written: tuple[Path, ...] = (),
    lock_timeout: float = STORE_LOCK_TIMEOUT,
) -> bool:
    """Under the store lock: regenerate INDEX.md and apply summary retention, then log counts.

    A failure here is logged, not raised: the notes are written, and the next worker (or
    ``vaultkit index``) redoes this step, so the session is not distilled — and paid for — twice.
    False when INDEX.md and retention could not be done (the store lock not had within
    ``lock_timeout`` seconds, say).
    """

    store.locks.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(store.locks / "store.lock"), timeout=lock_timeout):
            index = regenerate_index(store.wiki)
            archived = apply_retention(store, config.retention.keep_summaries)
            pulled.record(store)  # what git changes next is seen against this
    except Exception as exc:
        say(f"INDEX.md/retention not updated ({exc!r}); the next worker or `vaultkit index` will")
        return False
    say(
        f"INDEX.md {'updated' if index.changed else 'unchanged'}; "
        f"{len(index.pruned)} ghost line(s) pruned, {len(index.orphans)} orphan(s), "
        f"{len(archived)} summary(ies) archived"
    )
    moved = [store.summary / p.name for p in archived]  # where retention took them from
    update_search(store, say, (*written, *moved, *archived))
    return True


def refresh_if_pulled(
    store: Store, say: Progress, lock_timeout: float = STORE_LOCK_TIMEOUT
) -> bool:
    """After a pull (or any change git made to the shared notes): INDEX.md regenerated from
    the notes (a union merge left both sides' lines, maybe out of order), retention and the
    search index, as after a job. True when that was done; False when there was nothing to do
    or the store lock was not had within ``lock_timeout`` seconds (a worker is finishing)."""
    if not pulled.changed(store):
        return False
    try:
        config = store_config(store)
    except VaultkitError:
        config = Config()  # the defaults until vaultkit.toml is fixed; doctor names the problem
    say("the shared notes changed outside vaultkit (a pull?): INDEX.md and search updated")
    try:
        return finish_store(store, config, say, lock_timeout=lock_timeout)
    except OSError as exc:  # the state folder cannot be written: derived, never fatal
        say(f"refresh after a pull not done: {exc}")
        return False


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
