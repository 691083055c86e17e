"""git's ``user.name`` read from its config files, without starting git (lean, for SessionStart).

Reads the system, global and repository config files in git's order (later wins). Returns
``None`` whenever the answer could differ from ``git config user.name``: an ``[include]`` or
``[includeIf]`` section, config given through the environment, a worktree's ``.git`` file; the
caller then asks git itself (:func:`vaultkit.base.author.current_author`).
"""

from __future__ import annotations

import os

from vaultkit.base.store import find_git_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_BYTES = 256 * 1024


class _Unsure(Exception):
    """The files alone cannot say what git would answer."""


def _files(cwd: str, env: Mapping[str, str]) -> list[str]:
    if any(key in env for key in ("GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG")):
        raise _Unsure
    home = env.get("HOME") or os.path.expanduser("~")
    files = [] if env.get("GIT_CONFIG_NOSYSTEM") else ["/etc/gitconfig"]
    if "GIT_CONFIG_GLOBAL" in env:
        files.append(env["GIT_CONFIG_GLOBAL"])
    else:
        xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        files += [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    root = find_git_root(os.path.realpath(cwd))
    if root is not None:
        git = os.path.join(root, ".git")
        if not os.path.isdir(git):
            raise _Unsure  # a worktree or submodule: its config lives elsewhere
        files.append(os.path.join(git, "config"))
    return files


def _value(raw: str) -> str:
    """A config value: quotes removed, an unquoted ``#``/``;`` comment cut, escapes kept."""
    out, quoted = [], False
    chars = iter(raw.strip())
    for ch in chars:
        if ch == '"':
            quoted = not quoted
        elif ch == "\\":
            nxt = next(chars, "")
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
        elif ch in "#;" and not quoted:
            break
        else:
            out.append(ch)
    return "".join(out).strip()


def _name_in(text: str) -> str | None:
    """The last ``user.name`` of one file's text (``None``: not set there)."""
    found, section = None, ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            head = line[1 : line.find("]")].strip().lower()
            if head.startswith("include"):
                raise _Unsure
            section = head
            line = line[line.find("]") + 1 :].strip()
        if section != "user" or "=" not in line:
            continue
        key, _, raw = line.partition("=")
        if key.strip().lower() == "name":
            found = _value(raw)
    return found


def user_name(cwd: str, env: Mapping[str, str] | None = None) -> str | None:
    """``user.name`` as git would read it from ``cwd`` (``""``: not set), or ``None`` when only
    git itself can tell."""
    environ = os.environ if env is None else env
    name = ""
    try:
        for path in _files(cwd, environ):
            try:
                with open(path, "rb") as handle:
                    text = handle.read(MAX_BYTES).decode("utf-8", errors="replace")
            except OSError:
                continue
            found = _name_in(text)
            if found is not None:
                name = found
    except _Unsure:
        return None
    return name
