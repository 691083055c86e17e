"""``vaultkit doctor`` for Codex CLI: its CLI, vaultkit's hooks, and whether Codex trusts them.

Codex skips a hook with no ``[hooks.state]`` record, and one whose record's hash is not the
hook's current one (the hook changed after it was trusted: "Modified since last trusted"); a
project's ``.codex/hooks.json`` loads only in a trusted project (:mod:`.trust`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from vaultkit.agents.codex import AGENT, hooks, trust
from vaultkit.agents.doctor import EVENTS, Finding, other
from vaultkit.agents.install import Scope, ScopeStatus, read_or_empty
from vaultkit.errors import VaultkitError

ALWAYS = False  # one "not on this machine" line when Codex is absent


def findings(
    rows: list[ScopeStatus], folder: Path, env: Mapping[str, str], *, others_installed: bool
) -> list[Finding]:
    """Codex's CLI, hook files and trust."""
    return other(AGENT.name, rows, folder, env, trusts)


def trusts(hooked: list[ScopeStatus], folder: Path, env: Mapping[str, str]) -> list[Finding]:
    """Per scope whose ``hooks.json`` holds vaultkit's hooks: whether Codex trusts each of them
    as it is now, and for the project scope whether the folder is trusted."""
    config = trust.config_file(env)
    text = read_or_empty(config)
    out = []
    for row in hooked:
        try:
            path, data = hooks.hook_data(Scope(row.scope), folder)
        except VaultkitError:
            continue  # reported as a malformed file already
        skipped = trust.untrusted_file(path, data, text)
        out.append(_codex_hooks(row.scope, path, config, skipped, folder))
        if row.scope == Scope.project.value:
            out.append(_codex_project(folder, path, text))
    return out


def _codex_hooks(
    scope: str, path: Path, config: Path, skipped: dict[str, str], folder: Path
) -> Finding:
    """``ok`` when Codex trusts each of vaultkit's hooks in ``path`` as it is now, else why not."""
    name = f"codex trust ({scope})"
    if not skipped:
        return Finding(name, "ok", f"trusted in {config}")
    missing, changed = (_marked(skipped, why) for why in (trust.UNTRUSTED, trust.MODIFIED))
    why = [f"{missing} have no trust record in {config}"] if missing else []
    if changed:
        why.append(
            f"{changed}: the record in {config} is for an earlier definition"
            ' (Codex shows "Modified since last trusted")'
        )
    state = "are installed but not trusted" if missing else "changed since they were trusted"
    return Finding(
        name,
        "warn",
        f"vaultkit's hooks in {path} {state} ({'; '.join(why)}): Codex skips them",
        f"run `codex` in {folder}; {hooks.REVIEW}",
    )


def _marked(skipped: dict[str, str], why: str) -> str:
    """The events (in :data:`EVENTS` order) of the trust keys in ``skipped`` marked ``why``."""
    snake = {key.rsplit(":", 3)[1] for key, mark in skipped.items() if mark == why}
    return ", ".join(e for e in EVENTS if trust.trust_key("", e, 0, 0).split(":")[1] in snake)


def _codex_project(folder: Path, path: Path, config_text: str) -> Finding:
    state = trust.project_trust(folder, config_text)
    if state.trusted:
        return Finding("codex project trust", "ok", f"{folder} is trusted ({state.why})")
    return Finding(
        "codex project trust",
        "warn",
        f"{folder} is not a trusted project ({state.why}): Codex does not load {path}",
        f'run `codex` in {folder} and answer "Trust and continue" to "Trust this folder?"',
    )
