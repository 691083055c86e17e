"""Walk an Obsidian vault folder, read its notes and resolve every link into a ``Vault`` value."""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from vaultkit.base.store import read_problem, store_of_wiki
from vaultkit.vault.cache import load_parts
from vaultkit.vault.model import NOTE_SUFFIX, Finding
from vaultkit.vault.value import Vault

Progress = Callable[[int, int], None]

__all__ = ["Progress", "Vault", "is_note_path", "list_vault_files", "load_vault", "through_link"]


def is_note_path(path: str) -> bool:
    """True for Markdown notes (``.md``, any letter case); every other file is an attachment."""
    return path.lower().endswith(NOTE_SUFFIX)


@dataclass(slots=True)
class _Walk:
    """One listing: real folders already walked (by ``(st_dev, st_ino)``), the files found and
    the folder links still to follow, in the order they were met."""

    walked: set[tuple[int, int]] = field(default_factory=set)
    files: list[str] = field(default_factory=list)
    links: deque[tuple[str, str]] = field(default_factory=deque)
    keep: Callable[[str], bool] | None = None  # which links may be followed (None: all)

    def folder(self, folder: str, prefix: str) -> None:
        """List ``folder`` (vault path ``prefix``) and, below it, every real subfolder; folder
        links are queued, so the real route into a folder is taken before any link to it."""
        try:
            info = os.stat(folder)
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        if (info.st_dev, info.st_ino) in self.walked:
            return  # a loop, or a second route into a folder already listed
        self.walked.add((info.st_dev, info.st_ino))
        for entry in entries:
            if not entry.name.startswith("."):
                self.entry(entry, prefix + entry.name)

    def entry(self, entry: os.DirEntry[str], path: str) -> None:
        try:
            if entry.is_symlink():
                if self.keep is not None and not self.keep(entry.path):
                    return
                if os.path.isdir(entry.path):
                    self.links.append((entry.path, path + "/"))
                elif os.path.isfile(entry.path):
                    self.files.append(path)  # a file link is a file of its own name
            elif entry.is_dir():
                self.folder(entry.path, path + "/")
            elif entry.is_file():
                self.files.append(path)
        except OSError:
            return


def list_vault_files(root: Path) -> list[str]:
    """Every file of the vault as a sorted vault-relative POSIX path.

    Dot-files and dot-folders (``.obsidian/``, ``.trash/``, ``.vaultkit/``) are skipped.
    Symbolic links are followed as Obsidian follows them, wherever they point: a link to a
    file is a file under the link's own name; a link to a folder lists that folder under the
    link's name, unless the real folder is already listed (a loop, or a second route into
    it: each real folder, and so each file in it, is read once, and the real route wins over
    a link). Broken links are skipped. Nothing is ever written through a link
    (:func:`through_link`).

    A store's ``wiki/`` is the exception (shared through git, so untrusted): a link whose real
    path is outside the store or in its private parts is not listed, and a ``wiki/`` that is
    itself such a link lists nothing (:func:`vaultkit.base.store.read_problem`).
    """
    store = store_of_wiki(root)
    if store is not None:
        walk = _Walk(keep=lambda path: not read_problem(store, path))
        if read_problem(store, root):
            return []
    else:
        walk = _Walk()
    walk.folder(str(root), "")
    while walk.links:
        target, prefix = walk.links.popleft()
        walk.folder(target, prefix)
    return sorted(walk.files)


def through_link(root: Path, path: str) -> bool:
    """True when the vault path ``path`` (a file or folder under ``root``) is a symbolic link
    or lies in a linked folder: writing there would change a file the link points to."""
    current = root
    for part in PurePosixPath(path).parts:
        current = current / part
        if current.is_symlink():
            return True
    return False


def load_vault(
    root: Path,
    *,
    progress: Progress | None = None,
    cache: bool | None = None,
    state_dir: Path | None = None,
) -> Vault:
    """Read every note under ``root``, parse it and resolve its links.

    A note that cannot be read (permissions, removed while walking) becomes a VK202 finding
    and is left out of ``notes``; it never stops the load. ``progress(done, total)`` is called
    as notes are read (cached notes are reported at once). ``cache``: see
    :func:`vaultkit.vault.cache.load_parts` (None: automatic; False: never read or write the cache);
    ``state_dir``: the vault's state folder when the caller has already found it. Large cold
    loads parse on every core (:mod:`vaultkit.vault.parallel`).
    """
    files = list_vault_files(root)
    note_paths = [p for p in files if is_note_path(p)]
    attachments = tuple(p for p in files if not is_note_path(p))
    parts = load_parts(root, files, note_paths, progress, cache=cache, state_dir=state_dir)
    notes = parts.notes
    findings = sorted(
        [*parts.unreadable, *(f for note in notes for f in note.findings)], key=Finding.sort_key
    )
    return Vault(root, tuple(notes), attachments, parts.index, parts.links, tuple(findings))
