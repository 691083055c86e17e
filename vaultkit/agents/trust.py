"""Whether Codex CLI and Gemini CLI will run vaultkit's installed hooks: what each has trusted.

Codex keeps hook trust and folder trust in ``$CODEX_HOME/config.toml`` (``[hooks.state."<hooks
file>:<event>:<group>:<hook>"] trusted_hash``, the hash of the hook's definition when it was
trusted, and ``[projects."<path>"] trust_level``); Gemini CLI keeps folder trust in
``~/.gemini/trustedFolders.json`` (``{"<path>": "TRUST_FOLDER" | "TRUST_PARENT" |
"DO_NOT_TRUST"}``, the longest matching path wins, as its ``isPathTrusted`` does). Read-only:
vaultkit never writes either file.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vaultkit.agents import codex, gemini, hookmerge
from vaultkit.agents.adapter import config_dir
from vaultkit.base.record import Record


class Trust(Record):
    """Whether a folder is trusted (``None``: no rule says, the CLI asks) and why."""

    trusted: bool | None
    why: str


def codex_config(env: Mapping[str, str] | None = None) -> Path:
    return Path(config_dir(codex.AGENT, env)) / "config.toml"


def read_or_empty(path: Path) -> str:
    """The file's text, or ``""`` when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ""


def codex_untrusted(hooks_file: Path, data: dict[str, Any], config_text: str) -> dict[str, str]:
    """Trust key → ``codex.UNTRUSTED`` or ``codex.MODIFIED`` for each of vaultkit's hooks in
    ``data`` (read from ``hooks_file``) that Codex will skip: trusted neither under the path as
    written nor with symlinks resolved. A stale record under either path beats none."""
    written = str(hooks_file)
    skipped = codex.untrusted(data, written, config_text)
    real = os.path.realpath(hooks_file)
    if real == written:
        return skipped
    also = {key[len(real) :]: why for key, why in codex.untrusted(data, real, config_text).items()}
    return {
        key: codex.MODIFIED if codex.MODIFIED in (why, also[tail]) else why
        for key, why in skipped.items()
        if (tail := key[len(written) :]) in also
    }


def codex_project(project: Path, config_text: str) -> Trust:
    """``[projects."<project>"] trust_level`` of a Codex ``config.toml``."""
    try:
        projects = tomllib.loads(config_text).get("projects")
    except tomllib.TOMLDecodeError:
        return Trust(None, "config.toml is not valid TOML")
    table = projects if isinstance(projects, dict) else {}
    for key in dict.fromkeys((str(project), os.path.realpath(project))):
        entry = table.get(key)
        level = entry.get("trust_level") if isinstance(entry, dict) else None
        if isinstance(level, str):
            return Trust(level == "trusted", f'[projects."{key}"] trust_level = "{level}"')
    return Trust(None, f'no [projects."{project}"] entry')


def gemini_folders(env: Mapping[str, str] | None = None) -> Path:
    """Gemini CLI's trusted-folders file (``GEMINI_CLI_TRUSTED_FOLDERS_PATH`` overrides it)."""
    environ = os.environ if env is None else env
    override = environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
    if override:
        return Path(override)
    return Path(config_dir(gemini.AGENT, environ)) / "trustedFolders.json"


def gemini_folder(
    project: Path, user_settings: dict[str, Any], env: Mapping[str, str] | None = None
) -> Trust:
    """Whether Gemini CLI trusts ``project``: its environment switches, the folder-trust
    setting in the user's ``settings.json``, then the rules of ``trustedFolders.json``."""
    environ = os.environ if env is None else env
    if environ.get("GEMINI_RESTRICTED_MODE") == "true":
        return Trust(False, "GEMINI_RESTRICTED_MODE=true")
    switch = environ.get("GEMINI_CLI_TRUST_WORKSPACE")
    if switch in ("true", "false"):
        return Trust(switch == "true", f"GEMINI_CLI_TRUST_WORKSPACE={switch}")
    security = user_settings.get("security")
    folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
    if isinstance(folder_trust, dict) and folder_trust.get("enabled") is False:
        return Trust(True, "folder trust is turned off (security.folderTrust.enabled: false)")
    return _gemini_rules(project, gemini_folders(environ))


def _gemini_rules(project: Path, path: Path) -> Trust:
    text = read_or_empty(path)
    if not text.strip():
        return Trust(None, f"no rule for it in {path}")
    try:
        rules = json.loads(hookmerge.strip_comments(text))
    except ValueError:
        return Trust(False, f"{path} is not valid JSON (Gemini CLI refuses to start)")
    if not isinstance(rules, dict):
        return Trust(False, f"{path} is not a JSON object (Gemini CLI refuses to start)")
    location = os.path.realpath(project)
    best, level = -1, ""
    for rule, value in rules.items():
        base = os.path.dirname(rule) if value == "TRUST_PARENT" else rule
        real = os.path.realpath(base)
        inside = os.path.commonpath([real, location]) == real if os.path.isabs(real) else False
        if inside and len(rule) > best:
            best, level = len(rule), str(value)
    if level in ("TRUST_FOLDER", "TRUST_PARENT"):
        return Trust(True, f"{level} in {path}")
    if level == "DO_NOT_TRUST":
        return Trust(False, f"DO_NOT_TRUST in {path}")
    return Trust(None, f"no rule for it in {path}")
