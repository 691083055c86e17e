"""Regenerate a vault's INDEX.md on disk (atomic, only on change) and log what was found."""

from __future__ import annotations

import dataclasses
import difflib
import stat
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.config import Config, load_config
from vaultkit.base.fsio import write_if_changed
from vaultkit.base.log import append_log
from vaultkit.base.store import (
    config_file_for_vault,
    read_problem,
    state_dir_for_vault,
    store_of_wiki,
)
from vaultkit.errors import VaultkitError
from vaultkit.vault.analysis import degraded, orphans
from vaultkit.vault.index import INDEX_NAME, unlinkable, vault_index_plan
from vaultkit.vault.load import Vault, load_vault, through_link

LOG_NAME = "vaultkit.log"
LOG_NAMES_MAX = 20  # names listed per category in one log line; the count is always complete


@dataclass(frozen=True, slots=True)
class IndexOutcome:
    """What one regeneration did (or, with ``check``/``dry_run``, would do)."""

    path: Path
    changed: bool  # the file differs (or differed) from the generated text
    diff: str  # unified diff from the old text to the new one ("" when unchanged)
    pruned: tuple[str, ...]  # hand-written lines removed because their link is a ghost
    orphans: tuple[str, ...]
    degraded: tuple[str, ...]
    listed: int  # notes listed in the generated region
    adopted: bool  # an old-format (unmarked) index was converted
    left_out: tuple[str, ...] = ()  # "path: why" for each note that could not be listed


def _listable(vault: Vault) -> tuple[Vault, tuple[str, ...]]:
    """The vault without the notes INDEX.md cannot list, and why each was left out: a note
    that could not be read (VK202), or whose name a wikilink cannot hold."""
    left_out = [f"{f.path}: not read ({f.message})" for f in vault.findings if f.code == "VK202"]
    keep = []
    for note in vault.notes:
        bad = unlinkable(note.name)
        if bad:
            shown = ", ".join(repr(c) for c in bad)
            left_out.append(f"{note.path}: its name holds {shown}, which a [[link]] cannot hold")
        else:
            keep.append(note)
    if len(keep) == len(vault.notes):
        return vault, tuple(left_out)
    return dataclasses.replace(vault, notes=tuple(keep)), tuple(left_out)


def _check_target(path: Path) -> None:
    """INDEX.md must be a regular file that may be replaced, or absent."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise VaultkitError(f"{path}: cannot be read: {exc.strerror}") from exc
    if stat.S_ISDIR(info.st_mode):
        raise VaultkitError(
            f"{path}: is a folder, not a file, so the index cannot be written",
            hint=f"rename or remove the folder {path}, then run `vaultkit index` again",
        )
    if not stat.S_ISREG(info.st_mode) and not stat.S_ISLNK(info.st_mode):
        raise VaultkitError(f"{path}: not a regular file", hint=f"remove {path}")
    if not info.st_mode & 0o222:
        raise VaultkitError(
            f"{path}: is read-only, so vaultkit leaves it as it is",
            hint=f"make it writable (chmod u+w {path!s}) to let `vaultkit index` update it",
        )


def read_existing(path: Path) -> str | None:
    """INDEX.md's text, or None when absent; a file that is not UTF-8 is a user error."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise VaultkitError(
            f"{path}: is a folder, not a file, so the index cannot be read or written",
            hint=f"rename or remove the folder {path}, then run `vaultkit index` again",
        ) from exc
    except OSError as exc:
        raise VaultkitError(
            f"{path}: cannot be read: {exc.strerror}",
            hint=f"check the permissions of {path}",
        ) from exc
    except UnicodeDecodeError as exc:
        raise VaultkitError(
            f"{path}: not UTF-8, so it cannot be regenerated safely",
            hint=f"re-save {path} as UTF-8, then run `vaultkit index` again",
        ) from exc


