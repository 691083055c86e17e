"""The shared stamp: a pull that changes INDEX.md or the notes' folders is told from vaultkit's own
writes, by ctime and inode too (git may leave a pulled file's mtime older than the stamp)."""

from __future__ import annotations

import os
from pathlib import Path

from vaultkit.base import pulled
from vaultkit.base.store import Store


def _store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "sessions")
    store.wiki.mkdir(parents=True)
    store.summary.mkdir(parents=True)
    store.index.write_text("# Index\n", encoding="utf-8")
    return store


def test_a_store_never_stamped_is_taken_as_it_is(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert pulled.changed(store) is False
    pulled.record(store)
    assert pulled.changed(store) is False


def test_a_note_arriving_or_index_replaced_with_an_old_mtime_is_a_change(tmp_path: Path) -> None:
    store = _store(tmp_path)
    pulled.record(store)
    (store.wiki / "teammate.md").write_text("# Theirs\n", encoding="utf-8")
    assert pulled.changed(store) is True
    pulled.record(store)
    before = store.index.stat()
    incoming = store.wiki / ".INDEX.md.tmp"
    incoming.write_text("# Index\n", encoding="utf-8")  # same size, same mtime, a new file
    os.utime(incoming, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(incoming, store.index)
    os.utime(store.wiki, ns=(before.st_atime_ns, store.wiki.stat().st_mtime_ns))
    assert pulled.changed(store) is True


def test_an_unreadable_stamp_never_fails_the_caller(tmp_path: Path) -> None:
    store = _store(tmp_path)
    (store.state / pulled.STAMP_NAME).mkdir(parents=True)  # a folder where the file should be
    assert pulled.changed(store) is False
