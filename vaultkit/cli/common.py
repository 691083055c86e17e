"""Helpers shared by the command modules: the vault or project a command works on, and how a
vault's paths are shown. Typer-free, so the quick paths of :mod:`vaultkit.cli.quick` can use it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from vaultkit.base.store import STORE_DIR, Store, find_store, git_root, read_problem, store_of_wiki
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
        _refuse_linked_wiki(vault)
        return _settled(up_to_date(vault.resolve()))
    wiki = find_store().wiki
    _refuse_linked_wiki(wiki)
    if not wiki.is_dir():
        raise VaultkitError(
            f"{wiki}: this project has no session wiki yet",
            hint="pass a vault folder, e.g. `vaultkit stats examples/sessions/wiki`",
        )
    return _settled(up_to_date(wiki))


def _settled(vault: Path) -> Path:
    """``vault``, after completing (or rolling back) a ``vaultkit mv`` a kill interrupted."""
    from vaultkit.base.store import state_dir_for_vault
    from vaultkit.curate import JOURNAL_NAME

    state_dir = state_dir_for_vault(vault)
    if (state_dir / JOURNAL_NAME).is_file():  # none: the journal module is not even imported
        from vaultkit.curate.journal import settle

        settle(vault, state_dir)
    return vault


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


def _refuse_linked_wiki(vault: Path) -> None:
    """A store's ``wiki/`` that is itself a link out of the store is not read (issue 22)."""
    store = store_of_wiki(vault)
    problem = read_problem(store, vault) if store is not None else ""
    if store is not None and problem:
        raise VaultkitError(
            f"{vault}: this store's wiki/ {problem}, so vaultkit does not read it",
            hint="`vaultkit doctor` names the command that removes the link",
        )


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


def unwritable(root: Path, exc: OSError, nothing: str, again: str) -> VaultkitError:
    """The error for a store that cannot be written (read-only, permissions, full disk): what
    failed, that ``nothing`` happened, and how to recover (``again`` once it is writable)."""
    where = exc.filename or root
    why = exc.strerror or str(exc)
    return VaultkitError(
        f"{where}: cannot write to the store ({why}); {nothing}",
        hint=f"make {root} writable (chmod -R u+w, or remount it read-write), then run: {again}"
        " (sessions that end meanwhile are archived by the next SessionStart's backfill)",
    )


_TRANSCRIPT_HINT = (
    "pass a transcript an agent wrote: Claude Code's ~/.claude/projects/<project>/<id>.jsonl, "
    "a Codex rollout ~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl or a Gemini CLI chat "
    "~/.gemini/tmp/<project>/chats/session-….jsonl"
)


def check_transcript(source: Path, agent: str | None) -> str:
    """The agent whose transcript ``source`` is (``agent`` when given, else found by content);
    refuse anything else (it may live anywhere: the user named it). ``ingest`` and
    ``transcript export`` share it."""
    from vaultkit.agents import known, readers
    from vaultkit.agents.transcripts import file_problem

    if not source.exists() and not source.is_symlink():
        raise VaultkitError(f"{source}: no such transcript file", hint=_TRANSCRIPT_HINT)
    if agent is None:
        found, why = readers.detect(str(source), os.environ)
        if found is None:
            raise VaultkitError(
                f"{source}: not an agent's transcript ({why})", hint=_TRANSCRIPT_HINT
            )
        return found
    if agent not in known.AGENTS:
        raise VaultkitError(
            f"--agent {agent}: no such agent", hint=f"use one of {', '.join(known.names())}"
        )
    problem = file_problem(str(source), os.environ, anywhere=True, agent=agent)
    if problem is not None:
        display = known.get(agent).display
        raise VaultkitError(
            f"{source}: not a {display} transcript ({problem})", hint=_TRANSCRIPT_HINT
        )
    return agent
