"""Every agent vaultkit knows: one registry line per agent, its name and its package (stdlib).

An agent is a package under ``vaultkit/agents/`` whose ``__init__`` is its lean part (the
:class:`~vaultkit.agents.adapter.Agent` value ``AGENT`` and the few functions a hook calls) and
whose modules are the rest: ``reader``, ``hooks``, ``doctor``, ``distill``, ``scan`` and
``context`` (what each holds: :mod:`vaultkit.agents.parts`). Nothing here imports an agent until
it is asked for, and then only the part asked for, so a hook pays for its own agent's lean part
alone.
"""

from __future__ import annotations

from vaultkit.agents.adapter import owns

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from vaultkit.agents import parts
    from vaultkit.agents.adapter import Agent

# The registry: agent name -> its package. Adding an agent is one line here (and its package).
AGENTS: dict[str, str] = {
    "claude": "vaultkit.agents.claude",
    "codex": "vaultkit.agents.codex",
    "gemini": "vaultkit.agents.gemini",
}
DEFAULT = "claude"  # the agent of a hook that names none (Claude Code's hooks carry no --agent)


def names() -> tuple[str, ...]:
    """Every agent's name, in registry order (the order listings and doctor use)."""
    return tuple(AGENTS)


def _load(name: str, part: str = "") -> Any:
    """The module of agent ``name``'s ``part`` (its package when ``part`` is empty);
    ``KeyError`` for a name that is not registered."""
    package = AGENTS[name]
    # ``__import__`` (not importlib): ``-X importtime`` shows it and it costs no extra import.
    return __import__(f"{package}.{part}" if part else package, fromlist=["AGENT"])


def lean(name: str) -> parts.Lean:
    """Agent ``name``'s lean part (its package): ``AGENT`` and what the hooks call."""
    found: parts.Lean = _load(name)
    return found


def get(name: str) -> Agent:
    """The agent called ``name``; ``KeyError`` for a name that is not registered."""
    return lean(name).AGENT


def reader(name: str) -> parts.Reader:
    found: parts.Reader = _load(name, "reader")
    return found


def hooks(name: str) -> parts.Hooks:
    found: parts.Hooks = _load(name, "hooks")
    return found


def doctor(name: str) -> parts.Doctor | None:
    """Agent ``name``'s doctor findings, or ``None`` for an agent without its own."""
    found: parts.Doctor | None = _optional(name, "doctor")
    return found


def distill(name: str) -> parts.Distill | None:
    """Agent ``name``'s distillation child, or ``None`` for an agent without one."""
    found: parts.Distill | None = _optional(name, "distill")
    return found


def scan(name: str) -> parts.Scan | None:
    """Agent ``name``'s backfill scan, or ``None`` for an agent without one."""
    found: parts.Scan | None = _optional(name, "scan")
    return found


def context(name: str) -> parts.Context | None:
    """How full agent ``name``'s context is, or ``None`` for an agent whose transcript does not
    say."""
    found: parts.Context | None = _optional(name, "context")
    return found


def _optional(name: str, part: str) -> Any:
    """:func:`_load`, or ``None`` when the agent's package has no such module."""
    try:
        return _load(name, part)
    except ModuleNotFoundError as exc:
        if exc.name != f"{AGENTS[name]}.{part}":
            raise
        return None


def owner(path: str, env: Mapping[str, str] | None = None) -> str | None:
    """The name of the agent whose transcript folder holds ``path`` (by path alone), or ``None``."""
    for name in AGENTS:
        if owns(get(name), path, env):
            return name
    return None
