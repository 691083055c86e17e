"""The stores this user has: every project store vaultkit has worked in (recorded by the worker
in ``<data dir>/projects.txt``, one ``sessions/`` path a line) and the stores kept in the data
folder for folders that are not projects. ``vaultkit search --all-projects`` reads them."""

from __future__ import annotations

import os
from collections.abc import Mapping

from vaultkit.base.store import PROJECTS_DIR, STORE_DIR, data_dir

SEEN_FILE = "projects.txt"


def seen_file(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(data_dir(env), SEEN_FILE)


def _lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return [line.rstrip("\n") for line in handle if line.strip()]
    except OSError:
        return []


def remember(top: str, env: Mapping[str, str] | None = None) -> bool:
    """Record the store ``top`` (its ``sessions/`` folder) once; True when it was new. One
    ``O_APPEND`` write, so concurrent workers never interleave; raises OSError when unwritable."""
    where = os.path.realpath(top)
    path = seen_file(env)
    if where in _lines(path) or "\n" in where:
        return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, (where + "\n").encode("utf-8", "surrogatepass"))
    finally:
        os.close(fd)
    return True


def all_stores(env: Mapping[str, str] | None = None) -> list[str]:
    """Every store that still exists: the recorded ones, then the data folder's, each once."""
    keyed = os.path.join(data_dir(env), PROJECTS_DIR)
    try:
        kept = [os.path.join(keyed, name, STORE_DIR) for name in sorted(os.listdir(keyed))]
    except OSError:
        kept = []
    found: list[str] = []
    for top in [*_lines(seen_file(env)), *kept]:
        real = os.path.realpath(top)
        if os.path.isdir(real) and real not in found:
            found.append(real)
    return found
