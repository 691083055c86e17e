"""What differs per agent, as values: config locations, hook events, injection, child runs.

An :class:`Agent` describes one coding agent's CLI as vaultkit meets it; an :class:`Entry` is one
thing its transcript says, in the neutral terms vaultkit's condenser uses (user text, assistant
text, a tool call with the command it ran and the files it wrote, or session facts). Each agent
module (``codex``, ``gemini``) exports an ``AGENT`` and a streaming ``read(path)`` of entries.
Stdlib only: hooks read these values.
"""

from __future__ import annotations

import os

from vaultkit.base.leanglob import matches
from vaultkit.base.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

USER = "user"
ASSISTANT = "assistant"
TOOL = "tool"
META = "meta"

# How a SessionStart hook's output reaches the model.
STDOUT_OR_JSON = "stdout-or-json"  # plain stdout and JSON additionalContext are both injected
JSON_ONLY = "json-only"  # only JSON additionalContext; plain stdout is shown to the user


class Entry(Record):
    """One transcript fact: ``kind`` is USER, ASSISTANT, TOOL or META.

    USER/ASSISTANT carry ``text``; TOOL carries ``tool`` (the agent's tool name), ``text`` (a
    one-line description), ``command`` (a shell command it ran, if any) and ``paths`` (files it
    wrote or edited) and may carry ``target`` (the file it acted on, read or written, shown as
    ``→ Tool path``); META carries ``cwd`` and/or ``git_branch``. ``turn`` (ASSISTANT/TOOL) names
    the agent's reply the entry belongs to: a different non-empty ``turn`` starts a new reply,
    an empty one continues the current reply.
    """

    kind: str
    text: str = ""
    tool: str = ""
    command: str = ""
    paths: tuple[str, ...] = ()
    cwd: str = ""
    git_branch: str = ""
    target: str = ""
    turn: str = ""


class Agent(Record):
    """One agent CLI as vaultkit meets it (facts checked against the pinned version)."""

    name: str  # vaultkit's name for it: "claude", "codex", "gemini"
    display: str  # "Codex CLI 0.171"
    dir_env: str  # variable naming the config folder itself ("" when there is none)
    home_env: str  # variable standing in for $HOME when locating it ("" when there is none)
    home_default: str  # config folder relative to that home
    hook_file: str  # hook configuration, relative to the config folder
    project_hook_file: str  # the same inside a project (loaded only when the project is trusted)
    start_event: str
    end_event: str
    turn_event: str  # fires after each turn ("" when there is none)
    start_sources: tuple[str, ...]  # values of ``source`` it sends
    end_reasons: tuple[str, ...]  # values of ``reason`` it sends
    transcript_glob: str  # where its transcripts are, relative to the config folder
    injection: str  # STDOUT_OR_JSON or JSON_ONLY
    timeout_unit: str  # unit of a hook's ``timeout``: "s" or "ms"
    child_argv: tuple[str, ...]  # distillation child: prompt on stdin, answer on stdout
    trust: str  # one line: what the user must trust before hooks run


def config_dir(agent: Agent, env: Mapping[str, str] | None = None) -> str:
    """The agent's config folder: ``$<dir_env>`` when set, else ``<home>/<home_default>`` where
    home is ``$<home_env>`` when set, else ``$HOME``."""
    env = os.environ if env is None else env
    if agent.dir_env and env.get(agent.dir_env):
        return env[agent.dir_env]
    home = (env.get(agent.home_env) if agent.home_env else "") or env.get("HOME", "")
    return os.path.join(home or os.path.expanduser("~"), agent.home_default)


def owns(agent: Agent, path: str, env: Mapping[str, str] | None = None) -> bool:
    """True when ``path`` is where ``agent`` keeps transcripts: inside its config folder once
    symlinks are resolved, matching ``transcript_glob`` segment by segment (``*`` never spans
    a ``/``)."""
    root = os.path.realpath(config_dir(agent, env))
    real = os.path.realpath(path)
    if os.path.commonpath([root, real]) != root:
        return False
    parts = os.path.relpath(real, root).replace(os.sep, "/").split("/")
    pattern = agent.transcript_glob.split("/")
    return len(parts) == len(pattern) and all(map(matches, parts, pattern))


def one_line(text: str, limit: int = 200) -> str:
    """``text`` flattened to one line of at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def cut_blocks(text: str, opening: str, closing: str) -> str:
    """``text`` without every ``opening…closing`` block, in one linear pass (``str.find``); an
    unclosed block drops the rest of the text."""
    parts: list[str] = []
    pos = 0
    while (start := text.find(opening, pos)) >= 0:
        parts.append(text[pos:start])
        end = text.find(closing, start)
        pos = len(text) if end < 0 else end + len(closing)
    parts.append(text[pos:])
    return "".join(parts)
