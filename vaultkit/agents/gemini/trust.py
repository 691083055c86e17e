"""Whether Gemini CLI trusts a folder, so that it runs the hooks there (read-only).

Gemini CLI runs no configured hook (the user's included) in an untrusted folder. It decides by
its environment switches (``GEMINI_RESTRICTED_MODE``, ``GEMINI_CLI_TRUST_WORKSPACE``), the
``security.folderTrust.enabled`` setting, then the longest matching rule of
``~/.gemini/trustedFolders.json`` (``{"<path>": "TRUST_FOLDER" | "TRUST_PARENT" |
"DO_NOT_TRUST"}``; ``TRUST_PARENT`` covers the rule path's parent;
``GEMINI_CLI_TRUSTED_FOLDERS_PATH`` moves the file), as its ``isPathTrusted`` does. vaultkit
never writes that file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vaultkit.agents import hookmerge
from vaultkit.agents.adapter import Trust, config_dir
from vaultkit.agents.gemini import AGENT
from vaultkit.agents.install import read_or_empty

__all__ = ["Trust", "folder_trust", "folders_file"]


def folders_file(env: Mapping[str, str] | None = None) -> Path:
    """Gemini CLI's trusted-folders file (``GEMINI_CLI_TRUSTED_FOLDERS_PATH`` overrides it)."""
    environ = os.environ if env is None else env
    override = environ.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
    if override:
        return Path(override)
    return Path(config_dir(AGENT, environ)) / "trustedFolders.json"


def folder_trust(
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
    return _rules(project, folders_file(environ))


def _rules(project: Path, path: Path) -> Trust:
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
