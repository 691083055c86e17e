"""Helpers shared by the command modules: the vault or project a command works on, and how a
vault's paths are shown. Typer-free, so the quick paths of :mod:`vaultkit.cli.quick` can use it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from vaultkit.base.store import STORE_DIR, Store, find_store, git_root
from vaultkit.errors import VaultkitError


def resolve_vault(arg: Path | None) -> Path:
    """The folder a command works on: ``arg`` when given, else the current project's
    ``sessions/wiki``. Raises a :class:`VaultkitError` naming the folder when it is missing."""
    if arg is not None:
        vault = arg.expanduser()
        if not vault.is_dir():
            raise VaultkitError(
                f"{vault}: not a folder", hint="pass the vault folder, e.g. examples/sessions/wiki"
            )
        return up_to_date(vault.resolve())
    wiki = find_store().wiki
    if not wiki.is_dir():
        raise VaultkitError(
            f"{wiki}: this project has no session wiki yet",
            hint="pass a vault folder, e.g. `vaultkit stats examples/sessions/wiki`",
        )
    return up_to_date(wiki)


CLI_LOCK_TIMEOUT = 5.0  # seconds a command waits for the store lock before going on as is


def up_to_date(folder: Path) -> Path:
    """``folder``, after bringing its store up to date when it is a store (its ``sessions/`` or
    ``wiki/``) whose shared notes git changed since vaultkit last indexed them (a pull):
    INDEX.md regenerated, retention and the search index, with one line on stderr."""
    top = folder.parent if folder.name == "wiki" else folder
    if top.name != STORE_DIR or not (top / "wiki").is_dir():
        return folder
    from vaultkit.base import pulled

    store = Store(top)
    if pulled.changed(store):
        from vaultkit.session.worker.finish import refresh_if_pulled
        from vaultkit.session.worker.outcome import store_logger

        if not refresh_if_pulled(store, store_logger(store), lock_timeout=CLI_LOCK_TIMEOUT):
            return folder  # a worker holds the store: it brings everything up to date itself
        print(
            f"note: {top}: notes changed outside vaultkit (a pull?); INDEX.md and the search"
            " index brought up to date",
            file=sys.stderr,
        )
    return folder


def project_dir(arg: Path | None) -> Path:
    """``--project`` exactly as given (made absolute; never replaced by its git root), else the
    git root of the current folder, else the current folder."""
    if arg is None:
        here = Path.cwd().resolve()
        return git_root(here) or here
    folder = arg.expanduser()
    if not folder.is_dir():
        raise VaultkitError(
            f"{folder}: --project is not a folder", hint="pass an existing project folder"
        )
    return folder.resolve()


def display_root(vault: Path) -> str:
    """How finding paths are prefixed: the vault relative to the working directory when it is
    below it (so editors and CI can open ``path:line:col``), else its absolute path."""
    rel = os.path.relpath(vault, Path.cwd())
    shown = vault.as_posix() if rel.startswith("..") else Path(rel).as_posix()
    return "" if shown == "." else shown
