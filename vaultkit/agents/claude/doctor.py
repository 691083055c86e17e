"""``vaultkit doctor`` for Claude Code: in which settings file each hook is, or the plugin.

Claude Code is always reported (vaultkit's first agent): hooks missing from every settings file
are a failure unless the plugin registers them or another agent's hooks are installed instead;
hooks in several scopes run twice, a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from vaultkit.agents import registration
from vaultkit.agents.doctor import EVENTS, Finding, files, resolved
from vaultkit.agents.install import ScopeStatus

ALWAYS = True  # reported even when Claude Code is not on this machine


def findings(
    rows: list[ScopeStatus], folder: Path, env: Mapping[str, str], *, others_installed: bool
) -> list[Finding]:
    """Claude Code's hooks: in which settings file each event is, or the plugin."""
    checks = files(rows, "vaultkit hooks install")
    covered = {event: [r.scope for r in rows if event in r.events] for event in EVENTS}
    absent = [event for event, scopes in covered.items() if not scopes]
    plugin = registration.plugin_enabled(str(folder), env)
    if plugin is not None:
        checks.append(_plugin(plugin, len(absent) < len(EVENTS)))
        absent = []
    if len(absent) == len(EVENTS) and others_installed:
        fix = "vaultkit hooks install --agent claude adds them"
        return [*checks, Finding("hooks", "ok", f"none for Claude Code ({fix})")]
    if absent:
        checks.append(
            Finding(
                "hooks", "fail", f"not installed: {', '.join(absent)}", "vaultkit hooks install"
            )
        )
    twice = [f"{e} ({', '.join(s)})" for e, s in covered.items() if len(s) > 1]
    if twice:
        checks.append(
            Finding(
                "hooks",
                "warn",
                f"installed in several scopes, so they run twice: {'; '.join(twice)}",
                "vaultkit hooks uninstall --scope SCOPE for all but one",
            )
        )
    if not checks:
        where = ", ".join(f"{e} in {s[0]}" for e, s in covered.items())
        checks.append(Finding("hooks", "ok", where))
    return checks + resolved(rows, env)


def _plugin(enabled_in: str, settings_too: bool) -> Finding:
    """Which registration runs the hooks when the Claude Code plugin is enabled."""
    if settings_too:
        return Finding(
            "hooks (plugin)",
            "ok",
            f"the vaultkit plugin is enabled in {enabled_in}, and settings also register the"
            " hooks: the settings entries run them and the plugin's hooks stand down (once each)",
        )
    return Finding("hooks (plugin)", "ok", f"registered by the vaultkit plugin ({enabled_in})")
