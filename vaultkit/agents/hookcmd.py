"""The command an agent runs for a vaultkit hook: this environment's Python with ``-I -S`` on the
package's entry file, the fastest start an installed vaultkit has (issue 12: twenty SessionEnd
hooks at once, each within 300 ms).

pip's ``vaultkit-hook`` console script imports :mod:`re` before vaultkit and runs :mod:`site`
(the site-packages scan and every ``.pth`` file); together that is about a third of a hook's
CPU. ``PYTHON -I -S …/vaultkit/vaultkit_hook.py EVENT`` skips both and works for any install
that leaves the package as files (venv, pipx, uv tool, editable): both paths are read from the
running process at install time. Where they cannot be (no interpreter path, a zipped package),
the console script is the command, as before.
"""

from __future__ import annotations

import os
import shlex
from typing import Any

import vaultkit

FLAGS = ("-I", "-S")
ENTRY = "vaultkit_hook.py"
MARK = "vaultkit_hook"  # in registration.MARKS: how vaultkit knows this command as its own


def entry_file() -> str:
    """The entry file of the vaultkit package this process runs."""
    return os.path.join(os.path.dirname(os.path.abspath(vaultkit.__file__)), ENTRY)


def hook_command(python: str, console_script: str) -> tuple[str, ...]:
    """The words before the event name: ``(python, "-I", "-S", entry)`` when ``python`` is an
    absolute path to a file and the entry file exists, else ``(console_script,)``."""
    entry = entry_file()
    if python and os.path.isabs(python) and os.path.isfile(python) and os.path.isfile(entry):
        return (python, *FLAGS, entry)
    return (console_script,)


def shell_line(command: tuple[str, ...] | list[str], event: str) -> str:
    """The command and its event as one shell command line (for agents that take only that)."""
    return " ".join(shlex.quote(word) for word in (*command, event))


def program_of(words: list[str]) -> str:
    """The file a hook command depends on: vaultkit's entry file when the command runs one (a
    Python that outlives an uninstalled vaultkit would still start), else its first word."""
    for word in words:
        if os.path.basename(word.replace("\\", "/")) == ENTRY:
            return word
    return words[0] if words else ""


def executable_of(hook: dict[str, Any]) -> str:
    """The program a hook entry runs (exec form: ``command``; shell form: its first word), or
    vaultkit's entry file when the command runs one on a Python."""
    command = str(hook.get("command", ""))
    args = hook.get("args")
    if "args" in hook:
        extra = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
        return program_of([command, *extra])
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    return program_of(words)
