"""Regenerate a vault's INDEX.md on disk (atomic, only on change) and log what was found."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.config import Config, load_config
from vaultkit.base.fsio import write_if_changed
from vaultkit.base.log import append_log
from vaultkit.base.store import config_file_for_vault, state_dir_for_vault
from vaultkit.errors import VaultkitError
from vaultkit.vault.analysis import degraded, orphans
from vaultkit.vault.index import INDEX_NAME, vault_index_plan
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


def read_existing(path: Path) -> str | None:
    """INDEX.md's text, or None when absent; a file that is not UTF-8 is a user error."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
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
        )
    )


def _refuse_link(vault_root: Path, path: Path) -> None:
    """Never write through a symbolic link: the rename would replace the link with a file
    (or, for a linked folder, change a file outside the vault)."""
    if through_link(vault_root, INDEX_NAME):
        raise VaultkitError(
            f"{path}: is a symbolic link; vaultkit does not write through links",
            hint="replace the link with a regular copy of the file it points to, "
            "then run `vaultkit index` again",
        )


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
    )
    if not (dry_run or check):
        _refuse_link(vault_root, path)
        write_if_changed(path, plan.text)
        state = state_dir if state_dir is not None else state_dir_for_vault(vault_root)
        append_log(state / LOG_NAME, log_message(outcome))
    return outcome
