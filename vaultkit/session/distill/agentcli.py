"""The agent CLI backends: one distillation attempt with an agent's own CLI as its child.

What the child is — its program and model settings, its command line, the environment and
folder it runs in, how its answer and usage are read — is the agent's (its ``distill`` part,
``vaultkit.agents.<agent>.distill``); this module runs it the same way for every agent: the CLI
found on the child's PATH, a private folder removed afterwards, the guarded child of
:mod:`vaultkit.session.distill.childrun`, and the answer classified (``ok``, ``empty-output``,
``no-markers``, ``timeout``, ``llm-error`` or ``infra``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping

from vaultkit.agents import known
from vaultkit.agents.parts import Answer, Distill
from vaultkit.base.config import Config
from vaultkit.session.distill.childrun import (
    BackendResult,
    child_env,
    classify,
    missing_binary,
    run_child,
)
from vaultkit.session.distill.costs import NO_USAGE, Usage


def backends() -> tuple[str, ...]:
    """The agents whose CLI can distil (those with a ``distill`` part), in registry order."""
    return tuple(name for name in known.names() if known.distill(name) is not None)


def runnable(name: str, config: Config, env: Mapping[str, str] | None = None) -> bool:
    """True when agent ``name`` has a distillation CLI, it is on the child's PATH and it can run
    with the child's environment (Gemini's needs an API key: its child cannot use a login)."""
    spec = _spec(name)
    if spec is None:
        return False
    child = child_env(config, env)
    if shutil.which(spec.program(config.distill), path=child.get("PATH")) is None:
        return False
    return not spec.unavailable(child)


def _spec(name: str) -> Distill | None:
    return known.distill(name) if name in known.AGENTS else None


def command_model(name: str, config: Config) -> str:
    """The model backend ``name``'s command line names: an agent CLI's configured model
    (``""`` for the other backends)."""
    spec = _spec(name)
    return spec.model(config.distill) if spec is not None else ""


def hint(name: str) -> str:
    """What to check when agent ``name``'s CLI could not run (``""`` for one without a CLI)."""
    spec = _spec(name)
    return spec.HINT if spec is not None else ""


def run(name: str, prompt: str, config: Config) -> BackendResult:
    """One attempt with agent ``name``'s CLI, in a private folder (removed afterwards)."""
    spec = _spec(name)
    if spec is None:
        return BackendResult("infra", "", f"{name} has no distillation CLI", name)
    base_env = child_env(config)
    program = spec.program(config.distill)
    binary = shutil.which(program, path=base_env.get("PATH"))
    if binary is None:
        return missing_binary(name, program)
    why = spec.unavailable(base_env)
    if why:
        return BackendResult("infra", "", why, name)
    model = spec.model(config.distill)
    timeout = config.distill.timeout
    with tempfile.TemporaryDirectory(prefix="vaultkit-distill-") as private:
        env, cwd = spec.prepare(private, base_env)
        try:
            ran = run_child(spec.argv(binary, model), prompt, env=env, cwd=cwd, timeout=timeout)
        except OSError as exc:
            return BackendResult("infra", "", f"cannot start {binary}: {exc}", name)
    if ran is None:
        return BackendResult("timeout", "", f"no answer within {max(1, timeout)} s", name)
    answer = spec.answer(ran.stdout, ran.stderr, model)
    if answer is None:  # not the CLI's own format (a wrapper script?): judge the plain text
        status, detail = classify(ran.returncode, ran.stdout, ran.stderr)
        return BackendResult(status, ran.stdout, detail, name)
    code = ran.returncode or int(answer.failed)  # a failure that exited 0 is still a failure
    status, detail = classify(code, answer.text, answer.errors)
    if answer.note:
        detail = f"{detail} ({answer.note})"
    return BackendResult(status, answer.text, detail, name, usage(answer))


def usage(answer: Answer) -> Usage:
    """What the answer says the attempt cost (nothing when it reported no tokens or cost)."""
    if not (answer.input_tokens or answer.output_tokens or answer.cost_usd or answer.model):
        return NO_USAGE
    return Usage(answer.input_tokens, answer.output_tokens, answer.cost_usd, answer.model)
