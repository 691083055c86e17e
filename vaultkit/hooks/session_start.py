"""SessionStart: print the injection (status line, baton, then the composed memory).

In the form the agent injects (:func:`vaultkit.agents.adapter.start_output`): the hook JSON's
``additionalContext`` for Claude Code, Codex CLI and Gemini CLI (the first two also take plain
stdout, but Gemini CLI injects only JSON: plain text becomes a message to the user). The text
stays within ``[inject] budget`` (at most 9,000 characters: Claude Code previews output over
10,000 and Codex cuts it there). The memory is the project's, whichever agent wrote it.
"""

from __future__ import annotations

from vaultkit.agents import known
from vaultkit.agents.adapter import start_output
from vaultkit.continuity import resume, startup
from vaultkit.hooks.common import guarded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from vaultkit.base.store import Store


def _spawn(store: Store) -> object:
    """Start the queue runner (or leave the jobs to the live one); None when none could start."""
    from vaultkit.session.queue.spawn import start_runner  # only when a worker is needed

    return 1 if start_runner(store).ok else None


def run(
    payload: dict[str, object], env: Mapping[str, str], *, agent: str = known.DEFAULT
) -> str | None:
    """The hook: what to print for ``agent``'s SessionStart, or None to print nothing."""
    if guarded(env):
        return None
    text = startup.compose(payload, env, spawn=_spawn, agent=agent)
    text = resume.continuity_start(payload, env, text)  # baton first; resume if configured
    text = startup.status_first(payload, env, text)  # above all: distillation failing/waiting
    if not text:
        return None
    return start_output(known.get(agent), text)
