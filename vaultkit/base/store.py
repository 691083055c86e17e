"""Where a project's session store lives and the names of everything inside it (README: "The
session store").

Lean (``os.path`` strings, no pathlib): the hooks find their store here. :meth:`Store.at` gives
a place as a string; the properties of the same names give it as a :class:`~pathlib.Path`.
"""

from __future__ import annotations

import os
import sys

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
        "gitignore",
        "gitattributes",
        "forgotten",
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
    "gitignore": (".gitignore",),
    "gitattributes": (".gitattributes",),  # how git merges INDEX.md (base/gitattributes.py)
    "forgotten": (".vaultkit", "forgotten"),  # tombstones of forgotten sessions
}
# The parts ``[git] share`` may name (in .gitignore order); ``logs/`` (its own .gitignore) and
# ``.vaultkit/`` (locks, queue, caches) are private whatever it says.
SHAREABLE = ("raw", "summary", "wiki", "transcripts")
ALWAYS_PRIVATE = ("logs", ".vaultkit")
DEFAULT_SHARE = ("wiki", "summary")
PROJECTS_DIR = "projects"  # under the data folder: the stores of folders that are not projects
APP_DIR = "vaultkit"
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


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


# Folders a note may never be read from through ``wiki/``, ``summary/`` or ``transcripts/``:
# the raw copies, the activity logs and the derived state (issue 22).
PRIVATE_PARTS = ("raw", "logs", ".vaultkit")


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def read_problem(store: Store, path: str | os.PathLike[str]) -> str:
    """``""`` when ``path`` may be read through the store, else why not (naming the target).

    The one rule every reader of shared notes follows: the real path (every symlinked file and
    folder followed, ``wiki/`` itself included, ``..`` resolved) is inside the store's own real
    folder and not inside its ``raw/``, ``logs/`` or ``.vaultkit/``. A teammate's committed
    symlink cannot make vaultkit read a file outside the store or a private part of it."""
    top = os.path.realpath(store.top)
    real = os.path.realpath(path)
    if not _inside(real, top):
        return f"links outside the store, to {real}"
    for part in PRIVATE_PARTS:
        if _inside(real, os.path.join(top, part)):
            return f"links into the store's private {part}/, to {real}"
    return ""


def may_read(store: Store, path: str | os.PathLike[str]) -> bool:
    """True when :func:`read_problem` finds nothing wrong with ``path``."""
    return not read_problem(store, path)


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


def _read_small(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(4096).decode("utf-8", errors="replace")
    except OSError:
        return ""


def current_branch(cwd: str | os.PathLike[str]) -> str:
    """The checked-out branch, read from ``.git/HEAD`` (worktree files followed); ``""`` if none."""
    root = find_git_root(os.path.realpath(cwd))
    if root is None:
        return ""
    git = os.path.join(root, ".git")
    if os.path.isfile(git):
        pointer = _read_small(git).strip()
        if not pointer.startswith("gitdir:"):
            return ""
        git = os.path.realpath(os.path.join(root, pointer[len("gitdir:") :].strip()))
    head = _read_small(os.path.join(git, "HEAD")).strip()
    prefix = "ref: refs/heads/"
    return head[len(prefix) :] if head.startswith(prefix) else ""


def git_root(start: Path) -> Path | None:
    """:func:`find_git_root` as a :class:`~pathlib.Path`."""
    found = find_git_root(start)
    return None if found is None else _path(found)


def _home(env: Mapping[str, str]) -> str:
    return env.get("HOME") or env.get("USERPROFILE") or os.path.expanduser("~")


def data_dir(env: Mapping[str, str] | None = None) -> str:
    """vaultkit's per-user data folder: ``$VAULTKIT_HOME``, else the platform's user data folder
    (``$XDG_DATA_HOME`` or ``~/.local/share``, ``~/Library/Application Support``,
    ``%LOCALAPPDATA%``) plus ``vaultkit``."""
    environ = os.environ if env is None else env
    chosen = environ.get("VAULTKIT_HOME")
    if chosen:
        return os.path.realpath(os.path.expanduser(chosen))
    home = _home(environ)
    if sys.platform == "win32":
        base = environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
    elif sys.platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        xdg = environ.get("XDG_DATA_HOME", "")
        base = xdg if os.path.isabs(xdg) else os.path.join(home, ".local", "share")
    return os.path.join(base, APP_DIR)


def folder_key(folder: str) -> str:
    """A file-name-safe key for a folder: ``<basename>-<10 hex of the absolute path's hash>``."""
    import hashlib  # only for a folder that is not a project

    name = "".join(c if c in _KEY_CHARS else "-" for c in os.path.basename(folder))
    name = name.strip(".-")[:40] or "folder"
    digest = hashlib.sha256(os.path.abspath(folder).encode("utf-8", "surrogatepass"))
    return f"{name}-{digest.hexdigest()[:10]}"


def _existing_store(here: str, home: str) -> str | None:
    """The ``sessions/`` store of ``here`` or of the nearest parent that has one; a store in
    the home folder or the filesystem root counts only for that folder itself."""
    for folder in _up(here):
        if folder != here and (folder == home or os.path.dirname(folder) == folder):
            continue
        candidate = os.path.join(folder, STORE_DIR)
        if os.path.isdir(candidate) and _looks_like_store(candidate):
            return candidate
    return None


def find_store(
    cwd: str | os.PathLike[str] | None = None, *, env: Mapping[str, str] | None = None
) -> Store:
    """The store for a working directory, in this order: the store ``cwd`` is inside; the git
    root's ``sessions/``; ``cwd`` itself when it is named ``sessions``; an existing
    ``sessions/`` store in ``cwd`` or a parent; else, for a
    folder that is not a project, ``<data dir>/projects/<folder key>/sessions`` (see
    :func:`data_dir`, :func:`folder_key`). ``sessions/sessions`` is never produced."""
    environ = os.environ if env is None else env
    here = os.path.realpath(os.fspath(cwd) if cwd is not None else os.getcwd())
    for folder in _up(here):
        if _looks_like_store(folder):
            return Store(folder)
    anchor = find_git_root(here)
    if anchor is not None:
        if os.path.basename(anchor) == STORE_DIR:
            return Store(anchor)
        return Store(os.path.join(anchor, STORE_DIR))
    if os.path.basename(here) == STORE_DIR:  # a folder made for the store, pointed at
        return Store(here)
    existing = _existing_store(here, os.path.realpath(_home(environ)))
    if existing is not None:
        return Store(existing)
    return Store(os.path.join(data_dir(environ), PROJECTS_DIR, folder_key(here), STORE_DIR))


def is_project_store(store: Store, env: Mapping[str, str] | None = None) -> bool:
    """False for a store kept in the data folder for a folder that is not a project."""
    keyed = os.path.realpath(os.path.join(data_dir(env), PROJECTS_DIR))
    return os.path.dirname(os.path.dirname(os.path.realpath(store.top))) != keyed


def store_of_wiki(vault: str | os.PathLike[str]) -> Store | None:
    """The store whose ``wiki/`` ``vault`` is (as named, before any symlink is followed), else
    None: a store's wiki is read under :func:`read_problem`, any other vault as Obsidian does."""
    folder = os.path.abspath(vault)
    parent = os.path.dirname(folder)
    if os.path.basename(folder) == "wiki" and _looks_like_store(parent):
        return Store(parent)
    return None


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
