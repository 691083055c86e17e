"""The ``codex`` distillation backend: ``codex exec`` with hooks disabled and no rollout kept.

The child is Codex's own child command line (:data:`vaultkit.agents.codex.AGENT` ``child_argv``:
``codex exec --disable hooks --ephemeral --skip-git-repo-check --sandbox read-only -``) plus
``--json``, which prints the run as JSON lines: the answer is the last ``item.completed`` of
type ``agent_message``, token usage is in ``turn.completed``, and a failure is an ``error`` or
``turn.failed`` event (Codex 0.171 reports no cost, so the cost is zero). It uses the user's
``CODEX_HOME`` (login and model provider), starts in a private folder with ``TMPDIR`` inside it,
and ``--ephemeral`` writes no rollout, so the child is never a session to archive.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from vaultkit.agents import codex
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

NAME = "codex"


def codex_argv(config: Config, binary: str) -> list[str]:
    """``codex exec`` for one distillation: no hooks, no rollout, read-only, JSON events."""
    options = [arg for arg in codex.AGENT.child_argv[1:] if arg != "-"]
    model = ["--model", config.distill.codex_model] if config.distill.codex_model else []
    return [binary, *options, "--json", "--color", "never", *model, "-"]  # "-": prompt on stdin


class CodexAnswer(Record):
    """What ``codex exec --json`` printed: the final answer, the errors it reported, the usage."""

    text: str
    errors: tuple[str, ...]
    usage: Usage


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


def codex_answer(stdout: str, model: str = "") -> CodexAnswer | None:
    """The parts of ``codex exec --json`` output; None when ``stdout`` is not JSON lines."""
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
    spent = Usage(input_tokens=used, output_tokens=out, model=model) if used or out else NO_USAGE
    return CodexAnswer(text=text, errors=tuple(errors), usage=spent)


def run_codex(prompt: str, config: Config) -> BackendResult:
    """One ``codex exec`` attempt in a private folder (removed afterwards)."""
    base_env = child_env(config)
    binary = shutil.which(config.distill.codex_path, path=base_env.get("PATH"))
    if binary is None:
        return missing_binary(NAME, config.distill.codex_path)
    with tempfile.TemporaryDirectory(prefix="vaultkit-distill-") as private:
        scratch = os.path.join(private, "tmp")
        os.mkdir(scratch, 0o700)
        env = {**base_env, "TMPDIR": scratch}
        try:
            ran = run_child(
                codex_argv(config, binary),
                prompt,
                env=env,
                cwd=private,
                timeout=config.distill.timeout,
            )
        except OSError as exc:
            return BackendResult("infra", "", f"cannot start {binary}: {exc}", NAME)
    if ran is None:
        return BackendResult("timeout", "", f"no answer within {config.distill.timeout} s", NAME)
    answer = codex_answer(ran.stdout, config.distill.codex_model)
    if answer is None:  # not the JSON form (a wrapper script?): judge the plain text
        status, detail = classify(ran.returncode, ran.stdout, ran.stderr)
        return BackendResult(status, ran.stdout, detail, NAME)
    code = ran.returncode or int(bool(answer.errors) and not answer.text)
    errors = "\n".join((*answer.errors, ran.stderr))
    status, detail = classify(code, answer.text, errors.strip())
    return BackendResult(status, answer.text, detail, NAME, answer.usage)
