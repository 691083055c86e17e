"""What a search covers: a store's wiki, summaries (archived too) and readable transcripts, or
any vault's notes, and where the derived index of each lives."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from vaultkit.base.record import Record
from vaultkit.base.store import STORE_DIR, Store, read_problem, state_dir_for_vault

INDEX_NAME = "search.sqlite"
KINDS = ("wiki", "summary", "transcript", "note")


class Source(Record):
    """One folder of documents: every ``.md`` below it (dot-folders skipped) is of ``kind``;
    shown paths are ``prefix`` + the path below ``folder``."""

    folder: Path
    kind: str
    prefix: str
    skip: frozenset[str] = frozenset()  # paths below ``folder`` that are not documents
    store: Store | None = None  # a store's folder: only what ``read_problem`` allows is read

    def refuses(self, path: str | os.PathLike[str]) -> bool:
        """True when ``path`` (in this source) may not be read: a store's link out of it."""
        return self.store is not None and bool(read_problem(self.store, path))


class Corpus(Record):
    """The documents one search runs over and the folder holding its index.

    ``root`` is what shown paths are relative to: the store's ``sessions/`` folder, or the vault.
    """

    root: Path
    sources: tuple[Source, ...]
    state_dir: Path

    @property
    def index_path(self) -> Path:
        return self.state_dir / INDEX_NAME


def store_corpus(store: Store) -> Corpus:
    """A store: ``wiki/`` (without its INDEX.md), ``summary/`` with ``_archive/``, and
    ``transcripts/``."""
    sources = (
        Source(store.wiki, "wiki", "wiki/", frozenset({"INDEX.md"}), store),
        Source(store.summary, "summary", "summary/", store=store),
        Source(store.transcripts, "transcript", "transcripts/", store=store),
    )
    return Corpus(store.root, sources, store.state)


def vault_corpus(vault: Path) -> Corpus:
    """Any vault: every note is of kind ``note``."""
    return Corpus(vault, (Source(vault, "note", ""),), state_dir_for_vault(vault))


def corpus_for(folder: Path) -> Corpus:
    """A store when ``folder`` is a store's ``sessions/`` folder or its ``wiki/``, else a vault."""
    folder = folder.resolve()
    if folder.name == STORE_DIR and (folder / "wiki").is_dir():
        return store_corpus(Store(folder))
    if folder.name == "wiki" and folder.parent.name == STORE_DIR:
        return store_corpus(Store(folder.parent))
    return vault_corpus(folder)


def walk(source: Source) -> Iterator[tuple[str, os.stat_result]]:
    """``(path below the source folder, stat)`` of every document, dot-folders skipped.

    Symlinked folders are followed once each (a loop is walked no further); in a store, a link
    out of it or into its private parts is not (:meth:`Source.refuses`)."""
    if source.refuses(source.folder):
        return
    stack = [("", str(source.folder))]
    seen: set[tuple[int, int]] = set()
    while stack:
        prefix, folder = stack.pop()
        try:
            info = os.stat(folder)
            entries = list(os.scandir(folder))
        except OSError:
            continue
        if (info.st_dev, info.st_ino) in seen:
            continue
        seen.add((info.st_dev, info.st_ino))
        for entry in entries:
            if entry.name.startswith("."):
                continue
            rel = prefix + entry.name
            if entry.is_symlink() and source.refuses(entry.path):
                continue
            if entry.is_dir():
                stack.append((rel + "/", entry.path))
            elif entry.name.lower().endswith(".md") and rel not in source.skip:
                try:
                    yield rel, entry.stat()
                except OSError:
                    continue
