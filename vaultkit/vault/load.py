"""Walk an Obsidian vault folder, read its notes and resolve every link into a ``Vault`` value."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from vaultkit.vault.cache import load_parts
from vaultkit.vault.model import NOTE_SUFFIX, Finding
from vaultkit.vault.value import Vault

Progress = Callable[[int, int], None]

__all__ = ["Progress", "Vault", "is_note_path", "list_vault_files", "load_vault"]


def is_note_path(path: str) -> bool:
    """True for Markdown notes (``.md``, any letter case); every other file is an attachment."""
    return path.lower().endswith(NOTE_SUFFIX)


def _inside(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _walk(folder: str, prefix: str, real_root: str) -> Iterator[str]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if _inside(real, real_root) and os.path.isfile(real):
                    yield prefix + entry.name
            elif entry.is_dir():
                yield from _walk(entry.path, prefix + entry.name + "/", real_root)
            elif entry.is_file():
                yield prefix + entry.name
        except OSError:
            continue


def list_vault_files(root: Path) -> list[str]:
    """Every file of the vault as a sorted vault-relative POSIX path.

    Dot-files and dot-folders (``.obsidian/``, ``.trash/``, ``.vaultkit/``) are skipped. A
    symbolic link to a file inside the vault is listed under its own name; links to anything
    outside the vault and links to folders (duplicates or escapes, possibly loops) are skipped.
    """
    return sorted(_walk(str(root), "", os.path.realpath(root)))


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
