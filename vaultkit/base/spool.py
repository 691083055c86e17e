"""The SessionEnd hook's first act: its stdin and command line, one file in the spool.

A hook in a burst may be killed (Claude Code gives all SessionEnd hooks 1.5 s together) before
it has imported what finding the store and queueing the job take. So before anything else the
hook writes what it was given into ``<data dir>/spool/<time_ns>.<pid>.end``: one small file,
visible only once whole (:func:`vaultkit.base.fsio.publish_bytes`), not fsynced. Once the job
is queued the hook removes the entry; an entry left behind by a hook that was killed is queued
later by :mod:`vaultkit.session.queue.recover` (the queue runner and every SessionStart drain
the spool). An entry is ``MAGIC``, then NUL-separated fields (the length of stdin, the
process's working folder, the command line's words), an empty field and stdin's bytes, so a
reader can tell a whole entry from a cut one.

Lean (``os``, ``time`` and the lean ``fsio``, ``record``, ``store``): the hook command imports
this before any other vaultkit module.
"""

from __future__ import annotations

import os
import time

from vaultkit.base.fsio import publish_bytes
from vaultkit.base.record import Record
from vaultkit.base.store import data_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# Set in every process vaultkit starts (the worker, its LLM child): their hooks do nothing.
GUARD_VARS = {"VAULTKIT_CHILD": "1", "CLAUDE_WIKI_CHILD": "1"}
SPOOLED_EVENTS = ("SessionEnd", "")  # "": no event argument (the payload names it)
MAGIC = b"vaultkit-spool-1"
SUFFIX = ".end"
FOLDER = "spool"
MAX_STDIN = 1 << 20  # a SessionEnd payload is a few hundred bytes; anything larger is not one


def guarded(env: Mapping[str, str]) -> bool:
    """True when this process was started by vaultkit itself, so hooks must no-op."""
    return any(env.get(name) for name in GUARD_VARS)


def spool_dir(env: Mapping[str, str]) -> str:
    """``<data dir>/spool`` (:func:`vaultkit.base.store.data_dir`: ``$VAULTKIT_HOME``, else the
    platform's user data folder)."""
    return os.path.join(data_dir(env), FOLDER)


def event_word(argv: Sequence[str]) -> str:
    """The hook's ``EVENT`` argument (the first word that is not a flag or a flag's value)."""
    words = iter(argv)
    for word in words:
        if word == "--agent":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return ""


def wanted(argv: Sequence[str], env: Mapping[str, str]) -> bool:
    """Whether a hook with this command line spools its stdin: a SessionEnd (or an event the
    payload names), not ``--help``, not in a process vaultkit started."""
    if guarded(env) or any(word in ("-h", "--help") for word in argv):
        return False
    return event_word(argv) in SPOOLED_EVENTS


def encode(raw: bytes, cwd: str, argv: Sequence[str]) -> bytes:
    """One entry's bytes (NUL cannot occur in a path or a command-line word)."""
    fields = [MAGIC, str(len(raw)).encode(), os.fsencode(cwd), *(os.fsencode(w) for w in argv)]
    return b"\0".join([*fields, b"", raw])


class Entry(Record):
    """A decoded entry: the hook's stdin, working folder and command line."""

    raw: bytes
    cwd: str
    argv: tuple[str, ...]


def decode(data: bytes) -> Entry | None:
    """The entry ``data`` holds, or ``None`` for anything cut short or not an entry."""
    head, sep, raw = data.partition(b"\0\0")
    fields = head.split(b"\0")
    if not sep or len(fields) < 3 or fields[0] != MAGIC or not fields[1].isdigit():
        return None
    if int(fields[1]) != len(raw):
        return None
    words = tuple(os.fsdecode(w) for w in fields[3:])
    return Entry(raw, os.fsdecode(fields[2]), words)


def write(raw: bytes, argv: Sequence[str], env: Mapping[str, str]) -> str | None:
    """Spool one hook's stdin and command line; the entry's path, or ``None`` when it could not
    be written (the hook then goes on as before: it still queues its job itself)."""
    if len(raw) > MAX_STDIN:
        return None
    try:
        folder = spool_dir(env)
        path = os.path.join(folder, f"{time.time_ns()}.{os.getpid()}{SUFFIX}")
        publish_bytes(path, encode(raw, os.getcwd(), argv))
    except (OSError, ValueError):
        return None
    return path


def remove(path: str | None) -> None:
    """Remove a spool entry whose job is queued (or that needs none); never raises."""
    if path:
        try:  # noqa: SIM105  (contextlib would cost the hook an import)
            os.unlink(path)
        except OSError:
            pass


def read_stdin() -> bytes:
    """All of stdin's bytes (``b""`` for a terminal or no stdin)."""
    try:
        if os.isatty(0):
            return b""
    except OSError:
        return b""
    chunks = []
    try:
        while chunk := os.read(0, 65536):
            chunks.append(chunk)
    except OSError:
        pass
    return b"".join(chunks)
