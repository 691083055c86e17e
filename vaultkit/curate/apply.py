"""``vaultkit mv``'s I/O: check the move is safe, plan it, prove it, then do it through the
journal; INDEX.md and the search index follow."""

from __future__ import annotations

import contextlib
import json
import posixpath
import sqlite3
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vaultkit.base.store import state_dir_for_vault
from vaultkit.curate import journal as jr
from vaultkit.curate.plan import (
    LINK_FORMATS,
    Blocked,
    LinkFormat,
    Rewrite,
    check_note,
    moved_files,
    plan_links,
    refuse_clashes,
    rewrite_text,
)
from vaultkit.errors import VaultkitError
from vaultkit.search.corpus import vault_corpus
from vaultkit.search.index import update_index
from vaultkit.vault import scoped
from vaultkit.vault.cache import cache_path, remember_written
from vaultkit.vault.index import INDEX_NAME
from vaultkit.vault.indexer import regenerate_index, unified_diff
from vaultkit.vault.load import load_vault, through_link
from vaultkit.vault.model import Note
from vaultkit.vault.parse import parse_note
from vaultkit.vault.resolve import FileIndex, ResolvedLink, by_source
from vaultkit.vault.value import Vault


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What a move did (or, with ``dry_run``, would do)."""

    moves: tuple[tuple[str, str], ...]
    rewrites: tuple[Rewrite, ...]
    changed: tuple[str, ...]  # notes rewritten, by their path after the move
    diff: str
    newly_resolved: tuple[tuple[str, int, int, str], ...]
    link_format: LinkFormat
    dry_run: bool
    index_updated: bool = False
    skipped: tuple[str, ...] = ()
    recovered: tuple[str, ...] = field(default=())
    recovery: str = ""  # the line saying what was done with an interrupted move

    def as_json(self) -> dict[str, object]:
        return {
            "moved": [{"from": a, "to": b} for a, b in self.moves],
            "rewritten": [
                {"note": r.source, "line": r.line, "col": r.col, "from": r.old, "to": r.new}
                for r in self.rewrites
            ],
            "changed": list(self.changed),
            "ghosts_now_resolved": [
                {"note": s, "line": line, "col": col, "target": t}
                for s, line, col, t in self.newly_resolved
            ],
            "link_format": self.link_format,
            "dry_run": self.dry_run,
            "index_updated": self.index_updated,
            "left_alone": list(self.skipped),
            "recovered": list(self.recovered),
            "recovery": self.recovery,
        }


def link_format(root: Path) -> LinkFormat:
    """The vault's "New link format" (``.obsidian/app.json`` ``newLinkFormat``), as Obsidian
    reads it: "shortest" when the file or the setting is missing or not one it knows."""
    try:
        data = json.loads((root / ".obsidian" / "app.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "shortest"
    value = data.get("newLinkFormat") if isinstance(data, dict) else None
    for fmt in LINK_FORMATS:
        if value == fmt:
            return fmt
    return "shortest"


def vault_path(root: Path, given: str) -> str:
    """``given`` (relative to the vault, or absolute or ``./``/``../`` on disk inside it) as a
    vault path."""
    text = given.replace("\\", "/")
    candidate = Path(given)
    if candidate.is_absolute() or given.startswith(("./", "../")):
        try:
            text = candidate.absolute().relative_to(root.absolute()).as_posix()
        except ValueError:
            try:
                text = candidate.resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                raise VaultkitError(
                    f"{given}: outside the vault {root}", hint="mv moves files inside one vault"
                ) from None
    norm = posixpath.normpath(text) if text else ""
    if norm in ("", ".") or norm.startswith("../") or norm == "..":
        raise VaultkitError(
            f"{given}: outside the vault {root}", hint="mv moves files inside one vault"
        )
    if any(part.startswith(".") for part in norm.split("/")):
        raise VaultkitError(
            f"{given}: a dot-file or dot-folder is no part of the vault (Obsidian hides it)",
            hint="pick a destination without a leading '.' in any folder or file name",
        )
    return norm


def _destination(root: Path, index: FileIndex, old: str, new: str) -> str:
    """Where ``old`` goes: into ``new`` when that is a folder, else ``new`` (``.md`` added to
    a note's new name without it, as Obsidian's rename does)."""
    if (root / new).is_dir() and not (root / old).is_dir():
        return f"{new}/{posixpath.basename(old)}"
    if old in index.notes and not new.lower().endswith(".md"):
        return new + ".md"
    return new


def _refuse_links(root: Path, old: str, new: str) -> None:
    for path in (old, posixpath.dirname(new)):
        if path and through_link(root, path):
            raise VaultkitError(
                f"{path}: a symbolic link is on the way; mv never writes through a link",
                hint="move the file the link points to, or the link itself by hand",
            )


LinksFor = Callable[[Iterable[str], Collection[str]], Sequence[ResolvedLink]]


@dataclass(frozen=True, slots=True)
class Facts:
    """What a move reads of a vault: its file index, and ``links_for(paths, sources)``: the
    resolved links of at least the notes in ``sources`` and of every note with a link that
    resolves to one of ``paths`` or has one's name (:func:`vaultkit.curate.plan.plan_links`
    reads no other)."""

    index: FileIndex
    links_for: LinksFor

    @classmethod
    def of(cls, vault: Vault) -> Facts:
        """Every link of a loaded vault."""
        return cls(vault.index, lambda _paths, _sources: vault.links)


def vault_facts(root: Path, state: Path) -> Facts:
    """The facts through the warm note cache, decoding only the notes a move may change
    (:mod:`vaultkit.vault.scoped`); without a usable cache, the whole vault loaded."""
    found = scoped.warm(root, state_dir=state)
    if found is not None:
        return Facts(found.index, found.links_naming)
    return Facts.of(load_vault(root, state_dir=state))


@dataclass(frozen=True, slots=True)
class Prepared:
    moves: dict[str, str]
    rename: tuple[str, str]
    rewrites: tuple[Rewrite, ...]
    writes: tuple[jr.Write, ...]
    parsed: tuple[Note, ...]  # each write's text as the loader parses it, at its new path
    diff: str
    newly: tuple[tuple[str, int, int, str], ...]
    fmt: LinkFormat


def _blocked_error(blocked: list[Blocked]) -> VaultkitError:
    shown = "\n".join(b.render() for b in blocked[:20])
    more = f"\n... and {len(blocked) - 20} more" if len(blocked) > 20 else ""
    return VaultkitError(
        f"the move would break {len(blocked)} link(s); nothing was changed:\n{shown}{more}",
        hint="edit those links by hand (or rename a clashing file), then run mv again",
    )


def prepare(root: Path, facts: Facts, old_given: str, new_given: str) -> Prepared:
    """Check, plan and prove a move of ``old_given`` to ``new_given`` in the vault at ``root``."""
    if Path(old_given).exists() and not (root / old_given).exists():  # paths from here
        old_given, new_given = str(Path(old_given).absolute()), str(Path(new_given).absolute())
    old = vault_path(root, old_given)
    new = _destination(root, facts.index, old, vault_path(root, new_given))
    _refuse_links(root, old, new)
    moves = moved_files(facts.index, old, new)
    refuse_clashes(facts.index.paths, moves)
    fmt = link_format(root)
    links = facts.links_for([*moves, *moves.values()], moves.keys())
    plan = plan_links(facts.index, links, moves, fmt)
    blocked = list(plan.blocked)
    per_note: dict[str, list[Rewrite]] = {}
    for rw in plan.rewrites:
        per_note.setdefault(rw.source, []).append(rw)
    by_note = by_source(links)
    writes: list[jr.Write] = []
    parsed: list[Note] = []
    diffs: list[str] = []
    for source, rewrites in sorted(per_note.items()):
        here = moves.get(source, source)
        if through_link(root, source):
            why = "is in a note reached through a symbolic link (never written through)"
            blocked.extend(Blocked(source, r.line, r.col, r.old, why) for r in rewrites)
            continue
        try:
            text = (root / source).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise VaultkitError(f"{source}: cannot be read ({exc}); nothing was changed") from exc
        new_text, failed = rewrite_text(text, rewrites)
        blocked.extend(failed)
        after = parse_note(here, new_text.encode("utf-8"))
        if not failed:
            blocked.extend(check_note(by_note.get(source, ()), moves, plan.index, source, after))
        writes.append(jr.Write(here, jr.digest(text), new_text))
        parsed.append(after)
        diffs.append(unified_diff(text, new_text, here))
    if blocked:
        raise _blocked_error(blocked)
    moved = "\n".join(f"rename {a} -> {b}" for a, b in sorted(moves.items()))
    return Prepared(
        moves,
        (old, new),
        plan.rewrites,
        tuple(writes),
        tuple(parsed),
        moved + "\n" + "".join(diffs),
        plan.newly_resolved,
        fmt,
    )


def _remember(root: Path, state: Path, prep: Prepared, skipped: frozenset[str]) -> None:
    """Give the note cache the notes just written, so the next load reads and hashes them
    instead of parsing them again."""
    written = [
        (note, write.text.encode("utf-8"))
        for write, note in zip(prep.writes, prep.parsed, strict=True)
        if write.path not in skipped
    ]
    remember_written(cache_path(root, state), root, written)


def follow(root: Path, state_dir: Path) -> bool:
    """Regenerate INDEX.md when the vault has one and re-index search when it has an index;
    True when INDEX.md changed. Derived state: a failure here leaves the move done."""
    changed = False
    if (root / INDEX_NAME).is_file():
        changed = regenerate_index(root, state_dir=state_dir).changed
    corpus = vault_corpus(root)
    if corpus.index_path.is_file():
        with contextlib.suppress(VaultkitError, sqlite3.Error, OSError):
            update_index(corpus)  # on failure the next search refreshes it
    return changed


def move(
    root: Path, old: str, new: str, *, dry_run: bool = False, state_dir: Path | None = None
) -> MoveOutcome:
    """Move ``old`` to ``new`` inside the vault at ``root``, rewriting every link that would
    otherwise change its target. Nothing changes when any link cannot be kept. Under the
    vault's write lock, after completing (or rolling back) a move a kill interrupted."""
    state = state_dir if state_dir is not None else state_dir_for_vault(root)
    if dry_run:
        return _move(root, old, new, state, None, dry_run=True)
    with jr.locked(state):
        return _move(root, old, new, state, jr.recover(root, state), dry_run=False)


def _move(
    root: Path, old: str, new: str, state: Path, found: jr.Recovery | None, *, dry_run: bool
) -> MoveOutcome:
    recovered = () if found is None else found.journal.rename
    recovery = "" if found is None else found.line()
    prep = prepare(root, vault_facts(root, state), old, new)
    changed = tuple(w.path for w in prep.writes)
    outcome = MoveOutcome(
        tuple(sorted(prep.moves.items())),
        prep.rewrites,
        changed,
        prep.diff,
        prep.newly,
        prep.fmt,
        dry_run,
        recovered=recovered,
        recovery=recovery,
    )
    if dry_run:
        return outcome
    journal = jr.Journal(prep.rename, prep.writes)
    path = jr.begin(state, journal)
    skipped = jr.play(root, journal)
    jr.finish(path)
    _remember(root, state, prep, frozenset(skipped))
    updated = follow(root, state)
    return MoveOutcome(
        outcome.moves,
        outcome.rewrites,
        changed,
        outcome.diff,
        outcome.newly_resolved,
        prep.fmt,
        False,
        updated,
        tuple(skipped),
        recovered,
        recovery,
    )
