"""Dates as users write them for ``since``: the CLI's ``--since`` and the MCP tools check alike."""

from __future__ import annotations

from datetime import date

from vaultkit.errors import VaultkitError


def since_date(text: str | None, name: str = "--since") -> str:
    """``text`` as ``YYYY-MM-DD`` ("" when empty); a clear error naming ``name`` otherwise."""
    if not text:
        return ""
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError as exc:
        raise VaultkitError(f"{name} {text!r}: not a date", hint="write it as 2026-11-30") from exc
