"""Claude Code as a distillation backend: the ``claude -p`` child and its JSON answer.

``claude -p --output-format json`` with no tools, no MCP servers, no hooks and no saved session;
the answer text is the JSON's ``result``, ``is_error`` says whether the CLI called it an error,
and ``usage``/``total_cost_usd`` are what it cost (the only backend that reports dollars). The
worker runs the child (:mod:`vaultkit.session.distill.agentcli`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from vaultkit.agents.parts import Answer
from vaultkit.base.config import DistillConfig

HINT = "check `claude` login/quota or distill.claude_path in vaultkit.toml"
INSTALL = 'install Claude Code, set [distill] claude_path, or backend = "offline" in vaultkit.toml'


def program(settings: DistillConfig) -> str:
    return settings.claude_path


def model(settings: DistillConfig) -> str:
    return settings.model


def unavailable(env: Mapping[str, str]) -> str:
    return ""


def prepare(private: str, env: Mapping[str, str]) -> tuple[dict[str, str], str]:
    """The child runs in the private folder with the cleaned environment as it is."""
    return dict(env), private


def argv(binary: str, model: str) -> list[str]:
    """The ``claude -p`` command line: no tools, no MCP servers, no hooks, no saved session."""
    return [
        binary,
        "-p",
        "--model",
        model,
        "--output-format",
        "json",
        "--no-session-persistence",
        "--settings",
        json.dumps({"disableAllHooks": True}),
        "--tools",
        "",
        "--strict-mcp-config",
    ]


def _count(data: Mapping[str, object], key: str) -> int:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _dollars(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def answer(stdout: str, stderr: str, model: str = "") -> Answer | None:
    """The parts of ``claude -p --output-format json`` output; None when ``stdout`` is not it.
    Its input tokens count cache reads and writes; its model is the first of ``modelUsage``."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "result":
        return None
    text, subtype = data.get("result"), data.get("subtype")
    text = text if isinstance(text, str) else ""
    subtype = subtype if isinstance(subtype, str) else ""
    raw = data.get("usage")
    usage: Mapping[str, object] = raw if isinstance(raw, dict) else {}
    models = data.get("modelUsage")
    inputs = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    return Answer(
        text=text,
        failed=data.get("is_error") is True,
        errors=stderr or text,
        note="" if subtype in ("", "success") else subtype,
        input_tokens=sum(_count(usage, key) for key in inputs),
        output_tokens=_count(usage, "output_tokens"),
        cost_usd=_dollars(data.get("total_cost_usd")),
        model=next(iter(models), "") if isinstance(models, dict) else "",
    )
