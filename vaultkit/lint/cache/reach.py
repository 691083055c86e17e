"""Which links a change to some paths can break: the links in other notes that name those paths.

``vaultkit lint a.md`` reports a.md's findings and the findings on links elsewhere that name
a.md, and a path that no longer exists (a deletion, a rename's old name) brings in the links
that named it: those are the links the change can turn into ghosts, send to another file of the
same name, or leave pointing at a heading that moved. Other findings of those notes stay out:
a commit is held up by what it can break, not by old findings nearby. A link names a path when
its target's last segment is the path's file name (letter case and ``.md`` aside), or it was
resolved by one of the path's aliases. The lint cache's dependency keys
(:mod:`vaultkit.lint.compact`) find the notes holding such links when the vault has a cache;
only those notes are read again. Without a cache the vault is loaded.
"""

from __future__ import annotations

from collections.abc import Iterable

from vaultkit.lint.cache.run import lint_cache_path
from vaultkit.lint.cache.state import LintStore
from vaultkit.lint.compact import dependency_keys, name_key
from vaultkit.lint.context import LintTarget
from vaultkit.vault.load import load_vault
from vaultkit.vault.model import Link
from vaultkit.vault.parse import parse_note
from vaultkit.vault.resolve import match_key

Position = tuple[str, int, int]  # (note path, line, col) of a link


def path_keys(paths: Iterable[str]) -> set[str]:
    """The dependency keys a link to any of the vault ``paths`` carries."""
    keys: set[str] = set()
    for path in paths:
        name = name_key(path)
        keys.add("n:" + name)
        if name.endswith(".md"):
            keys.add("n:" + name[:-3])
    return keys


def names_one(link: Link, keys: set[str]) -> bool:
    """Whether the raw ``link``'s target ends in a name among ``keys``."""
    target = link.target.strip()
    return bool(target) and "n:" + match_key(target).rpartition("/")[2] in keys


def _from_cache(target: LintTarget, keys: set[str]) -> set[Position] | None:

    path = lint_cache_path(target.root, target.state_dir)
    store = LintStore.open(path) if path.is_file() else None
    if store is None:
        return None
    try:
        candidates = store.paths_with(keys)
    finally:
        store.close()
    found: set[Position] = set()
    for source in candidates:
        try:
            data = (target.root / source).read_bytes()
        except OSError:
            continue
        for link in parse_note(source, data).links:
            if names_one(link, keys):
                found.add((source, link.line, link.col))
    return found


def _from_vault(target: LintTarget, keys: set[str]) -> set[Position]:

    vault = load_vault(target.root, state_dir=target.state_dir)
    found: set[Position] = set()
    for item in vault.links:
        if keys.intersection(dependency_keys((item,))):
            found.add((item.source, item.link.line, item.link.col))
    return found


def reached_links(target: LintTarget, paths: Iterable[str], *, cache: bool = True) -> set[Position]:
    """Where in ``target``'s vault a link names any of ``paths`` (vault paths, existing or not).
    ``cache``: use the lint cache when there is one (current right after a cached lint run)."""
    keys = path_keys(paths)
    if not keys:
        return set()
    found = _from_cache(target, keys) if cache else None
    return found if found is not None else _from_vault(target, keys)
