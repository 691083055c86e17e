"""Whether the store's shared notes changed behind vaultkit's back (a pull, a checkout, a merge).

After the worker regenerates INDEX.md it records a stamp of what git may change: the stat of
``wiki/INDEX.md`` and of the ``wiki/`` and ``summary/`` folders (a note added, removed or renamed
changes its folder's mtime and ctime). A pull that brings a teammate's notes changes at least one
of them; ctime and inode count as well as mtime, because git (or a tool that copies with the old
times) may leave a pulled file's mtime older than the stamp. SessionStart and the CLI compare
in a few stats and have INDEX.md, retention and the search index brought up to date. Lean:
standard library only, for the SessionStart hook.
"""

from __future__ import annotations

import os

from vaultkit.base.fsio import atomic_write_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vaultkit.base.store import Store

STAMP_NAME = "shared-stamp"


def _stat(path: str) -> str:
    try:
        info = os.stat(path)
    except OSError:
        return "-"
    return f"{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}"


def stamp(store: Store) -> str:
    """One line naming the state of INDEX.md, ``wiki/`` and ``summary/`` now."""
    places = (store.at("index"), store.at("wiki"), store.at("summary"))
    return " ".join(_stat(p) for p in places)


def _stamp_path(store: Store) -> str:
    return os.path.join(store.at("state"), STAMP_NAME)


def record(store: Store) -> None:
    """Remember the state now (called once INDEX.md was regenerated under the store lock)."""
    os.makedirs(store.at("state"), exist_ok=True)
    atomic_write_text(_stamp_path(store), stamp(store) + "\n", durable=False)


def changed(store: Store) -> bool:
    """True when the shared notes are not as vaultkit left them. A store never stamped here
    (a fresh clone, a copied folder) is taken as it is: until this clone records a session
    of its own, a pull only fast-forwards to what a teammate's vaultkit already indexed."""
    try:
        with open(_stamp_path(store), encoding="utf-8") as handle:
            known = handle.read().strip()
    except OSError:
        return False  # no stamp yet, or unreadable: never fail a caller over a derived file
    return bool(known) and known != stamp(store)
