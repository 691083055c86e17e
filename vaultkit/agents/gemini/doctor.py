"""``vaultkit doctor`` for Gemini CLI: its CLI, vaultkit's hooks, and whether the folder is trusted.

Gemini CLI runs no configured hook in an untrusted folder (:mod:`.trust`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from vaultkit.agents.doctor import Finding, other
from vaultkit.agents.gemini import AGENT, hooks, trust
from vaultkit.agents.install import Scope, ScopeStatus
from vaultkit.errors import VaultkitError

ALWAYS = False  # one "not on this machine" line when Gemini CLI is absent


def findings(
    rows: list[ScopeStatus], folder: Path, env: Mapping[str, str], *, others_installed: bool
) -> list[Finding]:
    """Gemini CLI's CLI, hook files and folder trust."""
    return other(AGENT.name, rows, folder, env, trusts)


def trusts(hooked: list[ScopeStatus], folder: Path, env: Mapping[str, str]) -> list[Finding]:
    """Whether Gemini CLI trusts the project folder (it runs no hook in an untrusted one)."""
    try:
        user = hooks.hook_data(Scope.user, folder)[1]
    except VaultkitError:
        user = {}
    state = trust.folder_trust(folder, user, env)
    if state.trusted:
        return [Finding("gemini folder trust", "ok", f"{folder} is trusted ({state.why})")]
    return [
        Finding(
            "gemini folder trust",
            "warn",
            f"Gemini CLI runs no hooks in {folder}: the folder is not trusted ({state.why})",
            f"run `gemini` in {folder} and trust the folder when it asks",
        )
    ]
