"""What every lint rule reads: the loaded vault, the settings and the raw INDEX.md text."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vaultkit.base.config import Config
from vaultkit.vault.model import Finding

if TYPE_CHECKING:
    from vaultkit.vault.value import Vault


@dataclass(frozen=True, slots=True)
class LintContext:
    """Inputs of a lint run, as values; rules never touch the disk.

    ``index_text`` is the vault-root INDEX.md as read (None when the vault has none).
    """

    vault: Vault
    config: Config
    index_text: str | None = None


RuleFn = Callable[[LintContext], Iterable[Finding]]
