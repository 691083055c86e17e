"""Where a project's session store lives and the names of everything inside it (SPEC §2)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

STORE_DIR = "sessions"
_STORE_MARKERS = ("raw", "summary", "wiki", ".vaultkit", "vaultkit.toml")


@dataclass(frozen=True, slots=True)
class Store:
    """Paths of one project's session store. Nothing here touches the disk."""

    root: Path  # the ``sessions/`` folder itself

    @property
    def project(self) -> Path:
        return self.root.parent

    @property
    def raw(self) -> Path:
        return self.root / "raw"

    @property
    def summary(self) -> Path:
        return self.root / "summary"

    @property
    def summary_archive(self) -> Path:
        return self.root / "summary" / "_archive"

    @property
    def wiki(self) -> Path:
        return self.root / "wiki"

    @property
    def index(self) -> Path:
        return self.wiki / "INDEX.md"

    @property
    def transcripts(self) -> Path:
        return self.root / "transcripts"

    @property
    def activity_logs(self) -> Path:
        return self.root / "logs"

    @property
    def state(self) -> Path:
        return self.root / ".vaultkit"

    @property
    def log(self) -> Path:
        return self.state / "vaultkit.log"

    @property
    def locks(self) -> Path:
        return self.state / "locks"

    @property
    def queue(self) -> Path:
        return self.state / "queue"

    @property
    def config_file(self) -> Path:
        return self.root / "vaultkit.toml"


def _looks_like_store(folder: Path) -> bool:
    return folder.name == STORE_DIR and any((folder / m).exists() for m in _STORE_MARKERS)


def git_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``.git`` (a folder or a worktree file)."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def find_store(cwd: Path | None = None, *, env: dict[str, str] | None = None) -> Store:
    """The store for a working directory: inside an existing store, at the git root, at
    ``$VAULTKIT_HOME``, or in ``cwd`` — in that order. ``sessions/sessions`` is never produced.
    """
    environ = os.environ if env is None else env
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if _looks_like_store(folder):
            return Store(folder)
    anchor = git_root(here)
    if anchor is None and environ.get("VAULTKIT_HOME"):
        anchor = Path(environ["VAULTKIT_HOME"]).expanduser().resolve()
    if anchor is None:
        anchor = here
    if anchor.name == STORE_DIR:
        return Store(anchor)
    return Store(anchor / STORE_DIR)


def state_dir_for_vault(vault: Path) -> Path:
    """Derived-state folder for a vault: the store's ``.vaultkit/`` when the vault is a store's
    ``wiki/``, else ``<vault>/.vaultkit/``."""
    parent = vault.parent
    if vault.name == "wiki" and _looks_like_store(parent):
        return parent / ".vaultkit"
    return vault / ".vaultkit"


def config_file_for_vault(vault: Path) -> Path:
    """``vaultkit.toml`` of the store that holds this vault, else the vault's own."""
    parent = vault.parent
    if vault.name == "wiki" and _looks_like_store(parent):
        return parent / "vaultkit.toml"
    return vault / "vaultkit.toml"
