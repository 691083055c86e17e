"""Claude Code: its adapter value and what a hook checks of its transcripts (lean: stdlib only).

A transcript is ``<config dir>/projects/<project>/<session id>.jsonl`` (the config folder is
``CLAUDE_CONFIG_DIR``, else ``~/.claude``), JSONL whose first lines carry a record ``type`` and
the ``sessionId``; the record it appends as its process exits is ``cost-state``. The other parts
are modules of this package, imported only when needed: ``reader`` (the transcript), ``settings``
and ``hooks`` (settings merge and install), ``doctor``, ``distill`` (the ``claude -p`` child),
``scan`` (backfill) and ``usage`` (context pressure).
"""

from __future__ import annotations

import os

from vaultkit.agents.adapter import STDOUT_OR_JSON, Agent, regular
from vaultkit.base import leanjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

AGENT = Agent(
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
    tag="",
)

# The ``type`` of Claude Code transcript lines (2.1.x writes the first four at the top; older
# versions started with ``summary`` lines, which carry ``leafUuid`` instead of ``sessionId``).
KINDS = frozenset(
    {
        "queue-operation",
        "user",
        "assistant",
        "attachment",
        "system",
        "summary",
        "file-history-snapshot",
        "progress",
        "custom-title",
        "tag",
    }
)
HEAD_LINES = 5
EXIT_RECORDS = frozenset({"cost-state"})
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")


def config_dir(env: Mapping[str, str]) -> str:
    """The agent's configuration folder: ``CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    configured = env.get("CLAUDE_CONFIG_DIR", "").strip()
    if configured:
        return os.path.expanduser(configured)
    home = env.get("HOME", "").strip() or os.path.expanduser("~")
    return os.path.join(home, ".claude")


def projects_dir(env: Mapping[str, str]) -> str:
    """Where the agent keeps its transcripts, with every symlink resolved."""
    return os.path.realpath(os.path.join(config_dir(env), "projects"))


def session_id_from_name(path: str) -> str:
    """The session id a transcript's name gives: ``<id>.jsonl``."""
    return os.path.splitext(os.path.basename(path.rstrip("/" + os.sep)))[0]


def path_problem(path: str, env: Mapping[str, str]) -> str | None:
    """Why ``path`` is not a Claude Code transcript judging by its path alone: not under
    ``projects/``, not named ``<session-id>.jsonl``, or not a regular file (a missing file
    passes)."""
    real = os.path.realpath(path)
    root = projects_dir(env)
    if not real.startswith(root + os.sep):
        return f"not under {root}{os.sep}"
    stem, suffix = os.path.splitext(os.path.basename(real))
    if suffix != ".jsonl" or not stem or not set(stem) <= _ID_CHARS:
        return "not named <session-id>.jsonl"
    return regular(real)


def head_problem(head: bytes) -> str | None:
    """Why the first bytes of a (non-empty) file are not the start of a Claude Code transcript:
    its first complete lines must be JSON objects, one with a record type and a session id."""
    lines = head.split(b"\n")
    complete = [line for line in lines[:-1] if line.strip()][:HEAD_LINES]
    if not complete:  # one huge first line (a pasted image, say): judge its opening
        return None if _opens_like_record(head) else "its first line is not a transcript record"
    records = []
    for number, line in enumerate(complete, 1):
        try:
            value = leanjson.loads(line)
        except ValueError:
            return f"line {number} is not JSON"
        if not isinstance(value, dict):
            return f"line {number} is not a JSON object"
        records.append(value)
    if not any(_is_record(r) for r in records):
        return "its first lines have no Claude Code record type and session id"
    return None


def _is_record(value: dict[str, object]) -> bool:
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        return False
    if kind == "summary" and isinstance(value.get("leafUuid"), str):
        return True
    return any(isinstance(value.get(key), str) for key in ("sessionId", "session_id"))


def _opens_like_record(head: bytes) -> bool:
    start = head.lstrip()
    return start.startswith(b"{") and b'"type"' in start and b'"sessionId"' in start


def is_exit(record: Mapping[str, object]) -> bool:
    """True for the record Claude Code (2.1) appends as its process exits (``cost-state``)."""
    return record.get("type") in EXIT_RECORDS


def record_session_id(record: Mapping[str, object]) -> str:
    """The session id a transcript line carries (``sessionId``), or ``""``."""
    value = record.get("sessionId")
    return value.strip() if isinstance(value, str) else ""
