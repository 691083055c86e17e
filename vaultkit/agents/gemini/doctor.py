"""``vaultkit doctor`` for Gemini CLI: its CLI, vaultkit's hooks, and whether the folder is trusted.

Gemini CLI runs no configured hook in an untrusted folder (:mod:`.trust`). Headless ``gemini -p``
there exits 55 and suggests ``--skip-trust``, which runs the user's hooks but silently skips the
project's ``.gemini/settings.json`` (checked with 0.61, docs/agents.md): doctor says which of
vaultkit's hooks that leaves out.
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
    project = [r.path for r in hooked if r.scope == Scope.project.value]
    return [
        Finding(
            "gemini folder trust",
            "warn",
            f"Gemini CLI runs no hooks in {folder}: the folder is not trusted ({state.why}); "
            + skip_trust(project),
            f"run `gemini` in {folder} and trust the folder when it asks",
        )
    ]


def skip_trust(project_files: list[str]) -> str:
    """What the ``--skip-trust`` that headless Gemini suggests would do to vaultkit's hooks."""
    said = "headless `gemini -p` there exits 55 and suggests --skip-trust, which runs"
    if project_files:
        where = ", ".join(project_files)
        return f"{said} without the project's hooks: vaultkit's in {where} would not run"
    return f"{said} the user's hooks (vaultkit's among them) but never the project's"
