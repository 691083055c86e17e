"""Is a file an agent's own transcript? Claude Code's ``<config dir>/projects/**/<id>.jsonl``,
Codex's rollouts and Gemini's chat files, each where that agent keeps them and shaped like them.

Lean (stdlib only): the SessionEnd hook checks the path (:func:`path_problem`, no reading), the
worker checks the path and the first lines again just before it copies (:func:`file_problem`, on
a descriptor opened without following a symlink), and ``vaultkit ingest`` checks the lines of a
file the user names. Each returns the reason a file is refused, or ``None``.
"""

from __future__ import annotations

import os
import stat

from vaultkit.agents import adapter
from vaultkit.base import leanjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

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
HEAD_BYTES = 64 * 1024
HEAD_LINES = 5
EMPTY = "the file is empty"
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


def path_problem(path: str, env: Mapping[str, str], agent: str = "claude") -> str | None:
    """Why ``path`` is not ``agent``'s transcript judging by its path alone (a missing file passes:
    the caller decides what a transcript that is gone means)."""
    if agent != "claude":
        return _other_path_problem(path, env, agent)
    real = os.path.realpath(path)
    root = projects_dir(env)
    if not real.startswith(root + os.sep):
        return f"not under {root}{os.sep}"
    stem, suffix = os.path.splitext(os.path.basename(real))
    if suffix != ".jsonl" or not stem or not set(stem) <= _ID_CHARS:
        return "not named <session-id>.jsonl"
    return _regular(real)


def _regular(real: str) -> str | None:
    try:
        mode = os.lstat(real).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    return None if stat.S_ISREG(mode) else "not a regular file"


def _other_path_problem(path: str, env: Mapping[str, str], agent: str) -> str | None:
    from vaultkit.agents import known  # only hooks of the other agents pay for this import

    try:
        value = known.get(agent)
    except KeyError:
        return f"no agent is called {agent!r}"
    if not adapter.owns(value, path, env):
        root = adapter.config_dir(value, env)
        return f"not {value.display}'s transcript ({root}{os.sep}{value.transcript_glob})"
    return _regular(os.path.realpath(path))


def file_problem(
    path: str, env: Mapping[str, str], *, anywhere: bool = False, agent: str = "claude"
) -> str | None:
    """:func:`path_problem` (unless ``anywhere``), then the file itself: a regular file, opened
    without following a symlink, whose first lines are ``agent``'s transcript records."""
    problem = None if anywhere else path_problem(path, env, agent)
    if problem is not None:
        return problem
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(os.path.realpath(path), flags)
    except FileNotFoundError:
        return "does not exist"
    except OSError as exc:
        return f"cannot be opened ({exc.strerror})"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "not a regular file"
        head = os.read(fd, HEAD_BYTES)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    finally:
        os.close(fd)
    return head_problem(head, agent)


def head_problem(head: bytes, agent: str = "claude") -> str | None:
    """Why the first bytes of a file are not the start of ``agent``'s transcript, or None."""
    if not head.strip():
        return EMPTY
    if agent != "claude":
        return _other_head_problem(head, agent)
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


# What the first line of each other agent's transcript holds (see docs/agents.md).
_FIRST_LINE = {
    "codex": (b'"session_meta"', "a Codex rollout's session_meta"),
    "gemini": (b'"projectHash"', "a Gemini chat file's header"),
}


def _other_head_problem(head: bytes, agent: str) -> str | None:
    marker, what = _FIRST_LINE.get(agent, (b"", ""))
    if not marker:
        return f"no agent is called {agent!r}"
    first, newline, _ = head.partition(b"\n")
    if not newline:  # one huge first line (Codex puts its whole instructions there): its opening
        ok = first.lstrip().startswith(b"{") and marker in first
        return None if ok else f"its first line is not {what}"
    try:
        value = leanjson.loads(first)
    except ValueError:
        return "line 1 is not JSON"
    if not isinstance(value, dict):
        return "line 1 is not a JSON object"
    if agent == "codex" and value.get("type") == "session_meta":
        return None
    if agent == "gemini" and isinstance(value.get("sessionId"), str) and "projectHash" in value:
        return None
    return f"its first line is not {what}"


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
