"""The ``Vault`` value: a vault's notes, attachments, file index and resolved links (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vaultkit.vault.model import Finding, Note
from vaultkit.vault.resolve import FileIndex, ResolvedLink


@dataclass(frozen=True, slots=True)
class Vault:
    """Everything known about one vault folder. Paths are vault-relative POSIX strings.

    ``notes`` are sorted by path; ``links`` holds every link of every note, resolved, in note
    then line order (a tuple, or :class:`~vaultkit.vault.resolve.ResolvedLinks` when some note's
    links are packed: the same links, made on access); ``findings`` are the parse findings of
    all notes plus unreadable files.
    """

    root: Path
    notes: tuple[Note, ...]
    attachments: tuple[str, ...]
    index: FileIndex
    links: Sequence[ResolvedLink]
    findings: tuple[Finding, ...]
    _by_path: Mapping[str, Note] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_path", {note.path: note for note in self.notes})

    def note(self, path: str) -> Note | None:
        """The note at ``path`` (exact vault-relative path), or None."""
        return self._by_path.get(path)
