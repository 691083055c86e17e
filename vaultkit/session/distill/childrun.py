"""Run one distillation CLI child under the guard and classify what it printed.

Every backend's child starts the same way: a cleaned environment with vaultkit's guard variables
set, a private working folder, the prompt on stdin, and a process group of its own that the
worker kills whenever the attempt ends (answer, timeout, or the worker unwinding from
SIGTERM/SIGHUP/SIGINT); when the worker dies without running any code (SIGKILL),
:mod:`vaultkit.session.distill.childguard` sees its parent gone and kills the group itself.
:func:`classify` turns an exit code and the answer text into ``ok``, ``empty-output``,
``no-markers``, ``llm-error`` or ``infra`` (login, quota, network, missing binary — never saved
as a note), whichever CLI printed it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from vaultkit.agents.childenv import child_environment
from vaultkit.base.config import Config
from vaultkit.base.record import Record
from vaultkit.session.distill.costs import NO_USAGE, Usage
from vaultkit.session.distill.markers import parse_markers
from vaultkit.session.transcripts.redact import redact

# ``rejected``: an answer with every part that the self-check refused (its detail says why).
Status = Literal["ok", "empty-output", "no-markers", "timeout", "llm-error", "infra", "rejected"]

# Unmistakable infrastructure banners: infra whatever the exit code. Claude Code's, then Codex's
# (``unexpected status 401 Unauthorized: Incorrect API key provided``) and Gemini CLI's
# (``API key not valid``, ``RESOURCE_EXHAUSTED``) as the pinned CLIs print them.
_INFRA_STRONG = re.compile(
    r"(?i)usage limit reached|limit reached\|\d|invalid api key|please run /login|not logged in"
    r"|credit balance is too low|authentication_error|oauth token (?:has )?expired"
    r"|api error: ?(?:5\d\d|429)|overloaded_error|rate_limit_error"
    r"|incorrect api key|api key not valid|insufficient_quota|exceeded your current quota"
    r"|resource_exhausted|resource has been exhausted|unexpected status (?:401|403|429)\b"
)
# Words that are infra only when the process also failed (a short answer may mention them).
_INFRA_WEAK = re.compile(
    r"(?i)rate[ _-]?limit|overloaded|limit will reset|authentication failed"
    r"|internal server error|bad gateway|service unavailable|gateway timeout|connection refused"
    r"|econnrefused|econnreset|enotfound|etimedout|unable to connect|fetch failed|network error"
    r"|unexpected status 5\d\d|error sending request|stream disconnected|quota"
)
INFRA_OUTPUT_MAX = 600  # longer marker-less answers are model output, not an error banner
KILL_GRACE = 5


@dataclass(frozen=True, slots=True)
class BackendResult:
    """One attempt. ``output`` is the answer text; ``detail`` a short reason for the log."""

    status: Status
    output: str
    detail: str
    backend: str
    usage: Usage = NO_USAGE


class Ran(Record):
    """A child that exited: its exit code and what it printed (decoded, errors replaced)."""

    returncode: int
    stdout: str
    stderr: str


def child_env(config: Config, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default ``os.environ``) without the agent's session variables, guards set.

    ``ANTHROPIC_API_KEY`` is dropped too when ``distill.strip_api_key`` is on (forces the
    subscription login, as the seed did)."""
    drop = frozenset({"ANTHROPIC_API_KEY"}) if config.distill.strip_api_key else frozenset()
    return child_environment(os.environ if base is None else base, drop=drop)


def classify(returncode: int, stdout: str, stderr: str) -> tuple[Status, str]:
    """Classify a finished attempt from its exit code and output."""
    parsed = parse_markers(stdout)
    if returncode == 0 and parsed.complete:
        return "ok", "ok"
    banner = stdout.strip() if len(stdout.strip()) <= INFRA_OUTPUT_MAX else ""
    errors = stderr[-4000:]
    strong = _INFRA_STRONG.search(banner) or _INFRA_STRONG.search(errors)
    weak = returncode != 0 and (_INFRA_WEAK.search(banner) or _INFRA_WEAK.search(errors))
    if strong or weak:
        return "infra", short(banner or stderr)
    if returncode != 0:
        return "llm-error", f"exit {returncode}: {short(stderr or stdout)}"
    if not stdout.strip():
        return "empty-output", "empty output"
    return "no-markers", "missing markers: " + ", ".join(parsed.missing or ("empty part",))


def short(text: str) -> str:
    """``text`` redacted, on one line, at most 300 characters (for the log)."""
    flat = " ".join(redact(text).split())
    return flat[:300]


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child's whole process group (it leads one), or the child alone elsewhere."""
    with contextlib.suppress(OSError):
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()


def guarded_argv(argv: list[str]) -> list[str]:
    """``argv`` run under the child guard (POSIX), which kills its group when the worker dies."""
    if os.name != "posix":
        return argv
    guard = [sys.executable, "-m", "vaultkit.session.distill.childguard", str(os.getpid()), "--"]
    return guard + argv


def _start(argv: list[str], cwd: str, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    if shutil.which(argv[0], path=env.get("PATH")) is None:  # the guard would only exit 127
        raise FileNotFoundError(2, "No such file or directory", argv[0])
    return subprocess.Popen(
        guarded_argv(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=dict(env),
        start_new_session=os.name == "posix",
    )


def _answer(proc: subprocess.Popen[bytes], prompt: str, timeout: int) -> tuple[bytes, bytes] | None:
    """The child's output, or None when it timed out; its process group is gone afterwards,
    whatever ends the wait (an answer, the timeout, or the worker being stopped)."""
    try:
        return proc.communicate(prompt.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    finally:
        _kill(proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=KILL_GRACE)


def run_child(
    argv: list[str], prompt: str, *, env: Mapping[str, str], cwd: str, timeout: int
) -> Ran | None:
    """Run ``argv`` in ``cwd`` with ``prompt`` on stdin; None when it gave no answer within
    ``timeout`` seconds. Raises OSError when it cannot start (a missing binary included)."""
    proc = _start(argv, cwd, env)
    output = _answer(proc, prompt, max(1, timeout))
    if output is None:
        return None
    out, err = output
    return Ran(
        returncode=proc.returncode,
        stdout=out.decode("utf-8", errors="replace"),
        stderr=err.decode("utf-8", errors="replace"),
    )


def missing_binary(backend: str, path: str) -> BackendResult:
    """The infra result of a backend whose CLI is not found (the hint names the setting)."""
    return BackendResult("infra", "", f"{backend} CLI not found: {path}", backend)
