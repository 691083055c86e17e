"""What every lint rule reads (the loaded vault, the settings, the raw INDEX.md text) and the
vault a lint command works on, with what is looked up once per command."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vaultkit.base.config import Config
from vaultkit.vault.model import Finding

if TYPE_CHECKING:
    from pathlib import Path

    from vaultkit.vault.value import Vault


@dataclass(frozen=True, slots=True)
class LintTarget:
    """A vault folder with its settings (``vaultkit.toml``, loaded once) and its state folder
    (found once): passed down so no layer below the command looks them up again."""

    root: Path
    config: Config
    state_dir: Path


@dataclass(frozen=True, slots=True)
class LintContext:
    """Inputs of a lint run, as values; rules never touch the disk.

    ``index_text`` is the vault-root INDEX.md as read (None when the vault has none).
    """

    vault: Vault
    config: Config
    index_text: str | None = None


RuleFn = Callable[[LintContext], Iterable[Finding]]
