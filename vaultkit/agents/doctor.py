"""``vaultkit doctor``'s agent part: per agent its CLI, vaultkit's hooks and whether they will run.

Claude Code: the hooks in its settings files (or the plugin). Codex CLI: the hooks in its
``hooks.json`` files, which of them Codex has no trust record for, and whether a project whose
``.codex/hooks.json`` holds them is trusted; a record whose hash is not the hook's current one
(the hook changed after it was trusted) counts as not trusted, as Codex counts it. Gemini CLI:
the hooks in its ``settings.json`` files and whether the project folder is trusted. An agent
that is not on this machine is one ``ok`` line; hooks installed but not trusted are a warning
with the fix.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from vaultkit.agents import agent_install, codex, detect, install, registration, trust
from vaultkit.agents.install import Scope, ScopeStatus
from vaultkit.base.record import Record
from vaultkit.errors import VaultkitError

Status = Literal["ok", "warn", "fail"]
EVENTS = ("SessionStart", "SessionEnd")


class Finding(Record):
    """One doctor line: what was checked, how it went, and the fix when it is not ok."""

    name: str
    status: Status
    detail: str
    fix: str = ""


def findings(folder: Path, env: Mapping[str, str] | None = None) -> list[Finding]:
    """Every agent's findings for the project ``folder``: Claude Code first."""
    environ = os.environ if env is None else env
    rows = {
        name: [agent_install.scope_status(name, s, folder) for s in agent_install.SCOPES]
        for name in agent_install.NAMES
    }
    others = any(r.events for name_rows in rows.values() for r in name_rows)
    found = detect.found(environ)
    result = claude(folder, environ, others_installed=others)
    absent = [n for n in agent_install.NAMES if n not in found and not _any_file(rows[n])]
    for name in agent_install.NAMES:
        if name not in absent:
            result += _other(name, rows[name], folder, environ)
    if absent:
        why = "not on this machine (no CLI on PATH, no config folder, no vaultkit hooks)"
        result.append(Finding("agents", "ok", f"{', '.join(absent)}: {why}"))
    return result


def _any_file(rows: list[ScopeStatus]) -> bool:
    return any(r.events or r.error for r in rows)


def _files(rows: list[ScopeStatus], fix: str) -> list[Finding]:
    """Malformed hook files and hooks pointing at a missing program."""
    out = [
        Finding(f"hooks ({_label(r)})", "fail", r.error, f"fix the JSON in {r.path}")
        for r in rows
        if r.error
    ]
    out += [
        Finding(
            f"hooks ({_label(r)})",
            "fail",
            f"{r.path} points at a missing program: {', '.join(r.missing)}",
            f"{fix} --scope {r.scope}",
        )
        for r in rows
        if r.missing
    ]
    return out


def _label(row: ScopeStatus) -> str:
    return row.scope if row.agent == "claude" else f"{row.agent} {row.scope}"


def claude(folder: Path, env: Mapping[str, str], *, others_installed: bool) -> list[Finding]:
    """Claude Code's hooks: in which settings file each event is, or the plugin."""
    rows = [install.scope_status(scope, folder) for scope in Scope]
    checks = _files(rows, "vaultkit hooks install")
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
    return checks


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


def _other(
    name: str, rows: list[ScopeStatus], folder: Path, env: Mapping[str, str]
) -> list[Finding]:
    """Codex's or Gemini's CLI, hook files and trust."""
    cli = detect.program(name)
    located = shutil.which(cli, path=env.get("PATH", os.defpath))
    hooked = [r for r in rows if r.events]
    out = [_cli(name, located, bool(hooked))]
    out += _files(rows, f"vaultkit hooks install --agent {name}")
    if not hooked:
        if not any(r.error for r in rows):
            fix = f"vaultkit hooks install --agent {name} adds them"
            out.append(Finding(f"hooks ({name})", "ok", f"none installed ({fix})"))
        return out
    out += [_events(name, r) for r in hooked]
    if name == "codex":
        return out + _codex_trust(hooked, folder, env)
    return [*out, _gemini_trust(folder, env)]


def _cli(name: str, located: str | None, hooked: bool) -> Finding:
    if located:
        return Finding(f"{name} CLI", "ok", located)
    status: Status = "warn" if hooked else "ok"
    cli = detect.program(name)
    fix = f"install {cli}, or vaultkit hooks uninstall --agent {name}"
    return Finding(f"{name} CLI", status, f"{cli!r} is not on PATH", fix)


def _events(name: str, row: ScopeStatus) -> Finding:
    missing = [e for e in EVENTS if e not in row.events]
    label = f"hooks ({name} {row.scope})"
    if missing:
        return Finding(
            label,
            "warn",
            f"{row.path} lacks {', '.join(missing)}",
            f"vaultkit hooks install --agent {name} --scope {row.scope}",
        )
    return Finding(label, "ok", f"{', '.join(EVENTS)} in {row.path}")


def _codex_trust(hooked: list[ScopeStatus], folder: Path, env: Mapping[str, str]) -> list[Finding]:
    config = trust.codex_config(env)
    text = trust.read_or_empty(config)
    out = []
    for row in hooked:
        try:
            path, data = agent_install.hook_data("codex", Scope(row.scope), folder)
        except VaultkitError:
            continue  # reported as a malformed file already
        skipped = trust.codex_untrusted(path, data, text)
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
    missing, changed = (_marked(skipped, why) for why in (codex.UNTRUSTED, codex.MODIFIED))
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
        f"run `codex` in {folder}, type /hooks, and press t on each vaultkit hook",
    )


def _marked(skipped: dict[str, str], why: str) -> str:
    """The events (in :data:`EVENTS` order) of the trust keys in ``skipped`` marked ``why``."""
    snake = {key.rsplit(":", 3)[1] for key, mark in skipped.items() if mark == why}
    return ", ".join(e for e in EVENTS if codex.trust_key("", e, 0, 0).split(":")[1] in snake)


def _codex_project(folder: Path, path: Path, config_text: str) -> Finding:
    state = trust.codex_project(folder, config_text)
    if state.trusted:
        return Finding("codex project trust", "ok", f"{folder} is trusted ({state.why})")
    return Finding(
        "codex project trust",
        "warn",
        f"{folder} is not a trusted project ({state.why}): Codex does not load {path}",
        f"run `codex` in {folder} and answer yes when it asks whether to trust the folder",
    )


def _gemini_trust(folder: Path, env: Mapping[str, str]) -> Finding:
    try:
        user = agent_install.hook_data("gemini", Scope.user, folder)[1]
    except VaultkitError:
        user = {}
    state = trust.gemini_folder(folder, user, env)
    if state.trusted:
        return Finding("gemini folder trust", "ok", f"{folder} is trusted ({state.why})")
    return Finding(
        "gemini folder trust",
        "warn",
        f"Gemini CLI runs no hooks in {folder}: the folder is not trusted ({state.why})",
        f"run `gemini` in {folder} and trust the folder when it asks",
    )
