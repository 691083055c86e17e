"""Which agents ``vaultkit hooks install`` is for: the ones named by ``--agent``, else every agent
found on this machine (its CLI on PATH, or its config folder there), else Claude Code."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping

from vaultkit.agents import known
from vaultkit.agents.adapter import config_dir
from vaultkit.base.record import Record

ALL = "all"


class Choice(Record):
    """The agents chosen, in registry order (:func:`known.names`), and one line saying why."""

    names: tuple[str, ...]
    why: str


def program(name: str) -> str:
    """The agent's CLI program (``claude``, ``codex``, ``gemini``)."""
    return known.get(name).child_argv[0]


def parse_names(values: Iterable[str]) -> tuple[str, ...]:
    """``--agent`` values (repeated and/or comma-separated; ``all`` for every agent) as names in
    registry order. ``ValueError`` names an unknown one and lists the names."""
    wanted: set[str] = set()
    for value in values:
        for part in value.split(","):
            name = part.strip().lower()
            if name == ALL:
                wanted.update(known.names())
            elif name in known.names():
                wanted.add(name)
            elif name:
                choices = ", ".join((*known.names(), ALL))
                raise ValueError(f"unknown agent {part.strip()!r}; choose from {choices}")
    return tuple(n for n in known.names() if n in wanted)


def found(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Agents found on this machine → why (``codex on PATH (/usr/bin/codex)``, ``~/.gemini
    exists``); the PATH is the one in ``env``."""
    environ = os.environ if env is None else env
    path = environ.get("PATH", os.defpath)
    reasons: dict[str, str] = {}
    for name in known.names():
        cli = program(name)
        located = shutil.which(cli, path=path)
        folder = config_dir(known.get(name), environ)
        if located:
            reasons[name] = f"{cli} on PATH ({located})"
        elif os.path.isdir(folder):
            reasons[name] = f"{folder} exists"
    return reasons


def choose(values: Iterable[str], env: Mapping[str, str] | None = None) -> Choice:
    """The agents to install for: ``values`` when any are given, else every agent found,
    else Claude Code."""
    named = parse_names(values)
    if named:
        return Choice(named, f"agents: {', '.join(named)} (as asked with --agent)")
    reasons = found(env)
    if not reasons:
        return Choice(
            (known.DEFAULT,),
            f"agents: {known.DEFAULT} (no agent CLI on PATH and no agent config folder found; "
            f"--agent {'|'.join((*known.names(), ALL))} chooses)",
        )
    said = "; ".join(f"{name}: {why}" for name, why in reasons.items())
    return Choice(tuple(reasons), f"agents found on this machine: {said} (--agent chooses)")
