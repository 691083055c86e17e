"""Who is writing: the name recorded as a note's ``author:`` (git ``user.name``, else the OS user).

Lean: only ``os`` at import time (``subprocess`` when git is asked), so the SessionStart path
may use it.
"""

from __future__ import annotations

import os

_MAX_LEN = 80


def clean_author(name: str) -> str:
    """``name`` as it may appear in frontmatter and in injected text: one line, no control
    characters, no YAML or Markdown structure, at most 80 characters. Untrusted input (a
    teammate's note) goes through here before it is shown."""
    kept = "".join(ch if ch.isprintable() else " " for ch in name)
    kept = kept.replace("[", "(").replace("]", ")").replace("`", "'")
    return " ".join(kept.split())[:_MAX_LEN].strip(" :#-")


def git_user_name(cwd: str) -> str:
    """``git config user.name`` as seen from ``cwd``, or ``""`` when git or the setting is
    missing (a hook never fails over it)."""
    import subprocess  # only when git is asked: SessionStart reads its config files first

    try:
        done = subprocess.run(
            ["git", "config", "--get", "user.name"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, ValueError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def os_user_name() -> str:
    """The login name of this process's user, or ``""``."""
    for var in ("USER", "LOGNAME", "USERNAME"):
        if value := os.environ.get(var, ""):
            return value
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, OSError):
        return ""


def current_author(cwd: str) -> str:
    """The author of what this user writes from ``cwd``: git ``user.name``, else the OS user,
    cleaned by :func:`clean_author`; ``"unknown"`` when neither is known."""
    return clean_author(git_user_name(cwd) or os_user_name()) or "unknown"
