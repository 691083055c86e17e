"""Summary retention: keep the newest N summaries, move the rest to ``summary/_archive/``.

Age comes from the frontmatter ``date`` (else the date in the file name), never from mtime, so a
touched old file does not jump the queue. Archiving moves; nothing is ever deleted.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, time
from pathlib import Path

from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.notes.naming import parse_name
from vaultkit.session.notes.write import read_frontmatter

_OLDEST = datetime.min.replace(tzinfo=UTC)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.astimezone()


def _from_value(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return _aware(value)
    if isinstance(value, date):
        return _aware(datetime.combine(value, time()))
    if isinstance(value, str):
        try:
            return _aware(datetime.fromisoformat(value.strip()))
        except ValueError:
            return None
    return None


def note_date(path: Path) -> datetime:
    """When a summary was written: frontmatter ``date``, else the stamp in its name."""
    found = _from_value(read_frontmatter(path).get("date"))
    if found is not None:
        return found
    name = parse_name(path.name)
    if name is not None:
        return _aware(name.when)
    return _OLDEST


def _free_name(folder: Path, name: str) -> Path:
    target = folder / name
    stem, suffix = os.path.splitext(name)
    counter = 1
    while target.exists():
        target = folder / f"{stem}-{counter}{suffix}"
        counter += 1
    return target


def apply_retention(store: Store, keep: int) -> tuple[Path, ...]:
    """Archive all but the newest ``keep`` summaries; return the new paths of moved files."""
    if keep < 0:
        raise VaultkitError(
            f"retention.keep_summaries must be 0 or more, got {keep}",
            hint=f"edit {store.config_file} and set keep_summaries = 10",
        )
    try:
        notes = [p for p in store.summary.iterdir() if p.suffix == ".md" and p.is_file()]
    except FileNotFoundError:
        return ()
    notes.sort(key=lambda p: (note_date(p), p.name), reverse=True)
    moved: list[Path] = []
    for path in notes[keep:]:
        store.summary_archive.mkdir(parents=True, exist_ok=True)
        target = _free_name(store.summary_archive, path.name)
        os.replace(path, target)
        moved.append(target)
    return tuple(moved)
