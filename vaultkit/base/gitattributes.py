"""The store's own ``sessions/.gitattributes``: how git merges what two clones both change.

Two clones that each record a session both add a line to ``wiki/INDEX.md``; git's built-in
``union`` merge keeps both sides' lines instead of writing conflict markers, and the next
vaultkit run regenerates the file from the notes (``vault/indexer.py``), so its order and any
line a teammate's edit left twice are put right. A ``.gitattributes`` is committed with the
store, so this needs no ``git config`` in any clone (a merge driver would: see
``benchmarks/bench_git_merge.py``). vaultkit owns one marked block; the user's lines are kept
byte-for-byte. Lean: standard library only.
"""

from __future__ import annotations

import os

from vaultkit.base.fsio import atomic_write_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vaultkit.base.store import Store

BEGIN = "# >>> vaultkit: how git merges this store (needs no setup in any clone) >>>"
END = "# <<< vaultkit <<<"
RULES = ("wiki/INDEX.md merge=union",)


def block() -> str:
    """vaultkit's block of the file."""
    return "\n".join([BEGIN, *RULES, END]) + "\n"


def merged(existing: str | None) -> str:
    """The file's new text: ``existing`` with vaultkit's block added or brought up to date."""
    if not existing:
        return block()
    start = existing.find(BEGIN)
    stop = existing.find(END, start) if start >= 0 else -1
    if start >= 0 and stop >= 0 and (start == 0 or existing[start - 1] == "\n"):
        stop += len(END)
        if existing.startswith("\n", stop):
            stop += 1
        return existing[:start] + block() + existing[stop:]
    glue = "" if existing.endswith("\n") else "\n"
    return existing + glue + block()


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", errors="surrogateescape")
    except FileNotFoundError:
        return None


def sync(store: Store) -> bool:
    """Bring ``sessions/.gitattributes`` up to date (atomically, only when it changes); True
    when it was written."""
    path = store.at("gitattributes")
    existing = _read(path)
    text = merged(existing)
    if text == existing:
        return False
    atomic_write_bytes(path, text.encode("utf-8", errors="surrogateescape"))
    return True


def ensure(store: Store) -> None:
    """Write the file when it is missing (one stat when present): the hooks' path."""
    if not os.path.exists(store.at("gitattributes")):
        sync(store)
