"""Is a file an agent's own transcript? Each agent's rule (where it keeps them, what their first
lines look like: its lean part), applied the same way for every agent.

Lean (stdlib only): the SessionEnd hook checks the path (:func:`path_problem`, no reading), the
worker checks the path and the first lines again just before it copies (:func:`file_problem`, on
a descriptor opened without following a symlink), and ``vaultkit ingest`` checks the lines of a
file the user names. Each returns the reason a file is refused, or ``None``.
"""

from __future__ import annotations

import os
import stat

from vaultkit.agents import known
from vaultkit.base import leanjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

HEAD_BYTES = 64 * 1024
EMPTY = "the file is empty"


def path_problem(path: str, env: Mapping[str, str], agent: str = known.DEFAULT) -> str | None:
    """Why ``path`` is not ``agent``'s transcript judging by its path alone (a missing file passes:
    the caller decides what a transcript that is gone means)."""
    try:
        lean = known.lean(agent)
    except KeyError:
        return f"no agent is called {agent!r}"
    return lean.path_problem(path, env)


def file_problem(
    path: str, env: Mapping[str, str], *, anywhere: bool = False, agent: str = known.DEFAULT
) -> str | None:
    """:func:`path_problem` (unless ``anywhere``), then the file itself: a regular file, opened
    without following a symlink, whose first lines are ``agent``'s transcript records."""
    problem = None if anywhere else path_problem(path, env, agent)
    if problem is not None:
        return problem
    head, problem = read_head(path)
    return problem if head is None else head_problem(head, agent)


def read_head(path: str) -> tuple[bytes | None, str | None]:
    """The first :data:`HEAD_BYTES` of the regular file at ``path`` (opened without following a
    symlink), or ``None`` and why it cannot be read."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(os.path.realpath(path), flags)
    except FileNotFoundError:
        return None, "does not exist"
    except OSError as exc:
        return None, f"cannot be opened ({exc.strerror})"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "not a regular file"
        return os.read(fd, HEAD_BYTES), None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    finally:
        os.close(fd)


def hook_problem(
    path: str, env: Mapping[str, str], session_id: str, agent: str = known.DEFAULT
) -> str | None:
    """Why the SessionEnd hook refuses ``path`` as session ``session_id``'s transcript: its path
    (:func:`path_problem`), then, when the file is there, its first lines and the session id it
    carries (:func:`id_problem`). A missing file passes: the worker finds out what it means."""
    problem = path_problem(path, env, agent)
    if problem is not None or not os.path.lexists(path):
        return problem
    head, problem = read_head(path)
    if head is None:
        return problem
    return head_problem(head, agent) or id_problem(path, head, session_id, agent)


def own_ids(path: str, head: bytes, agent: str = known.DEFAULT) -> tuple[str, ...]:
    """The session ids a transcript gives itself: its name's, when ``agent``'s names carry the
    whole id (Claude Code's ``<id>.jsonl``, Codex's rollouts), else those its first complete
    lines record (a Gemini chat file's header)."""
    lean = known.lean(agent)
    named = lean.session_id_from_name(path)
    if named:
        return (named,)
    found: list[str] = []
    for line in head.split(b"\n")[:-1]:
        try:
            record = leanjson.loads(line) if line.strip() else None
        except ValueError:
            continue
        own = lean.record_session_id(record) if isinstance(record, dict) else ""
        if own and own not in found:
            found.append(own)
    return tuple(found)


def id_problem(path: str, head: bytes, session_id: str, agent: str = known.DEFAULT) -> str | None:
    """Why ``session_id`` (the payload's) is not the transcript's own, or ``None`` (also when the
    transcript names no id, or the payload none)."""
    own = own_ids(path, head, agent)
    if not own or not session_id or session_id in own:
        return None
    return f"it is session {own[0]}'s transcript, not {session_id}'s"


def head_problem(head: bytes, agent: str = known.DEFAULT) -> str | None:
    """Why the first bytes of a file are not the start of ``agent``'s transcript, or None."""
    if not head.strip():
        return EMPTY
    try:
        lean = known.lean(agent)
    except KeyError:
        return f"no agent is called {agent!r}"
    return lean.head_problem(head)
