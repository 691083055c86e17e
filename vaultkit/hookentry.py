"""Lean hook entry point: ``vaultkit-hook EVENT [--agent NAME]`` (or ``python -m
vaultkit.hookentry``).

Imports only the standard library and lean vaultkit modules so that a hook costs little more than
starting Python. Whatever happens, it logs to the store's log and exits 0: a hook must never break
or stall the agent's session. The handler for ``EVENT`` is ``vaultkit.hooks.<snake_case>.run``,
called with the agent whose hook this is: ``--agent`` (Codex's and Gemini's hook commands carry
it), else the agent whose transcript folder holds the payload's ``transcript_path``, else Claude
Code. An unknown ``--agent`` name is logged and nothing runs.
"""

from __future__ import annotations

import os
import sys

from vaultkit.agents import known
from vaultkit.base.record import Record
from vaultkit.hooks import common

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from vaultkit.base.store import Store

    Handler = Callable[..., "str | None"]  # run(payload, env, *, agent)


PLUGIN_FLAG = "--plugin"  # as vaultkit.agents.registration.PLUGIN_FLAG (a test keeps them equal)
AGENT_FLAG = "--agent"


class Args(Record):
    """The command line: ``EVENT`` (``""``: take ``hook_event_name``), ``--plugin``, ``--agent``
    (``None`` when not given; ``""`` when given without a name)."""

    event: str
    plugin: bool
    agent: str | None


def parse_args(args: Sequence[str]) -> Args:
    """``EVENT [--plugin] [--agent NAME | --agent=NAME]``; other words are ignored."""
    rest = list(args)
    agent: str | None = None
    names: list[str] = []
    while rest:
        word = rest.pop(0)
        if word == AGENT_FLAG:
            agent = rest.pop(0) if rest else ""
        elif word.startswith(AGENT_FLAG + "="):
            agent = word[len(AGENT_FLAG) + 1 :]
        elif word != PLUGIN_FLAG:
            names.append(word)
    return Args(event=names[0] if names else "", plugin=PLUGIN_FLAG in args, agent=agent)


def agent_of(flag: str | None, payload: common.Payload, env: Mapping[str, str]) -> str | None:
    """The agent a hook runs for: ``flag`` when it names one (``None`` when it names none), else
    the owner of the payload's transcript, else Claude Code."""
    if flag is not None:
        return flag if flag in known.AGENTS else None
    fields = common.HookFields.of(payload)
    if not fields.transcript_path:
        return known.DEFAULT
    path = os.path.join(fields.cwd or os.getcwd(), fields.transcript_path)
    return known.owner(path, env) or known.DEFAULT


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
            return None
        handler = _load_handler(event)
        if handler is None:
            if store is not None:
                common.log(store, f"hook: no handler for event {event!r}; ignored")
            return None
        return handler(payload, env, agent=agent)
    except BaseException as exc:  # a hook must never fail the agent's session
        if store is not None:
            import traceback  # only on failure: a hook pays for nothing it does not use

            detail = "".join(traceback.format_exception(exc)).rstrip()
            common.log(store, f"hook {event}: {type(exc).__name__}: {exc}\n{detail}")
        return None


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


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry: ``vaultkit-hook EVENT [--plugin] [--agent NAME]`` (EVENT falls back
    to ``hook_event_name``; ``--plugin`` marks the Claude Code plugin's registration; ``--agent``
    names the agent, as Codex's and Gemini's hook commands do)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    env = os.environ
    if common.guarded(env):
        return 0
    try:
        raw = _read_stdin()
        event = args.event or _event_from(raw)
        if args.plugin and stands_down(event, raw, env):
            return 0
        output = dispatch(event, raw, env, args.agent)
        if output:
            _emit(output)
    except BaseException:  # a hook must never fail the agent's session
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
