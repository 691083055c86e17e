"""Per-process temp folders under ``sessions/.vaultkit/tmp/<pid>/``, swept once their pid is dead.

The worker points :mod:`tempfile` and ``TMPDIR`` (which its children inherit) at its own folder,
so whatever it or its LLM child leaves behind when killed is in one place the next runner removes.
"""

from __future__ import annotations

import os
import shutil
import tempfile

from vaultkit.base.record import Record
from vaultkit.base.store import Store
from vaultkit.session.queue.jobs import pid_alive


class Scratch(Record):
    """This process's temp folder and the ``TMPDIR`` it replaced."""

    folder: str
    previous: str | None


def scratch_root(store: Store) -> str:
    return os.path.join(store.at("state"), "tmp")


def sweep(store: Store) -> list[str]:
    """Remove the folders of processes that are gone; return the names removed."""
    root = scratch_root(store)
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    dead = [n for n in names if n.isdigit() and int(n) != os.getpid() and not pid_alive(int(n))]
    for name in dead:
        shutil.rmtree(os.path.join(root, name), ignore_errors=True)
    return dead


def enter(store: Store) -> Scratch:
    """Create this process's folder and make it the default temp folder of it and its children."""
    folder = os.path.join(scratch_root(store), str(os.getpid()))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    previous = os.environ.get("TMPDIR")
    tempfile.tempdir = folder
    os.environ["TMPDIR"] = folder
    return Scratch(folder=folder, previous=previous)


def leave(scratch: Scratch) -> None:
    """Remove this process's folder and give temp files their earlier default back."""
    shutil.rmtree(scratch.folder, ignore_errors=True)
    tempfile.tempdir = None
    if scratch.previous is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = scratch.previous
