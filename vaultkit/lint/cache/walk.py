"""The lint cache's stat walk: every vault file, each note's stat, per-folder digests, racy notes.

An unchanged vault costs this walk and nothing else: its fingerprint (one digest over the
per-folder digests) equals the stored one. A stat stays a plain tuple (size, mtime_ns,
ctime_ns, inode): the walk makes one per note on every run and marshal, which hashes and stores
them by folder, takes no named tuples; :func:`mtime_ns` and :func:`same_file_stat` name the
fields where they are read.
"""

from __future__ import annotations

import marshal
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.digest import blake2b
from vaultkit.vault.cache import RACY_NS  # a note changed this close to a run may change unseen
from vaultkit.vault.load import list_vault_files
from vaultkit.vault.model import NOTE_SUFFIX

Stat = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode (notes only)
Stats = dict[str, Stat | None]  # every vault file; None for attachments
UNREADABLE: Stat = (-1, -1, -1, -1)  # a note that could not be stat'ed


def mtime_ns(stat: Stat) -> int:
    return stat[1]


def same_file_stat(stat: Stat, recorded: Stat) -> bool:
    """``stat`` is the one the note cache recorded of the file (size, mtime, ctime, inode)."""
    return stat == recorded


@dataclass(frozen=True, slots=True)
class Walked:
    """One walk of the vault: files, note stats, stats by folder, their digests and when the
    walk started (what racy notes are measured against)."""

    files: list[str]
    stats: Stats
    groups: dict[str, Stats]
    digests: dict[str, bytes]
    fingerprint: bytes
    started_ns: int

    @property
    def notes(self) -> int:
        return sum(1 for s in self.stats.values() if s is not None)

    def racy(self, skip: Iterable[str] = ()) -> tuple[str, ...]:
        """Notes changed within ``RACY_NS`` of the walk (``skip`` left out)."""
        skipped = set(skip)
        started = self.started_ns
        return tuple(
            p
            for p, s in self.stats.items()
            if s is not None and started - mtime_ns(s) < RACY_NS and p not in skipped
        )


def walk_vault(root: Path) -> Walked:
    """Walk the vault at ``root`` once."""
    started_ns = time.time_ns()
    files, stats = walk(root)
    groups = by_folder(stats)
    digests = folder_digests(groups)
    return Walked(files, stats, groups, digests, fingerprint(digests), started_ns)


def walk(root: Path) -> tuple[list[str], Stats]:
    """Every vault file (as ``list_vault_files`` lists them) and each note's stat."""
    files = list_vault_files(root)
    base = str(root) + os.sep
    stats: Stats = {}
    suffix = NOTE_SUFFIX
    for path in files:
        if not path.lower().endswith(suffix):  # is_note_path, inlined: 100k calls
            stats[path] = None
            continue
        try:
            info = os.stat(base + path)
        except OSError:
            stats[path] = UNREADABLE
            continue
        stats[path] = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    return files, stats


def by_folder(stats: Stats) -> dict[str, Stats]:
    """The walk's stats grouped by folder (vault-relative, ``""`` for the root)."""
    groups: dict[str, Stats] = {}
    for path, stat in stats.items():
        groups.setdefault(path.rpartition("/")[0], {})[path] = stat
    return groups


def _digest(data: bytes) -> bytes:
    return blake2b(data, digest_size=16).digest()


def folder_digests(groups: Mapping[str, Stats]) -> dict[str, bytes]:
    return {folder: _digest(marshal.dumps(stats)) for folder, stats in groups.items()}


def fingerprint(digests: Mapping[str, bytes]) -> bytes:
    """One digest of every file's path and every note's stat."""
    return _digest(marshal.dumps(sorted(digests.items())))
