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


def head_problem(head: bytes, agent: str = known.DEFAULT) -> str | None:
    """Why the first bytes of a file are not the start of ``agent``'s transcript, or None."""
    if not head.strip():
        return EMPTY
    try:
        lean = known.lean(agent)
    except KeyError:
        return f"no agent is called {agent!r}"
    return lean.head_problem(head)
