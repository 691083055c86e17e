"""Gemini CLI as a distillation backend: ``gemini --skip-trust -o json`` in a private home.

Gemini CLI 0.61 has no flag that turns hooks or chat recording off, so the child gets a private
``GEMINI_CLI_HOME`` whose ``.gemini/settings.json`` is :func:`child_settings` (hooks off,
API-key auth, no telemetry), a private working folder (a project's own ``.gemini/settings.json``
could turn hooks back on) and ``TMPDIR`` inside the same folder, which is removed afterwards —
with the chat file the child wrote, so it is never archived as a session. That home holds no
Google login: the child needs an API key in the environment (``GEMINI_API_KEY``, or Vertex AI's
variables), and without one the attempt is ``infra`` at once with the reason instead of a child
waiting for a browser login. ``-o json`` prints ``{"response", "stats": {"models": {name:
{"tokens": …}}}}`` on stdout; a failed run prints ``{"error": {"message"}}`` at the end of
stderr, after the stack trace, and exits non-zero. The worker runs the child
(:mod:`vaultkit.session.distill.agentcli`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from vaultkit.agents.gemini import AGENT
from vaultkit.agents.parts import Answer
from vaultkit.base.config import DistillConfig

HINT = "check GEMINI_API_KEY, the Gemini quota or distill.gemini_path in vaultkit.toml"
INSTALL = 'install Gemini CLI, set [distill] gemini_path, or backend = "offline" in vaultkit.toml'
# Variables Gemini CLI gives its hooks (observed with 0.61): they describe the user's session.
SESSION_VARS = frozenset(
    {"GEMINI_SESSION_ID", "GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR", "GEMINI_CLI_HOME"}
)


def program(settings: DistillConfig) -> str:
    return settings.gemini_path


def model(settings: DistillConfig) -> str:
    return settings.gemini_model


def argv(binary: str, model: str) -> list[str]:
    """``gemini --skip-trust -o json [-m MODEL]``: the prompt on stdin, the answer as JSON."""
    chosen = ["--model", model] if model else []
    return [binary, *AGENT.child_argv[1:], "--output-format", "json", *chosen]


def child_settings(auth_type: str = "gemini-api-key") -> dict[str, Any]:
    """``settings.json`` for a distillation child's private ``GEMINI_CLI_HOME``: no hooks (the
    user's and the project's alike, as long as the project does not re-enable them), no
    telemetry, no update checks."""
    return {
        "hooksConfig": {"enabled": False},
        "security": {"auth": {"selectedType": auth_type}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    }


def auth_type(env: Mapping[str, str]) -> str:
    """The auth a child with a private home can use (``gemini-api-key``, ``vertex-ai``), or
    ``""`` when the environment has no API key (a Google-account login lives in ``~/.gemini``)."""
    if env.get("GEMINI_API_KEY"):
        return "gemini-api-key"
    vertex = env.get("GOOGLE_API_KEY") or (
        env.get("GOOGLE_CLOUD_PROJECT") and env.get("GOOGLE_CLOUD_LOCATION")
    )
    if env.get("GOOGLE_GENAI_USE_VERTEXAI") == "true" and vertex:
        return "vertex-ai"
    return ""


def unavailable(env: Mapping[str, str]) -> str:
    """Why the child cannot run without an API key, naming the user's own login."""
    if auth_type(env):
        return ""
    selected = _selected_auth(env)
    login = f" (Gemini CLI here logs in with {selected!r})" if selected else ""
    return (
        f"gemini backend needs GEMINI_API_KEY (or Vertex AI variables) in the environment{login}: "
        "the distillation child runs with a private Gemini home that has no Google login"
    )


def _selected_auth(env: Mapping[str, str]) -> str:
    home = env.get("GEMINI_CLI_HOME") or env.get("HOME") or os.path.expanduser("~")
    try:
        with open(os.path.join(home, ".gemini", "settings.json"), "rb") as handle:
            settings = json.loads(handle.read())
        selected = settings["security"]["auth"]["selectedType"]
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    return selected if isinstance(selected, str) else ""


def prepare(private: str, env: Mapping[str, str]) -> tuple[dict[str, str], str]:
    """A private home (``home/.gemini/settings.json``: :func:`child_settings`), a private
    working folder and ``TMPDIR``, all inside ``private``; the user's Gemini session variables
    dropped."""
    home, scratch, work = (os.path.join(private, part) for part in ("home", "tmp", "work"))
    os.makedirs(os.path.join(home, ".gemini"), 0o700)
    os.mkdir(scratch, 0o700)
    os.mkdir(work, 0o700)
    settings = json.dumps(child_settings(auth_type(env)), indent=2) + "\n"
    with open(os.path.join(home, ".gemini", "settings.json"), "w", encoding="utf-8") as handle:
        handle.write(settings)
    child = {k: v for k, v in env.items() if k not in SESSION_VARS}
    child.update({"GEMINI_CLI_HOME": home, "TMPDIR": scratch})
    return child, work


def _count(data: object, key: str) -> int:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _usage(stats: object) -> tuple[int, int, str]:
    models = stats.get("models") if isinstance(stats, dict) else None
    if not isinstance(models, dict) or not models:
        return 0, 0, ""
    tokens = {name: m.get("tokens") if isinstance(m, dict) else None for name, m in models.items()}
    inputs = sum(_count(t, "prompt") for t in tokens.values())
    outputs = sum(_count(t, "candidates") + _count(t, "thoughts") for t in tokens.values())
    main = max(tokens, key=lambda name: _count(tokens[name], "total"))
    return inputs, outputs, str(main)


def parse_json(stdout: str) -> dict[str, Any] | None:
    """``gemini -o json`` output (an answer or an error) as data; None when it is not that."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return None
    if not isinstance(data, dict) or not ("response" in data or "error" in data):
        return None
    return data


def error_object(stderr: str) -> str:
    """The JSON object that ends ``stderr`` (where a failed ``gemini -o json`` puts its error),
    or ``""``."""
    start = stderr.rfind("\n{") + 1
    return stderr[start:] if stderr[start:].lstrip().startswith("{") else ""


def answer(stdout: str, stderr: str, model: str = "") -> Answer | None:
    """The answer of ``gemini -o json`` on stdout, else the error object that ends stderr; None
    when neither is there. An error message makes the run a failure."""
    data = parse_json(stdout) or parse_json(error_object(stderr))
    if data is None:
        return None
    text, error = data.get("response"), data.get("error")
    message = error.get("message") if isinstance(error, dict) else error
    failure = str(message) if message else ""
    inputs, outputs, used = _usage(data.get("stats"))
    return Answer(
        text=text if isinstance(text, str) else "",
        failed=bool(failure),
        errors=f"{failure}\n{stderr}".strip(),
        input_tokens=inputs,
        output_tokens=outputs,
        model=used,
    )
