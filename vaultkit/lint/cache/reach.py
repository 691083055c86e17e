"""Which links a change to some paths can break: the links in other notes that name those paths.

``vaultkit lint a.md`` reports a.md's findings and the findings on links elsewhere that name
a.md, and a path that no longer exists (a deletion, a rename's old name) brings in the links
that named it: those are the links the change can turn into ghosts, send to another file of the
same name, or leave pointing at a heading that moved. Other findings of those notes stay out:
a commit is held up by what it can break, not by old findings nearby. A link names a path when
its target's last segment is the path's file name (letter case and ``.md`` aside), or it is a
ghost whose text is an alias of a note of that name (the first such note by path, the owner
its dependency keys name). The lint cache's dependency keys
(:mod:`vaultkit.lint.compact`) find the notes holding such links when the vault has a cache;
only those notes are read again (their links from the note cache when its record is of the
bytes on disk). Without a cache the vault is loaded.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Mapping, Sequence

from vaultkit.lint.cache.run import lint_cache_path
from vaultkit.lint.cache.state import LintStore
from vaultkit.lint.cache.walk import Stat
from vaultkit.lint.compact import dependency_keys, name_key
from vaultkit.lint.context import LintTarget
from vaultkit.lint.links import link_name
from vaultkit.vault import cache as notecache
from vaultkit.vault.load import load_vault
from vaultkit.vault.model import FindingFields, Link, Note
from vaultkit.vault.records import digest_of, note_from_record, parse_note
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


GHOST_CODES = frozenset({"VK101", "VK102", "VK103", "VK107"})  # a link that matches no file


def _first_owners(store: LintStore, links: Iterable[Link]) -> dict[str, str]:
    """Alias key -> the first note (by path) with that alias, for the targets of ``links``:
    the owner a ghost's dependency keys name (``Resolution.alias_of[:1]``)."""
    keys = {match_key(link.target.strip()) for link in links if link.target.strip()}
    owners: dict[str, str] = {}
    for row in store.aliases(keys):
        if row.key not in owners or row.path < owners[row.key]:
            owners[row.key] = row.path
    return owners


def _from_cache(
    target: LintTarget,
    keys: set[str],
    findings: Sequence[FindingFields] | None,
    stats: Mapping[str, Stat | None],
) -> set[Position] | None:
    """The links naming ``keys``, from the notes the lint cache says hold such a link (only
    those with a link finding, when the run's ``findings`` are given: no other is reported)."""
    path = lint_cache_path(target.root, target.state_dir)
    store = LintStore.open(path) if path.is_file() else None
    if store is None:
        return None
    ghosts = {(f.path, f.line, f.col) for f in findings or () if f.code in GHOST_CODES}
    try:
        candidates = store.paths_with(keys)
        if findings is not None:
            candidates &= {f.path for f in findings if f.code < "VK2"}
        parsed = _parsed(target, sorted(candidates), stats)
        owners = _first_owners(store, (link for links in parsed.values() for link in links))
    finally:
        store.close()
    found: set[Position] = set()
    for source, links in parsed.items():
        for link in links:
            at = (source, link.line, link.col)
            owner = owners.get(match_key(link.target.strip())) if at in ghosts else None
            if names_one(link, keys) or (owner is not None and _owner_key(owner) in keys):
                found.add(at)
    return found


def _decoded(row: notecache.Row | None) -> Note | None:
    if row is None or not row.record:
        return None
    try:
        return note_from_record(marshal.loads(row.record))
    except (ValueError, EOFError, TypeError):  # damaged bytes: read the file
        return None


def _parsed(
    target: LintTarget, sources: Sequence[str], stats: Mapping[str, Stat | None]
) -> dict[str, tuple[Link, ...]]:
    """The links of each of ``sources``: from the note cache's record when it is current (the
    note cache's own rule: the stat the walk saw, not racy; else the same digest as the bytes
    on disk now), else parsed."""
    rows = notecache.stored_rows(
        notecache.cache_path(target.root, target.state_dir), sources, records=True
    )
    found: dict[str, tuple[Link, ...]] = {}
    for source in sources:
        row = rows.get(source)
        fresh = row is not None and not row.racy and row.file_stat() == stats.get(source)
        note = _decoded(row) if fresh else None
        if note is None:
            try:
                data = (target.root / source).read_bytes()
            except OSError:
                found[source] = ()
                continue
            if row is not None and row.digest == digest_of(data):
                note = _decoded(row)
            note = note or parse_note(source, data)
        found[source] = tuple(note.links)
    return found


def _owner_key(owner: str) -> str:
    return "n:" + name_key(link_name(owner).strip())


def _from_vault(target: LintTarget, keys: set[str]) -> set[Position]:

    vault = load_vault(target.root, state_dir=target.state_dir)
    found: set[Position] = set()
    for item in vault.links:
        if keys.intersection(dependency_keys((item,))):
            found.add((item.source, item.link.line, item.link.col))
    return found


def reached_links(
    target: LintTarget,
    paths: Iterable[str],
    *,
    cache: bool = True,
    findings: Sequence[FindingFields] | None = None,
    stats: Mapping[str, Stat | None] | None = None,
) -> set[Position]:
    """Where in ``target``'s vault a link names any of ``paths`` (vault paths, existing or not).
    ``cache``: use the lint cache when there is one (current right after a cached lint run).
    ``findings``: the run's findings (every code): only the links with one are wanted, and
    through the cache they are needed (which links are ghosts that an alias can name).
    ``stats``: each note's stat from this run's walk (a current note cache row is then taken
    without reading the file)."""
    keys = path_keys(paths)
    if not keys:
        return set()
    found = _from_cache(target, keys, findings, stats or {}) if cache else None
    return found if found is not None else _from_vault(target, keys)