def unified_diff(old: str | None, new: str, name: str) -> str:
    """A ``diff -u`` style text between two versions of one file ("" when equal)."""
    before = [] if old is None else old.splitlines(keepends=True)
    after = new.splitlines(keepends=True)
    source = "/dev/null" if old is None else f"a/{name}"
    return "".join(difflib.unified_diff(before, after, source, f"b/{name}"))


def _names(label: str, paths: tuple[str, ...]) -> str:
    shown = ", ".join(paths[:LOG_NAMES_MAX])
    more = f", … {len(paths) - LOG_NAMES_MAX} more" if len(paths) > LOG_NAMES_MAX else ""
    return f"{label} {len(paths)}" + (f" ({shown}{more})" if paths else "")


def log_message(outcome: IndexOutcome) -> str:
    """The one log line of a run: what changed, ghosts pruned, orphans and degraded notes."""
    state = "updated" if outcome.changed else "unchanged"
    return "; ".join(
        (
            f"index: {INDEX_NAME} {state}, {outcome.listed} notes listed"
            + (", old format adopted" if outcome.adopted and outcome.changed else ""),
            _names("ghost lines pruned", outcome.pruned),
            _names("orphans", outcome.orphans),
            _names("degraded", outcome.degraded),
            _names("left out", outcome.left_out),
        )
    )


def _refuse_link(vault_root: Path, path: Path) -> None:
    """Never write through a symbolic link: the rename would replace the link with a file
    (or, for a linked folder, change a file outside the vault)."""
    if not through_link(vault_root, INDEX_NAME):
        return
    store = store_of_wiki(vault_root)
    problem = read_problem(store, path) if store is not None else ""
    if problem:  # a link out of a shared store: never copy what it points to into the repo
        raise VaultkitError(
            f"{path}: {problem}; vaultkit neither reads nor writes through it",
            hint=f"remove the link (rm -- {path}, or git rm it), then run `vaultkit index` again",
        )
    raise VaultkitError(
        f"{path}: is a symbolic link; vaultkit does not write through links",
        hint="replace the link with a regular copy of the file it points to, "
        "then run `vaultkit index` again",
    )


def _write(path: Path, text: str) -> None:
    _check_target(path)
    try:
        write_if_changed(path, text)
    except OSError as exc:  # immutable (chattr +i), a read-only folder or file system
        raise VaultkitError(
            f"{path}: cannot be written: {exc.strerror or exc}",
            hint=f"check that {path} and its folder may be written (lsattr, mount options)",
        ) from exc


def regenerate_index(
    vault_root: Path,
    *,
    dry_run: bool = False,
    check: bool = False,
    vault: Vault | None = None,
    config: Config | None = None,
    state_dir: Path | None = None,
) -> IndexOutcome:
    """Regenerate ``vault_root/INDEX.md`` from its notes, keeping hand-written text.

    Writes atomically and only when the text changes, then appends one line to the store's log.
    ``check`` and ``dry_run`` only compute the outcome (and its diff): they never write or log.
    ``vault`` may pass an already loaded vault of ``vault_root``, ``config`` its settings and
    ``state_dir`` its state folder when the caller has them.
    """
    if config is None:
        config = load_config(config_file_for_vault(vault_root))
    loaded = vault if vault is not None else load_vault(vault_root, state_dir=state_dir)
    loaded, left_out = _listable(loaded)
    path = vault_root / INDEX_NAME
    existing = read_existing(path)
    plan = vault_index_plan(loaded, existing, description_max=config.index.description_max)
    outcome = IndexOutcome(
        path=path,
        changed=plan.text != existing,
        diff=unified_diff(existing, plan.text, INDEX_NAME),
        pruned=plan.pruned,
        orphans=orphans(loaded),
        degraded=degraded(loaded),
        listed=plan.listed,
        adopted=plan.adopted,
        left_out=left_out,
    )
    if not (dry_run or check):
        _refuse_link(vault_root, path)
        if outcome.changed:
            _write(path, plan.text)
        state = state_dir if state_dir is not None else state_dir_for_vault(vault_root)
        append_log(state / LOG_NAME, log_message(outcome))
    return outcome
