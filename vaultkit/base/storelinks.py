"""The links in a store's shared folders that vaultkit refuses to follow, with the fix for each.

Every reader of shared notes refuses them (:func:`vaultkit.base.store.read_problem`); this
module finds them all for ``vaultkit doctor`` and ``vaultkit lint`` on the store: each symlinked
file or folder (``wiki/`` itself included) of ``wiki/``, ``summary/`` and ``transcripts/`` whose
real path is outside the store or inside its ``raw/``, ``logs/`` or ``.vaultkit/``, and the
command that removes it (``git rm`` when git tracks it, else ``rm``).
"""

from __future__ import annotations

import os
import shlex
import subprocess

from vaultkit.base.record import Record
from vaultkit.base.store import Store, find_git_root, read_problem

SHARED_FOLDERS = ("wiki", "summary", "transcripts")
MAX_FOUND = 1000  # a store with more refused links than this is reported by its first ones


class Refused(Record):
    """One link vaultkit does not follow: where it is, where it points, why, and the fix."""

    path: str  # relative to the git root (else the project folder), ``/`` separators
    file: str  # the link's own absolute path
    target: str  # its real path
    reason: str
    fix: str


def _symlinks(folder: str) -> list[str]:
    """Every symlink at or below ``folder`` (symlinked folders are not entered)."""
    if os.path.islink(folder):
        return [folder]
    found: list[str] = []
    for here, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            path = os.path.join(here, name)
            if os.path.islink(path):
                found.append(path)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(here, d))]
        if len(found) > MAX_FOUND:
            break
    return found


def _tracked(root: str, paths: list[str]) -> set[str]:
    """The ``paths`` (relative to ``root``) git tracks; empty when git is missing or fails."""
    if not paths:
        return set()
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", "--", *paths],
            cwd=root,
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return set()
    if done.returncode != 0:
        return set()
    return {p for p in done.stdout.decode("utf-8", "replace").split("\0") if p}


def refused_links(store: Store) -> list[Refused]:
    """The store's shared links vaultkit refuses to follow, sorted by path."""
    links = []
    for part in SHARED_FOLDERS:
        for path in _symlinks(os.path.join(store.top, part)):
            problem = read_problem(store, path)
            if problem:
                links.append((path, problem))
    links = links[:MAX_FOUND]
    project = os.path.dirname(store.top)
    root = find_git_root(store.top) or project
    rels = [os.path.relpath(path, root).replace(os.sep, "/") for path, _ in links]
    tracked = _tracked(root, rels) if find_git_root(store.top) else set()
    found = []
    for (path, problem), rel in zip(links, rels, strict=True):
        if rel in tracked:  # removes the link itself (never what it points to), then commit
            fix = f"git -C {shlex.quote(root)} rm -- {shlex.quote(rel)}"
        else:
            fix = f"rm -- {shlex.quote(path)}"
        found.append(Refused(rel, path, os.path.realpath(path), problem, fix))
    return sorted(found, key=lambda r: r.path)


def describe(link: Refused) -> str:
    """One line for a report: the link, why it is refused, and the command that removes it."""
    return f"{link.path} {link.reason} (not read; remove it: {link.fix})"


def linked_store(store: Store) -> tuple[Refused, bool] | None:
    """The store folder itself when it is a link out of its project (its real path is read as
    the store), and whether git tracks that link (a commit put it there); else None."""
    top = store.top
    project = os.path.realpath(os.path.dirname(top))
    real = os.path.realpath(top)
    if not os.path.islink(top) or real.startswith(project.rstrip(os.sep) + os.sep):
        return None
    root = find_git_root(os.path.dirname(top)) or os.path.dirname(top)
    rel = os.path.relpath(top, root).replace(os.sep, "/")
    tracked = rel in _tracked(root, [rel])
    fix = f"git -C {shlex.quote(root)} rm -- {shlex.quote(rel)}" if tracked else f"rm -- {top}"
    reason = f"is a link out of the project, to {real}, so vaultkit reads the notes there"
    return Refused(rel, top, real, reason, fix), tracked
