"""Where a project's session store lives and the names of everything inside it (SPEC §2).

Lean (``os.path`` strings, no pathlib): the hooks find their store here. :meth:`Store.at` gives
a place as a string; the properties of the same names give it as a :class:`~pathlib.Path`.
"""

from __future__ import annotations

import os

from vaultkit.base.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path
    from typing import Literal

    Place = Literal[
        "root",
        "raw",
        "summary",
        "summary_archive",
        "wiki",
        "index",
        "transcripts",
        "activity_logs",
        "state",
        "log",
        "locks",
        "queue",
        "config_file",
    ]

STORE_DIR = "sessions"
_STORE_MARKERS = ("raw", "summary", "wiki", ".vaultkit", "vaultkit.toml")

# Every place in the store, relative to the ``sessions/`` folder (the one definition).
LAYOUT: dict[str, tuple[str, ...]] = {
    "root": (),
    "raw": ("raw",),
    "summary": ("summary",),
    "summary_archive": ("summary", "_archive"),
    "wiki": ("wiki",),
    "index": ("wiki", "INDEX.md"),
    "transcripts": ("transcripts",),
    "activity_logs": ("logs",),
    "state": (".vaultkit",),
    "log": (".vaultkit", "vaultkit.log"),
    "locks": (".vaultkit", "locks"),
    "queue": (".vaultkit", "queue"),
    "config_file": ("vaultkit.toml",),
}


def _path(text: str) -> Path:
    from pathlib import Path  # only callers that want Path objects pay for pathlib

    return Path(text)


class Store(Record):
    """Paths of one project's session store (an immutable value). Nothing here touches the
    disk."""

    top: str  # the ``sessions/`` folder itself, as a string

    def __init__(self, root: str | os.PathLike[str]) -> None:
        super().__init__(os.fspath(root))

    def at(self, place: Place) -> str:
        """The path of ``place`` as a string (lean: for the hooks)."""
        return os.path.join(self.top, *LAYOUT[place])

    @property
    def root(self) -> Path:
        return _path(self.top)

    @property
    def project(self) -> Path:
        return _path(os.path.dirname(self.top))

    @property
    def raw(self) -> Path:
        return _path(self.at("raw"))

    @property
    def summary(self) -> Path:
        return _path(self.at("summary"))

    @property
    def summary_archive(self) -> Path:
        return _path(self.at("summary_archive"))

    @property
    def wiki(self) -> Path:
        return _path(self.at("wiki"))

    @property
    def index(self) -> Path:
        return _path(self.at("index"))

    @property
    def transcripts(self) -> Path:
        return _path(self.at("transcripts"))

    @property
    def activity_logs(self) -> Path:
        return _path(self.at("activity_logs"))

    @property
    def state(self) -> Path:
        return _path(self.at("state"))

    @property
    def log(self) -> Path:
        return _path(self.at("log"))

    @property
    def locks(self) -> Path:
        return _path(self.at("locks"))

    @property
    def queue(self) -> Path:
        return _path(self.at("queue"))

    @property
    def config_file(self) -> Path:
        return _path(self.at("config_file"))


def _looks_like_store(folder: str) -> bool:
    if os.path.basename(folder) != STORE_DIR:
        return False
    return any(os.path.exists(os.path.join(folder, m)) for m in _STORE_MARKERS)


def _up(folder: str) -> Iterator[str]:
    """``folder`` and each of its parents up to the filesystem root."""
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def find_git_root(start: str | os.PathLike[str]) -> str | None:
    """The nearest folder at or above ``start`` holding ``.git`` (a folder or a worktree file)."""
    for folder in _up(os.fspath(start)):
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
    return None


def git_root(start: Path) -> Path | None:
    """:func:`find_git_root` as a :class:`~pathlib.Path`."""
    found = find_git_root(start)
    return None if found is None else _path(found)


def find_store(
    cwd: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None
) -> Store:
    """The store for a working directory: inside an existing store, at the git root, at
    ``$VAULTKIT_HOME``, or in ``cwd`` — in that order. ``sessions/sessions`` is never produced.
    """
    environ = os.environ if env is None else env
    here = os.path.realpath(os.fspath(cwd) if cwd is not None else os.getcwd())
    for folder in _up(here):
        if _looks_like_store(folder):
            return Store(folder)
    anchor = find_git_root(here)
    home = environ.get("VAULTKIT_HOME")
    if anchor is None and home:
        anchor = os.path.realpath(os.path.expanduser(home))
    if anchor is None:
        anchor = here
    if os.path.basename(anchor) == STORE_DIR:
        return Store(anchor)
    return Store(os.path.join(anchor, STORE_DIR))


def state_dir_for_vault(vault: Path) -> Path:
    """Derived-state folder for a vault: the store's ``.vaultkit/`` when the vault is a store's
    ``wiki/``, else ``<vault>/.vaultkit/``."""
    parent = vault.parent
    if vault.name == "wiki" and _looks_like_store(str(parent)):
        return parent / ".vaultkit"
    return vault / ".vaultkit"


def config_file_for_vault(vault: Path) -> Path:
    """``vaultkit.toml`` of the store that holds this vault, else the vault's own."""
    parent = vault.parent
    if vault.name == "wiki" and _looks_like_store(str(parent)):
        return parent / "vaultkit.toml"
    return vault / "vaultkit.toml"
