"""The ``gemini`` distillation backend: ``gemini --skip-trust -o json`` in a private home.

Gemini CLI 0.61 has no flag that turns hooks or chat recording off, so the child gets a private
``GEMINI_CLI_HOME`` whose ``.gemini/settings.json`` is :func:`vaultkit.agents.gemini.
child_settings` (hooks off, API-key auth, no telemetry), a private working folder (a project's
own ``.gemini/settings.json`` could turn hooks back on) and ``TMPDIR`` inside the same folder,
which is removed afterwards — with the chat file the child wrote, so it is never archived as a
session. That home holds no Google login: the child needs an API key in the environment
(``GEMINI_API_KEY``, or Vertex AI's variables), and without one the attempt is ``infra`` at once
with the reason instead of a child waiting for a browser login. ``-o json`` prints
``{"response", "stats": {"models": {name: {"tokens": …}}}}`` on stdout; a failed run prints
``{"error": {"message"}}`` at the end of stderr, after the stack trace, and exits non-zero.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping

from vaultkit.agents import gemini
from vaultkit.base.config import Config
from vaultkit.base.record import Record
from vaultkit.session.distill.childrun import (
    BackendResult,
    child_env,
    classify,
    missing_binary,
    run_child,
)
from vaultkit.session.distill.costs import NO_USAGE, Usage

NAME = "gemini"
# Variables Gemini CLI gives its hooks (observed with 0.61): they describe the user's session.
SESSION_VARS = frozenset(
    {"GEMINI_SESSION_ID", "GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR", "GEMINI_CLI_HOME"}
)


def gemini_argv(config: Config, binary: str) -> list[str]:
    """``gemini --skip-trust -o json [-m MODEL]``: the prompt on stdin, the answer as JSON."""
    model = ["--model", config.distill.gemini_model] if config.distill.gemini_model else []
    return [binary, *gemini.AGENT.child_argv[1:], "--output-format", "json", *model]


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


def no_key_reason(env: Mapping[str, str]) -> str:
    """Why the gemini backend cannot run without an API key, naming the user's own login."""
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


def gemini_env(base: Mapping[str, str], home: str, scratch: str) -> dict[str, str]:
    """``base`` without the user's Gemini session, pointed at the private ``home``."""
    env = {k: v for k, v in base.items() if k not in SESSION_VARS}
    env.update({"GEMINI_CLI_HOME": home, "TMPDIR": scratch})
    return env


class GeminiAnswer(Record):
    """What ``gemini -o json`` printed: the answer (or the error message) and the usage."""

    text: str
    error: str
    usage: Usage


def _count(data: object, key: str) -> int:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _usage(stats: object) -> Usage:
    models = stats.get("models") if isinstance(stats, dict) else None
    if not isinstance(models, dict) or not models:
        return NO_USAGE
    tokens = {name: m.get("tokens") if isinstance(m, dict) else None for name, m in models.items()}
    inputs = sum(_count(t, "prompt") for t in tokens.values())
    outputs = sum(_count(t, "candidates") + _count(t, "thoughts") for t in tokens.values())
    main = max(tokens, key=lambda name: _count(tokens[name], "total"))
    return Usage(input_tokens=inputs, output_tokens=outputs, model=str(main))


def gemini_answer(stdout: str) -> GeminiAnswer | None:
    """The parts of ``gemini -o json`` output; None when ``stdout`` is not that JSON."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return None
    if not isinstance(data, dict) or not ("response" in data or "error" in data):
        return None
    text, error = data.get("response"), data.get("error")
    message = error.get("message") if isinstance(error, dict) else error
    return GeminiAnswer(
        text=text if isinstance(text, str) else "",
        error=str(message) if message else "",
        usage=_usage(data.get("stats")),
    )


def error_object(stderr: str) -> str:
    """The JSON object that ends ``stderr`` (where a failed ``gemini -o json`` puts its error),
    or ``""``."""
    start = stderr.rfind("\n{") + 1
    return stderr[start:] if stderr[start:].lstrip().startswith("{") else ""


def _private_home(private: str, auth: str) -> tuple[str, str]:
    home, scratch = os.path.join(private, "home"), os.path.join(private, "tmp")
    os.makedirs(os.path.join(home, ".gemini"), 0o700)
    os.mkdir(scratch, 0o700)
    settings = json.dumps(gemini.child_settings(auth), indent=2) + "\n"
    with open(os.path.join(home, ".gemini", "settings.json"), "w", encoding="utf-8") as handle:
        handle.write(settings)
    return home, scratch


def run_gemini(prompt: str, config: Config) -> BackendResult:
    """One ``gemini`` attempt in a private home and folder (both removed afterwards)."""
    base_env = child_env(config)
    binary = shutil.which(config.distill.gemini_path, path=base_env.get("PATH"))
    if binary is None:
        return missing_binary(NAME, config.distill.gemini_path)
    auth = auth_type(base_env)
    if not auth:
        return BackendResult("infra", "", no_key_reason(base_env), NAME)
    with tempfile.TemporaryDirectory(prefix="vaultkit-distill-") as private:
        home, scratch = _private_home(private, auth)
        work = os.path.join(private, "work")
        os.mkdir(work, 0o700)
        env = gemini_env(base_env, home, scratch)
        argv = gemini_argv(config, binary)
        try:
            ran = run_child(argv, prompt, env=env, cwd=work, timeout=config.distill.timeout)
        except OSError as exc:
            return BackendResult("infra", "", f"cannot start {binary}: {exc}", NAME)
    if ran is None:
        return BackendResult("timeout", "", f"no answer within {config.distill.timeout} s", NAME)
    answer = gemini_answer(ran.stdout) or gemini_answer(error_object(ran.stderr))
    if answer is None:  # not the JSON form (a wrapper script?): judge the plain text
        status, detail = classify(ran.returncode, ran.stdout, ran.stderr)
        return BackendResult(status, ran.stdout, detail, NAME)
    code = ran.returncode or int(bool(answer.error))
    status, detail = classify(code, answer.text, f"{answer.error}\n{ran.stderr}".strip())
    return BackendResult(status, answer.text, detail, NAME, answer.usage)
