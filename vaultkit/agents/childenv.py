"""The environment of every process vaultkit starts: the agent's session removed, guards set.

Lean (stdlib only): the SessionEnd hook uses it to start the worker, and the worker uses it to
start ``claude -p``.
"""

from __future__ import annotations

# The guard variables are defined once, where the hook command checks them first.
from vaultkit.base.spool import GUARD_VARS as GUARD_VARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


# Variables a running Claude Code session gives its hooks (observed with 2.1.332). They describe
# *that* session, so a child must not inherit them. Every other CLAUDE_CODE_* variable is the
# user's own configuration (provider, auth, DISABLE_NONESSENTIAL_TRAFFIC, MAX_RETRIES, …) and is
# kept.
SESSION_VARS = frozenset(
    {
        "CLAUDECODE",
        "AI_AGENT",
        "CLAUDE_PID",
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_ENV_FILE",
        "CLAUDE_SESSION_ID",
        "CLAUDE_EFFORT",
        "CLAUDE_CODE_ENTRYPOINT",
        "CLAUDE_CODE_SSE_PORT",
    }
)
SESSION_PREFIXES = ("CLAUDE_CODE_SESSION_", "CLAUDE_CODE_CHILD_", "CLAUDE_CODE_MESSAGING_")


def is_session_var(key: str) -> bool:
    return key in SESSION_VARS or key.startswith(SESSION_PREFIXES)


def child_environment(
    source: Mapping[str, str], *, drop: frozenset[str] = frozenset()
) -> dict[str, str]:
    """``source`` without the session's variables (and without ``drop``), guards set."""
    env = {k: v for k, v in source.items() if not is_session_var(k) and k not in drop}
    env.update(GUARD_VARS)
    return env
