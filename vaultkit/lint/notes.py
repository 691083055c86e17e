"""Note rules: orphans (VK301), degraded notes (VK302) and duplicate file names (VK303).

VK301 and VK303 are global (one note's change can change another note's finding); beside each
is its incremental strategy: when its stored findings still hold after a :class:`GlobalChange`
and how to compute them again from the lint cache's compact data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence

from vaultkit.lint.codes import finding
from vaultkit.lint.compact import Again, GlobalChange, NoteData, name_key
from vaultkit.lint.context import LintContext
from vaultkit.lint.links import link_name
from vaultkit.vault.analysis import is_root_index, orphans
from vaultkit.vault.model import Finding
from vaultkit.vault.resolve import build_file_index


def orphan_finding(path: str) -> Finding:
    """The VK301 finding for the note at ``path``."""
    return finding(path, 1, 1, "VK301", "orphan: no other note links here (INDEX.md excluded)")


def orphan_rule(ctx: LintContext) -> Iterator[Finding]:
    """VK301: no other note links here (links from INDEX.md and self-links do not count)."""
    for path in orphans(ctx.vault):
        yield orphan_finding(path)


def _out(data: NoteData | None) -> tuple[str, ...]:
    return () if data is None else data.out


def links_moved(change: GlobalChange) -> bool:
    """A note linted again now links to other files than before (or appeared, or went)."""
    return any(_out(c.before) != _out(c.after) for c in change.notes.values())


def orphans_again(change: GlobalChange) -> Again:
    """VK301 is counted again when links moved, a note appeared or went, or became
    (un)readable; otherwise its stored findings hold."""
    stale = links_moved(change) or change.notes_changed or change.unreadable_changed
    return "rerun" if stale else "reuse"


def recount_incoming(incoming: Mapping[str, int], change: GlobalChange) -> dict[str, int]:
    """The stored per-target count of incoming links, corrected by ``change``."""
    counts = dict(incoming)
    for before, after in change.notes.values():
        for target in _out(before):
            counts[target] -= 1
            if not counts[target]:
                del counts[target]
        for target in _out(after):
            counts[target] = counts.get(target, 0) + 1
    return counts


def orphans_touched(change: GlobalChange) -> set[str]:
    """The notes whose VK301 finding ``change`` can change: every note linted again or gone
    (its readability may have changed) and every path its links named before or name now
    (its incoming count may have changed). Every other note keeps its stored finding."""
    touched = set(change.notes)
    for before, after in change.notes.values():
        touched.update(_out(before), _out(after))
    return touched


def orphan_findings(notes: Iterable[str], incoming: Mapping[str, int]) -> Iterator[Finding]:
    """VK301 for readable notes (``notes``) that no other note's link reaches."""
    for path in notes:
        if not is_root_index(path) and not incoming.get(path):
            yield orphan_finding(path)


def degraded_rule(ctx: LintContext) -> Iterator[Finding]:
    """VK302: frontmatter says ``quality: degraded`` (never inferred from the body)."""
    for note in ctx.vault.notes:
        if note.degraded:
            reason = note.frontmatter.get("degraded_reason")
            why = f" ({reason})" if isinstance(reason, str) and reason.strip() else ""
            message = (
                f"degraded note{why}: its distillation was not clean; review it and remove "
                "`quality: degraded` from its frontmatter"
            )
            yield finding(note.path, 1, 1, "VK302", message)


def duplicate_message(first: str, path: str) -> str:
    """What VK303 says of ``path``, which shares its name with ``first``: two paths that differ
    only in letter case cannot both exist on a case-insensitive file system (macOS, Windows)."""
    name = link_name(path)
    fix = "rename one note (`vaultkit mv` rewrites the links to it)"
    if first.casefold() == path.casefold():
        return (
            f"duplicate name: {first} differs from this path only in letter case, so a clone "
            f"on macOS or Windows holds just one of them and a bare [[{name}]] is ambiguous; "
            f"{fix}"
        )
    return (
        f"duplicate name: {first} is also called {name!r}, so a bare [[{name}]] is "
        f"ambiguous; {fix} or link by path"
    )


def duplicate_findings(groups: Iterable[Sequence[str]]) -> Iterator[Finding]:
    """VK303 for every path but the first of each group of notes sharing a file name."""
    for first, *extra in groups:
        for path in extra:
            yield finding(path, 1, 1, "VK303", duplicate_message(first, path))


def duplicate_name_rule(ctx: LintContext) -> Iterator[Finding]:
    """VK303: once per extra note sharing a file name with another (the first is kept)."""
    yield from duplicate_findings(ctx.vault.index.same_name_notes())


def duplicate_names_again(change: GlobalChange) -> Again:
    """VK303 depends on the file names only: computed again when a file appeared or went."""
    return "rerun" if change.files_changed else "reuse"


def duplicate_names_touched(added: Iterable[str], gone: Iterable[str]) -> set[str]:
    """The name keys whose VK303 groups can change when the files ``added`` and ``gone``
    appeared and went: theirs. A group of any other name has the same members as before."""
    return {name_key(p) for p in (*added, *gone)}


def duplicate_name_findings(files: Sequence[str]) -> Iterator[Finding]:
    """VK303 from the vault's file list: the index is built only over files whose name is
    shared, which yields exactly the groups the full index would."""
    keys = [name_key(p) for p in files]
    counts = Counter(keys)
    shared = [p for p, key in zip(files, keys, strict=True) if counts[key] > 1]
    if shared:
        yield from duplicate_findings(build_file_index(shared).same_name_notes())
