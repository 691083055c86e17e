"""Lean hook entry point: ``vaultkit-hook EVENT [--agent NAME]`` (or ``python -m
vaultkit.hookentry``).

Imports only the standard library and lean vaultkit modules so that a hook costs little more than
starting Python. Whatever happens, it logs to the store's log and exits 0: a hook must never break
or stall the agent's session. The handler for ``EVENT`` is ``vaultkit.hooks.<snake_case>.run``,
called with the agent whose hook this is: ``--agent`` (Codex's and Gemini's hook commands carry
it), else the agent whose transcript folder holds the payload's ``transcript_path``, else Claude
Code. An unknown ``--agent`` name is logged and nothing runs. A SessionEnd hook's first act is to
spool its stdin (:mod:`vaultkit.base.spool`: the hook command does it before importing this
module); the entry is removed once the handler has run. ``--help`` prints :func:`usage`.
"""

from __future__ import annotations

import os
import sys

from vaultkit.agents import known
from vaultkit.agents.payload import agent_for
from vaultkit.base import spool
from vaultkit.base.record import Record
from vaultkit.hooks import common

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from vaultkit.base.store import Store

    Handler = Callable[..., "str | None"]  # run(payload, env, *, agent)


HELP_FLAGS = ("-h", "--help")
PLUGIN_FLAG = "--plugin"  # as vaultkit.agents.registration.PLUGIN_FLAG (a test keeps them equal)
AGENT_FLAG = "--agent"


class Args(Record):
    """The command line: ``EVENT`` (``""``: take ``hook_event_name``), ``--plugin``, ``--agent``
    (``None`` when not given; ``""`` when given without a name)."""

    event: str
    plugin: bool
    agent: str | None
    help: bool = False


def parse_args(args: Sequence[str]) -> Args:
    """``EVENT [--plugin] [--agent NAME | --agent=NAME] [--help]``; other words are ignored."""
    rest = list(args)
    agent: str | None = None
    names: list[str] = []
    while rest:
        word = rest.pop(0)
        if word == AGENT_FLAG:
            agent = rest.pop(0) if rest else ""
        elif word.startswith(AGENT_FLAG + "="):
            agent = word[len(AGENT_FLAG) + 1 :]
        elif word not in (PLUGIN_FLAG, *HELP_FLAGS):
            names.append(word)
    wants_help = any(word in HELP_FLAGS for word in args)
    event = names[0] if names else ""
    return Args(event=event, plugin=PLUGIN_FLAG in args, agent=agent, help=wants_help)


def events() -> list[str]:
    """The events there is a handler for (``vaultkit/hooks/<snake_case>.py``), CamelCase."""
    folder = os.path.dirname(os.path.abspath(common.__file__))
    names = [n[:-3] for n in os.listdir(folder) if n.endswith(".py") and not n.startswith("_")]
    camel = ["".join(part.title() for part in n.split("_")) for n in names if n != "common"]
    return sorted(e for e in camel if handler_module(e) is not None)


def usage() -> str:
    """What ``vaultkit-hook --help`` prints: the command line, the events, stdin, exit codes."""
    agents = ", ".join(known.AGENTS)
    return f"""usage: vaultkit-hook EVENT [--agent NAME] [--plugin]

The command an agent runs for vaultkit's hooks (`vaultkit hooks install` writes it into the
agent's hook file; you do not run it by hand).

EVENT      one of: {", ".join(events())}
           (left out: the payload's hook_event_name names it)
--agent    whose hook this is: {agents} (default: the agent whose
           transcript folder holds the payload's transcript_path, else {known.DEFAULT})
--plugin   started by the Claude Code plugin: stands down when a settings file also
           registers vaultkit for EVENT, so the hook runs once

stdin      the agent's hook payload, one JSON object (UTF-8): session_id,
           transcript_path, cwd, hook_event_name, and reason (SessionEnd) or
           source (SessionStart). SessionEnd spools it before anything else, so a
           hook killed mid-way loses no session (the next runner or SessionStart
           queues it).
stdout     SessionStart and UserPromptSubmit: the memory to inject; else nothing.
exit code  always 0, also on bad input: a hook never breaks the agent's session.
           Problems go to the project's sessions/.vaultkit/vaultkit.log.
"""


def agent_of(flag: str | None, payload: common.Payload, env: Mapping[str, str]) -> str | None:
    """The agent a hook runs for (:func:`vaultkit.agents.payload.agent_for`)."""
    return agent_for(flag, payload, env)


