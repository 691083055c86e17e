"""Every agent vaultkit knows, by name: Claude Code, Codex CLI and Gemini CLI (values, stdlib).

``get(name)`` is the :class:`~vaultkit.agents.adapter.Agent` value; ``owner(path)`` says which
agent keeps a transcript at ``path``. Hooks import this, so the Codex and Gemini modules are
imported only when asked for.
"""

from __future__ import annotations

from vaultkit.agents.adapter import STDOUT_OR_JSON, Agent, owns

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

CLAUDE = Agent(
    name="claude",
    display="Claude Code",
    dir_env="CLAUDE_CONFIG_DIR",
    home_env="",
    home_default=".claude",
    hook_file="settings.json",
    project_hook_file=".claude/settings.json",
    start_event="SessionStart",
    end_event="SessionEnd",
    turn_event="Stop",
    start_sources=("startup", "resume", "clear", "compact"),
    end_reasons=("clear", "logout", "prompt_input_exit", "other"),
    transcript_glob="projects/*/*.jsonl",
    injection=STDOUT_OR_JSON,
    timeout_unit="s",
    child_argv=("claude", "-p"),
    trust="",
)
NAMES = ("claude", "codex", "gemini")
DEFAULT = "claude"


def get(name: str) -> Agent:
    """The agent called ``name`` (one of :data:`NAMES`); ``KeyError`` for any other name."""
    if name == "claude":
        return CLAUDE
    if name == "codex":
        from vaultkit.agents import codex

        return codex.AGENT
    if name == "gemini":
        from vaultkit.agents import gemini

        return gemini.AGENT
    raise KeyError(name)


def owner(path: str, env: Mapping[str, str] | None = None) -> str | None:
    """The name of the agent whose transcript folder holds ``path`` (by path alone), or ``None``."""
    for name in NAMES:
        if owns(get(name), path, env):
            return name
    return None
