"""The store's own ``sessions/.gitignore``: which parts never enter git (lean: stdlib only).

vaultkit owns one marked block in the file; every other line is the user's and is kept
byte-for-byte. The block lists the private parts (``[git] share`` in ``vaultkit.toml`` says what
is shared) that the user's own lines do not already ignore, so merging twice changes nothing.
"""

from __future__ import annotations

import os

from vaultkit.base import gitattributes
from vaultkit.base.fsio import atomic_write_bytes
from vaultkit.base.store import ALWAYS_PRIVATE, SHAREABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from vaultkit.base.store import Store

BEGIN = "# >>> vaultkit: private parts of this store (set [git] share in vaultkit.toml) >>>"
END = "# <<< vaultkit <<<"


def private_parts(share: Iterable[str]) -> tuple[str, ...]:
    """The store's parts that stay out of git when ``share`` is what is shared."""
    shared = set(share)
    return tuple(p for p in SHAREABLE if p not in shared) + ALWAYS_PRIVATE


def _ignored_name(line: str) -> str:
    """The top-level part a user's ignore line covers (``raw``, ``/raw/``, ``raw/*`` → ``raw``)."""
    text = line.strip()
    for tail in ("/**", "/*", "/"):
        text = text.removesuffix(tail)
    return text.removeprefix("/")


def _split(text: str) -> tuple[str, str, str] | None:
    """``(before, block, after)`` around vaultkit's block (markers included), else None."""
    start = text.find(BEGIN)
    if start < 0 or (start > 0 and text[start - 1] != "\n"):
        return None
    stop = text.find(END, start)
    if stop < 0:
        return None
    stop += len(END)
    if text.startswith("\n", stop):
        stop += 1
    return text[:start], text[start:stop], text[stop:]


def block(private: Iterable[str], users: str = "") -> str:
    """vaultkit's block: the private parts the user's lines (``users``) do not ignore yet."""
    covered = {_ignored_name(line) for line in users.splitlines()}
    lines = [f"/{part}/" for part in private if part not in covered]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def merged(existing: str | None, private: Iterable[str]) -> str:
    """The file's new text: ``existing`` with vaultkit's block added or brought up to date."""
    if not existing:
        return block(private)
    parts = _split(existing)
    if parts is not None:
        before, _, after = parts
        return before + block(private, before + after) + after
    glue = "" if existing.endswith("\n") else "\n"
    return existing + glue + block(private, existing)


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", errors="surrogateescape")
    except FileNotFoundError:
        return None


def sync(store: Store, share: Iterable[str]) -> bool:
    """Bring ``sessions/.gitignore`` up to date (atomically, only when it changes); True when
    it was written."""
    path = store.at("gitignore")
    existing = _read(path)
    text = merged(existing, private_parts(share))
    if text == existing:
        return False
    atomic_write_bytes(path, text.encode("utf-8", errors="surrogateescape"))
    return True


def _configured_share(store: Store) -> tuple[str, ...]:
    """``[git] share`` of the store; nothing at all while ``vaultkit.toml`` is invalid."""
    from vaultkit.base.config import store_config
    from vaultkit.errors import VaultkitError

    try:
        return tuple(store_config(store).git.share)
    except VaultkitError:
        return ()  # the safe side: everything private until the file is fixed


def ensure(store: Store) -> None:
    """Create the store folder, and its ``.gitignore`` and ``.gitattributes`` when missing (a
    stat each when present).

    The path every writer that may create a store takes (the hooks through the worker spawn,
    the worker itself); the worker also brings an existing file up to date with :func:`sync`.
    """
    os.makedirs(store.top, exist_ok=True)
    if not os.path.exists(store.at("gitignore")):
        sync(store, _configured_share(store))
    gitattributes.ensure(store)
