"""What differs per agent, as values: config locations, hook events, injection, child runs.

An :class:`Agent` describes one coding agent's CLI as vaultkit meets it; an :class:`Entry` is one
thing its transcript says, in the neutral terms vaultkit's condenser uses (user text, assistant
text, a tool call with the command it ran and the files it wrote, or session facts). Each agent
package (``claude``, ``codex``, ``gemini``; :mod:`vaultkit.agents.known` names them) exports an
``AGENT`` and the functions :mod:`vaultkit.agents.parts` lists; the helpers here are what those
share. Stdlib only: hooks read these values.
"""

from __future__ import annotations

import os
import stat

from vaultkit.base.leanglob import matches
from vaultkit.base.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

USER = "user"
ASSISTANT = "assistant"
TOOL = "tool"
META = "meta"

# How a SessionStart hook's output reaches the model.
STDOUT_OR_JSON = "stdout-or-json"  # plain stdout and JSON additionalContext are both injected
JSON_ONLY = "json-only"  # only JSON additionalContext; plain stdout is shown to the user
STDOUT_ONLY = "stdout-only"  # plain stdout is injected as it is


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
    # How logs and listings mark its sessions and hook files ("codex user", "(other, codex)"):
    # "" for Claude Code, named by omission as it was before the other agents came.
    tag: str


class Trust(Record):
    """Whether an agent trusts a folder (``None``: no rule says, the CLI asks) and why."""

    trusted: bool | None
    why: str


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


def regular(real: str) -> str | None:
    """Why the file at ``real`` (a resolved path) is not a regular file, or ``None`` (a missing
    file passes: the caller decides what a transcript that is gone means)."""
    try:
        mode = os.lstat(real).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    return None if stat.S_ISREG(mode) else "not a regular file"


def owned_problem(agent: Agent, path: str, env: Mapping[str, str]) -> str | None:
    """Why ``path`` is not ``agent``'s transcript by its path alone: outside the agent's folder
    or its ``transcript_glob`` (:func:`owns`), or not a regular file."""
    if not owns(agent, path, env):
        root = config_dir(agent, env)
        return f"not {agent.display}'s transcript ({root}{os.sep}{agent.transcript_glob})"
    return regular(os.path.realpath(path))


def start_output(agent: Agent, text: str) -> str:
    """What a SessionStart hook prints to inject ``text``: the ``additionalContext`` JSON, which
    every ``injection`` kind takes (:data:`STDOUT_OR_JSON` also plain text, :data:`JSON_ONLY`
    nothing else), or ``text`` itself for an agent that injects plain stdout only."""
    if agent.injection not in (STDOUT_OR_JSON, JSON_ONLY):
        return text
    import json  # SessionStart only: the SessionEnd hook never loads json

    output = {"hookEventName": agent.start_event, "additionalContext": text}
    return json.dumps({"hookSpecificOutput": output}, ensure_ascii=False)


def first_branch(entries: Iterable[Entry]) -> str | None:
    """The first git branch the entries' session facts name (``None`` when none does): the
    branch of a transcript whose agent records it in its session facts."""
    return next((e.git_branch for e in entries if e.kind == META and e.git_branch), None)


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
