"""Ghosts, orphans, isolated notes, dead ends, backlinks and tags of a vault (pure, linear time)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from vaultkit.vault.resolve import distinct_ends

if TYPE_CHECKING:
    from vaultkit.vault.resolve import ResolvedLink
    from vaultkit.vault.value import Vault

INDEX_NAME = "INDEX.md"


def is_root_index(path: str) -> bool:
    """True for the vault-root ``INDEX.md``, which links every note and so proves nothing."""
    return path == INDEX_NAME


def _linked_from_others(vault: Vault) -> set[str]:
    """Files with an incoming link from another note that is not the root ``INDEX.md``."""
    linked: set[str] = set()
    for source, resolution in distinct_ends(vault.links):
        target = resolution.path
        if target is not None and target != source and not is_root_index(source):
            linked.add(target)
    return linked


def _linking_out(vault: Vault) -> set[str]:
    """Notes with at least one resolved link to another file."""
    return {
        source
        for source, resolution in distinct_ends(vault.links)
        if resolution.path is not None and resolution.path != source
    }


def _ordinary_notes(vault: Vault) -> list[str]:
    return [note.path for note in vault.notes if not is_root_index(note.path)]


def ghosts(vault: Vault) -> tuple[ResolvedLink, ...]:
    """Every link whose target resolves to nothing, in note and line order."""
    return tuple(item for item in vault.links if item.resolution.path is None)


def orphans(vault: Vault) -> tuple[str, ...]:
    """Notes with no incoming link from another note.

    Self-links and links from the root ``INDEX.md`` do not count; ``INDEX.md`` is never one.
    """
    linked = _linked_from_others(vault)
    return tuple(path for path in _ordinary_notes(vault) if path not in linked)


def isolated(vault: Vault) -> tuple[str, ...]:
    """Orphans that also have no resolved link out to another file."""
    linked = _linked_from_others(vault)
    out = _linking_out(vault)
    return tuple(p for p in _ordinary_notes(vault) if p not in linked and p not in out)


def dead_ends(vault: Vault) -> tuple[str, ...]:
    """Notes with no resolved link to another file (ghosts and self-links do not count)."""
    out = _linking_out(vault)
    return tuple(path for path in _ordinary_notes(vault) if path not in out)


def backlinks(vault: Vault, path: str) -> tuple[ResolvedLink, ...]:
    """Links from other notes (``INDEX.md`` included) that resolve to ``path``."""
    return tuple(
        item for item in vault.links if item.resolution.path == path and item.source != path
    )


def outgoing(vault: Vault, path: str) -> tuple[ResolvedLink, ...]:
    """Every link written in the note at ``path``, resolved or not, in line order."""
    return tuple(item for item in vault.links if item.source == path)


def degraded(vault: Vault) -> tuple[str, ...]:
    """Notes whose frontmatter says ``quality: degraded``."""
    return tuple(note.path for note in vault.notes if note.degraded)


def ambiguous(vault: Vault) -> tuple[ResolvedLink, ...]:
    """Links that matched several files (they point at the winner)."""
    return tuple(item for item in vault.links if item.resolution.ambiguous)


def tags(vault: Vault) -> dict[str, int]:
    """How many notes carry each tag, sorted by tag."""
    counts = Counter(tag for note in vault.notes for tag in set(note.tags))
    return dict(sorted(counts.items()))
