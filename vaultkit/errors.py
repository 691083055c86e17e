"""The one exception type vaultkit raises for problems a user can act on."""

from __future__ import annotations


class VaultkitError(Exception):
    """A failure with a message that names what happened, where, and what to run next.

    ``hint`` is optional advice shown on its own line (``hint: …``); keep it to the exact command
    or edit that fixes the problem.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message}\nhint: {self.hint}"
        return self.message
