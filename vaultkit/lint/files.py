"""File arguments of ``vaultkit lint``: which vault they belong to and which findings to report.

``vaultkit lint vault/a.md vault/b.md`` lints the whole vault (so links resolve and orphans are
counted against every note) and reports only the findings in the files named. The vault is the
folder named beside them, else the nearest folder above them that holds ``.obsidian/`` (then
``vaultkit.toml``, then ``.vaultkit/``), else the project's session wiki when it holds them,
else the deepest folder that holds them all.

A path in a ``--files-from`` list (or from ``--staged``) that no longer exists is no error: a
note deleted or renamed away leaves links behind, so the notes that linked to it are linted
(:mod:`vaultkit.lint.cache.reach`). A path named on the command line must exist.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.store import find_store
from vaultkit.errors import VaultkitError


@dataclass(frozen=True, slots=True)
class FileArgs:
    """The vault folder named (if any) and the files named."""

    vault: Path | None
    files: tuple[Path, ...]


def split_args(paths: Sequence[Path]) -> FileArgs:
    """At most one folder (the vault) and any number of files; a path that does not exist is
    an error naming it."""
    folders: list[Path] = []
    files: list[Path] = []
    for path in paths:
        path = path.expanduser()
        if path.is_dir():
            folders.append(path)
        elif path.exists():
            files.append(path)
        else:
            raise VaultkitError(
                f"{path}: no such file or folder", hint="pass notes of a vault, or its folder"
            )
    if len(folders) > 1:
        raise VaultkitError(
            f"{len(folders)} folders given ({', '.join(map(str, folders))}): lint takes one vault",
            hint="pass one vault folder, optionally with files inside it",
        )
    return FileArgs(folders[0].resolve() if folders else None, tuple(files))


def _absolute(file: Path) -> Path:
    """The file's absolute path with its folders resolved but not its own name (a symlinked
    note is listed in the vault under its own name)."""
    return file.absolute().parent.resolve() / file.name


# What marks a vault's root folder, strongest first: Obsidian's settings, then vaultkit's own.
MARKERS = (".obsidian", "vaultkit.toml", ".vaultkit")


def marked_vault(files: Iterable[Path]) -> Path | None:
    """The vault of the first file that has a marked one, if any (see :func:`_marked`)."""
    for file in files:
        found = _marked(file)
        if found is not None:
            return found
    return None


def _marked(file: Path) -> Path | None:
    """The nearest folder above ``file`` that holds one of ``MARKERS`` (a marker found at any
    depth wins over the next marker)."""
    parents = _absolute(file).parents
    for marker in MARKERS:
        for folder in parents:
            if (folder / marker).exists():
                # a store's settings and state sit beside its wiki/, which is the vault
                wiki = folder / "wiki"
                return wiki if marker != ".obsidian" and wiki in parents else folder
    return None


def common_folder(files: Sequence[Path]) -> Path:
    """The deepest folder holding every file: the vault when nothing marks one."""
    return Path(os.path.commonpath([str(_absolute(f).parent) for f in files]))


def read_list(text: str) -> list[Path]:
    """The paths of a ``--files-from`` list: one a line, blank lines skipped."""
    return [Path(line) for line in text.splitlines() if line.strip()]


def vault_paths(vault: Path, files: Iterable[Path]) -> tuple[list[str], list[Path]]:
    """The files as vault-relative POSIX paths, and the files that are not in the vault."""
    inside: list[str] = []
    outside: list[Path] = []
    base = vault.resolve()
    for file in files:
        rel = os.path.relpath(_absolute(file), base)
        if rel.startswith("..") or os.path.isabs(rel):
            outside.append(file)
        else:
            inside.append(Path(rel).as_posix())
    return inside, outside


@dataclass(frozen=True, slots=True)
class Targets:
    """What one lint reports: the vault, the vault paths named (None: all), the files named
    that are not in the vault (left alone) and the listed vault paths that no longer exist."""

    vault: Path
    only: frozenset[str] | None
    outside: tuple[Path, ...] = ()
    gone: frozenset[str] = frozenset()


def present(listed: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """The listed paths that exist, and those that do not (deleted, renamed away)."""
    here: list[Path] = []
    gone: list[Path] = []
    for path in listed:
        path = path.expanduser()
        (here if path.exists() or path.is_symlink() else gone).append(path)
    return here, gone


def git_staged(cwd: Path) -> list[Path]:
    """Every path ``git`` has staged in the repository around ``cwd``: added, changed,
    deleted, and both names of a rename (as absolute paths)."""
    import subprocess  # only ``--staged`` runs git: other lints do not pay for the import

    def git(*args: str) -> str:
        try:
            done = subprocess.run(
                ["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=60
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise VaultkitError(f"--staged: cannot run git: {exc}", hint="install git") from exc
        if done.returncode != 0:
            raise VaultkitError(
                f"--staged: {done.stderr.strip() or 'git failed'}",
                hint="run it inside a git repository, or name the notes instead",
            )
        return done.stdout

    top = Path(git("rev-parse", "--show-toplevel").strip())
    names = git("diff", "--cached", "--name-only", "--no-renames", "-z").split("\0")
    return [top / name for name in names if name]


def _session_wiki() -> Path | None:

    try:
        wiki = find_store().wiki
    except VaultkitError:  # not in a project: no session wiki to fall back to
        return None
    return wiki if wiki.is_dir() else None


def vault_of(files: Sequence[Path]) -> Path:
    """The vault named files belong to (see the module docstring)."""
    marked = marked_vault(files)
    if marked is not None:
        return marked
    wiki = _session_wiki()
    if wiki is not None and vault_paths(wiki, files)[0]:
        return wiki
    return common_folder(files)


def targets(
    paths: Sequence[Path], listed: Sequence[Path] | None, default: Callable[[Path | None], Path]
) -> Targets:
    """The vault and the paths to report for ``paths`` (command-line words) and ``listed``
    (a ``--files-from`` list, None without one); ``default(folder)`` checks a named vault
    folder or finds the default one (the CLI's ``resolve_vault``)."""
    here, gone = present(listed or ())
    args = split_args([*paths, *here])
    if not args.files and not gone and listed is None:
        return Targets(default(args.vault), None)
    if args.vault is not None:
        vault = default(args.vault)
    elif args.files or gone:
        vault = vault_of([*args.files, *gone])
    else:  # an empty --files-from list: the default vault, nothing reported
        vault = default(None)
    inside, outside = vault_paths(vault, args.files)
    was_inside = vault_paths(vault, gone)[0]
    return Targets(vault.resolve(), frozenset(inside), tuple(outside), frozenset(was_inside))