def handler_module(event: str) -> str | None:
    """``"SessionEnd"`` → ``"vaultkit.hooks.session_end"``; ``None`` for a malformed name."""
    if not (2 <= len(event) <= 40 and event.isascii() and event.isalpha() and event[0].isupper()):
        return None
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in event).lstrip("_")
    return f"vaultkit.hooks.{snake}"


def _read_stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.isatty():
        return b""
    return stream.buffer.read()


def _load_handler(event: str) -> Handler | None:
    name = handler_module(event)
    if name is None:
        return None
    try:
        # ``__import__`` (not importlib.import_module) so ``-X importtime`` reports the handler.
        module = __import__(name, fromlist=["run"])
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
    run: Handler = module.run
    return run


def _fallback_store(payload: common.Payload, env: Mapping[str, str]) -> Store | None:
    try:
        return common.store_for(payload, env)
    except Exception:
        return None


def _event_from(raw: bytes) -> str:
    return common.HookFields.of(common.decode_payload(raw)[0]).hook_event_name


def _emit(text: str) -> None:
    out = sys.stdout.buffer
    out.write(text.encode("utf-8"))
    if not text.endswith("\n"):
        out.write(b"\n")
    out.flush()


def dispatch(
    event: str, raw: bytes, env: Mapping[str, str], agent_flag: str | None = None
) -> str | None:
    """Run the handler for ``event`` on stdin bytes ``raw`` for the agent ``agent_flag`` names
    (see :func:`agent_of`); log problems; never raise."""
    return _run(event, raw, env, agent_flag)[0]


def _run(
    event: str, raw: bytes, env: Mapping[str, str], agent_flag: str | None
) -> tuple[str | None, bool]:
    """:func:`dispatch`'s output, and False when the handler raised (logged)."""
    payload, problem = common.decode_payload(raw)
    store = _fallback_store(payload, env)
    try:
        if problem is not None and store is not None:
            common.log(store, f"hook {event or '?'}: {problem}; continuing with an empty payload")
        agent = agent_of(agent_flag, payload, env)
        if agent is None:
            if store is not None:
                names = ", ".join(known.AGENTS)
                common.log(store, f"hook {event}: unknown agent {agent_flag!r} ({names}); ignored")
            return None, True
        handler = _load_handler(event)
        if handler is None:
            if store is not None:
                common.log(store, f"hook: no handler for event {event!r}; ignored")
            return None, True
        return handler(payload, env, agent=agent), True
    except BaseException as exc:  # a hook must never fail the agent's session
        if store is not None:
            import traceback  # only on failure: a hook pays for nothing it does not use

            detail = "".join(traceback.format_exception(exc)).rstrip()
            common.log(store, f"hook {event}: {type(exc).__name__}: {exc}\n{detail}")
        return None, False


def stands_down(event: str, raw: bytes, env: Mapping[str, str]) -> bool:
    """True for a plugin-started hook whose event a settings file also registers: the settings
    registration runs it, so it runs once (the choice is logged)."""
    from vaultkit.agents import registration  # only plugin-started hooks pay for the check

    payload = common.decode_payload(raw)[0]
    project = registration.project_dir(common.payload_cwd(payload), env)
    found = registration.settings_register(event, project, env)
    if found is None:
        return False
    store = _fallback_store(payload, env)
    if store is not None:
        common.log(store, f"hook {event} (plugin): {found} registers vaultkit too; it runs there")
    return True


def main(
    argv: Sequence[str] | None = None, *, raw: bytes | None = None, entry: str | None = None
) -> int:
    """Console-script entry: ``vaultkit-hook EVENT [--plugin] [--agent NAME]`` (EVENT falls back
    to ``hook_event_name``; ``--plugin`` marks the Claude Code plugin's registration; ``--agent``
    names the agent, as Codex's and Gemini's hook commands do). ``raw`` and ``entry``: stdin
    and its spool entry, when the hook command read and spooled them already."""
    words = sys.argv[1:] if argv is None else argv
    args = parse_args(words)
    env = os.environ
    if args.help:
        _emit(usage())
        return 0
    if common.guarded(env):
        return 0
    try:
        if raw is None:
            raw = _read_stdin()
            entry = spool.write(raw, words, env) if spool.wanted(words, env) else None
        event = args.event or _event_from(raw)
        if args.plugin and stands_down(event, raw, env):
            spool.remove(entry)
            return 0
        output, finished = _run(event, raw, env, args.agent)
        if finished:  # else the spool keeps it: recovery tries the session again later
            spool.remove(entry)
        if output:
            _emit(output)
    except BaseException:  # a hook must never fail the agent's session
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
