"""Gemini CLI (0.61): its adapter value and what a hook checks of its chat files (lean: stdlib).

A chat file is ``~/.gemini/tmp/<project>/chats/session-<UTC minute>-<first 8 of the session
id>.jsonl`` (``$GEMINI_CLI_HOME`` stands in for home) whose first line is a header with
``sessionId``, ``projectHash`` and ``kind``; Gemini writes no exit record. A SessionStart hook
must print JSON: plain stdout becomes a message shown to the user and is not injected. The other
parts are modules of this package, imported only when needed: ``reader`` (the chat file),
``hooks`` (``settings.json`` merge and install), ``trust`` and ``doctor`` (folder trust),
``distill`` (the ``gemini`` child) and ``scan`` (backfill).
"""

from __future__ import annotations

from vaultkit.agents.adapter import JSON_ONLY, Agent, owned_problem
from vaultkit.base import leanjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

AGENT = Agent(
    name="gemini",
    display="Gemini CLI 0.61",
    dir_env="",
    home_env="GEMINI_CLI_HOME",
    home_default=".gemini",
    hook_file="settings.json",
    project_hook_file=".gemini/settings.json",
    start_event="SessionStart",
    end_event="SessionEnd",
    turn_event="AfterAgent",
    start_sources=("startup", "resume", "clear"),
    end_reasons=("exit", "clear", "logout", "prompt_input_exit", "other"),
    transcript_glob="tmp/*/chats/session-*.jsonl",
    injection=JSON_ONLY,
    timeout_unit="ms",
    child_argv=("gemini", "--skip-trust"),
    trust=(
        "the folder (trustedFolders.json or GEMINI_CLI_TRUST_WORKSPACE=true; --skip-trust"
        " skips the project's hooks)"
    ),
    tag="gemini",
)
is_exit = None  # Gemini CLI writes no exit record: only the last resort (five silent minutes)


def session_id_from_name(path: str) -> str:
    """``""``: a chat file's name carries only 8 characters of the id (its header has it all)."""
    return ""


def path_problem(path: str, env: Mapping[str, str]) -> str | None:
    """Why ``path`` is not a Gemini chat file by its path alone (a missing file passes)."""
    return owned_problem(AGENT, path, env)


def head_problem(head: bytes) -> str | None:
    """Why the first bytes of a (non-empty) file are not a chat file's header line."""
    what = "a Gemini chat file's header"
    first, newline, _ = head.partition(b"\n")
    if not newline:  # one huge first line: its opening
        ok = first.lstrip().startswith(b"{") and b'"projectHash"' in first
        return None if ok else f"its first line is not {what}"
    try:
        value = leanjson.loads(first)
    except ValueError:
        return "line 1 is not JSON"
    if not isinstance(value, dict):
        return "line 1 is not a JSON object"
    if isinstance(value.get("sessionId"), str) and "projectHash" in value:
        return None
    return f"its first line is not {what}"


def record_session_id(record: Mapping[str, object]) -> str:
    """The header's ``sessionId``, or ``""``."""
    value = record.get("sessionId")
    return value.strip() if isinstance(value, str) else ""
