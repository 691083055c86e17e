"""What every hook handler shares: the payload helpers, store lookup and the log."""

from __future__ import annotations

from vaultkit.agents.payload import (
    SESSION_END_REASONS,
    SESSION_START_SOURCES,
    HookFields,
    Payload,
    decode_payload,
    guarded,
    payload_cwd,
)
from vaultkit.base.log import append_log, iso_now
from vaultkit.base.store import Store, find_store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "SESSION_END_REASONS",
    "SESSION_START_SOURCES",
    "HookFields",
    "Payload",
    "decode_payload",
    "guarded",
    "log",
    "now_iso",
    "payload_cwd",
    "store_for",
]


def store_for(payload: Payload, env: Mapping[str, str]) -> Store:
    """The store of the payload's ``cwd`` (an existing folder), else of the process cwd."""
    return find_store(payload_cwd(payload), env=env)


def log(store: Store, message: str) -> None:
    """Append one line to the store's log (never raises)."""
    append_log(store.at("log"), message)


def now_iso() -> str:
    return iso_now()
