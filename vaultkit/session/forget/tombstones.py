"""Tombstones of forgotten sessions: ``.vaultkit/forgotten/<id>.json`` (lean: stdlib only).

``vaultkit forget`` leaves one (:mod:`vaultkit.session.forget.remove`); every path that would
distil a session again honours it: backfill, the SessionEnd hook (a forgotten session that is
resumed and ends again is not queued) and the worker (a job queued anyway is dropped).
"""

from __future__ import annotations

import os

from vaultkit.base.store import Store
from vaultkit.session.queue.jobs import safe_id


def tombstone_file(store: Store, session_id: str) -> str:
    """Where the tombstone of ``session_id`` is (whether or not it exists)."""
    return os.path.join(store.at("forgotten"), f"{safe_id(session_id)}.json")


def is_forgotten(store: Store, session_id: str) -> bool:
    """True when ``vaultkit forget`` forgot ``session_id``: it stays forgotten."""
    return os.path.isfile(tombstone_file(store, session_id))
