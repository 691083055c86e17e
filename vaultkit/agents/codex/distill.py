"""Codex CLI as a distillation backend: ``codex exec`` with hooks disabled and no rollout kept.

The child is Codex's own child command line (:data:`vaultkit.agents.codex.AGENT` ``child_argv``:
``codex exec --disable hooks --disable plugins --disable remote_plugin --disable apps -c
analytics.enabled=false --ephemeral --skip-git-repo-check --sandbox read-only -``: no hooks and
no outside traffic of Codex's own, whatever the user's ``config.toml`` says) plus ``--json``,
which prints the run as JSON lines: the answer is the last ``item.completed`` of type
``agent_message``, token usage is in ``turn.completed``, and a failure is an ``error`` or
``turn.failed`` event (Codex 0.171 reports no cost, so the cost is zero). It uses the user's
``CODEX_HOME`` (login and model provider), starts in a private folder with ``TMPDIR`` inside it,
and ``--ephemeral`` writes no rollout, so the child is never a session to archive. The worker
runs the child (:mod:`vaultkit.session.distill.agentcli`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from vaultkit.agents.codex import AGENT
from vaultkit.agents.parts import Answer
from vaultkit.base.config import DistillConfig

HINT = "check `codex login`/quota or distill.codex_path in vaultkit.toml"
INSTALL = 'install Codex CLI, set [distill] codex_path, or backend = "offline" in vaultkit.toml'


def program(settings: DistillConfig) -> str:
    return settings.codex_path


def model(settings: DistillConfig) -> str:
    return settings.codex_model


def unavailable(env: Mapping[str, str]) -> str:
    return ""


def prepare(private: str, env: Mapping[str, str]) -> tuple[dict[str, str], str]:
    """The child runs in the private folder, its ``TMPDIR`` inside it."""
    scratch = os.path.join(private, "tmp")
    os.mkdir(scratch, 0o700)
    return {**env, "TMPDIR": scratch}, private


def argv(binary: str, model: str) -> list[str]:
    """``codex exec`` for one distillation: no hooks, no rollout, read-only, JSON events."""
    options = [arg for arg in AGENT.child_argv[1:] if arg != "-"]
    chosen = ["--model", model] if model else []
    return [binary, *options, "--json", "--color", "never", *chosen, "-"]  # "-": prompt on stdin


def _count(data: dict[str, object], key: str) -> int:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _events(stdout: str) -> list[dict[str, object]] | None:
    events = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            return None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return None
        events.append(event)
    return events or None


def _error(event: dict[str, object]) -> str:
    if event["type"] == "error":
        message = event.get("message")
    elif event["type"] == "turn.failed":
        error = event.get("error")
        message = error.get("message") if isinstance(error, dict) else None
    else:
        return ""
    return message if isinstance(message, str) else str(event["type"])


def answer(stdout: str, stderr: str, model: str = "") -> Answer | None:
    """The parts of ``codex exec --json`` output; None when ``stdout`` is not JSON lines. A run
    that reported errors and no answer failed; the tokens name ``model`` (Codex names none)."""
    events = _events(stdout)
    if events is None:
        return None
    text, errors, used, out = "", [], 0, 0
    for event in events:
        item, usage = event.get("item"), event.get("usage")
        if event["type"] == "item.completed" and isinstance(item, dict):
            if item.get("type") == "agent_message" and isinstance(item.get("text"), str):
                text = str(item["text"])
        elif event["type"] == "turn.completed" and isinstance(usage, dict):
            used, out = used + _count(usage, "input_tokens"), out + _count(usage, "output_tokens")
        elif message := _error(event):
            errors.append(message)
    return Answer(
        text=text,
        failed=bool(errors) and not text,
        errors="\n".join((*errors, stderr)).strip(),
        input_tokens=used,
        output_tokens=out,
        model=model if used or out else "",
    )
