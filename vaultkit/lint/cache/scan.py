"""The suppressions of every note, kept by stat, so a warm lint reads no note for them.

``lint-suppressions.marshal`` in the state folder maps each note to its stat (size, mtime,
ctime, inode) and what :func:`vaultkit.lint.suppress.scan` found in it. A note whose stat is
the stored one is not read again, unless it changed within ``RACY_NS`` of the run that stored
it (it may have changed again unseen within the same timestamp). The file only saves reading:
a missing, damaged or foreign one is rebuilt by reading every note.
"""

from __future__ import annotations

import marshal
from pathlib import Path

from vaultkit.base.fsio import atomic_write_bytes
from vaultkit.base.statedir import ensure_folder
from vaultkit.lint.cache.walk import Walked
from vaultkit.lint.suppress import Suppression, read_suppressions
from vaultkit.vault.cache import RACY_NS

SCAN_NAME = "lint-suppressions.marshal"
VERSION = 1
Values = tuple[tuple[str, ...], tuple[int, ...], int, int]  # a Suppression's fields
Stored = dict[str, tuple[tuple[int, int, int, int], tuple[Values, ...]]]


def _load(path: Path) -> Stored:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(data, tuple) or len(data) != 2 or data[0] != VERSION:
        return {}
    stored = data[1]
    return stored if isinstance(stored, dict) else {}


def _values(found: tuple[Suppression, ...]) -> tuple[Values, ...]:
    return tuple((s.codes, s.lines, s.line, s.col) for s in found)


def _suppressions(values: tuple[Values, ...]) -> tuple[Suppression, ...]:
    return tuple(Suppression(codes, lines, line, col) for codes, lines, line, col in values)


def scanned(root: Path, state_dir: Path, walked: Walked) -> dict[str, tuple[Suppression, ...]]:
    """Every note's suppressions, reading only notes whose stat changed (or is racy)."""
    path = state_dir / SCAN_NAME
    stored = _load(path)
    fresh: Stored = {}
    found: dict[str, tuple[Suppression, ...]] = {}
    for note, stat in walked.stats.items():
        if stat is None:
            continue
        old = stored.get(note)
        settled = walked.started_ns - stat[1] >= RACY_NS
        if old is not None and old[0] == stat and settled:
            found[note] = _suppressions(old[1])
        else:
            found[note] = read_suppressions(root, note)
        if settled:
            fresh[note] = (stat, _values(found[note]))
    if fresh != stored:
        try:
            ensure_folder(state_dir)
            atomic_write_bytes(path, marshal.dumps((VERSION, fresh)), durable=False)
        except OSError:
            pass  # only a saving: the next run reads the notes again
    return found
