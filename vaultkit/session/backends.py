"""Distillation backends: the ``claude`` CLI, any command, and the offline extractive distiller.

``run_backend`` runs one attempt and classifies it: ``ok``, ``empty-output``, ``no-markers``,
``timeout``, ``llm-error`` or ``infra`` (login, quota, network, missing binary — never saved as a
note). Child processes start in a private temp folder with a cleaned environment and the guard
variables set, so a ``claude -p`` child can never trigger vaultkit's hooks again. ``claude -p``
answers in its JSON form: the answer text is its ``result``, and its token usage and
``total_cost_usd`` travel with the attempt (other backends report no usage).

A child never outlives the worker. On POSIX it runs under :mod:`vaultkit.session.childguard` in a
process group of its own; whenever the attempt ends — answer, timeout, or the worker unwinding
from SIGTERM/SIGHUP/SIGINT (``SystemExit``) — the worker kills that whole group and reaps it, and
when the worker dies without running any code (SIGKILL) the guard sees its parent gone and kills
the group itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from vaultkit.agents.childenv import GUARD_VARS, child_environment
from vaultkit.base.config import Config
from vaultkit.base.record import Record
from vaultkit.base.store import STORE_DIR, git_root
from vaultkit.session.costs import NO_USAGE, Usage
from vaultkit.session.markers import Parsed, parse_markers
from vaultkit.session.naming import short_id
from vaultkit.session.redact import redact
from vaultkit.session.transcript import Digest

Status = Literal["ok", "empty-output", "no-markers", "timeout", "llm-error", "infra"]

# Unmistakable infrastructure banners: infra whatever the exit code.
_INFRA_STRONG = re.compile(
    r"(?i)usage limit reached|limit reached\|\d|invalid api key|please run /login|not logged in"
    r"|credit balance is too low|authentication_error|oauth token (?:has )?expired"
    r"|api error: ?(?:5\d\d|429)|overloaded_error|rate_limit_error"
)
# Words that are infra only when the process also failed (a short answer may mention them).
_INFRA_WEAK = re.compile(
    r"(?i)rate[ _-]?limit|overloaded|limit will reset|authentication failed"
    r"|internal server error|bad gateway|service unavailable|gateway timeout|connection refused"
    r"|econnrefused|econnreset|enotfound|etimedout|unable to connect|fetch failed|network error"
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


@dataclass(frozen=True, slots=True)
class OfflineFacts:
    """What the offline distiller needs (it reads no prompt)."""

    digest: Digest
    cwd: str
    project: str
    session_id: str


def child_env(config: Config, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default ``os.environ``) without Claude Code's session variables, guards set.

    ``ANTHROPIC_API_KEY`` is dropped too when ``distill.strip_api_key`` is on (forces the
    subscription login, as the seed did)."""
    drop = frozenset({"ANTHROPIC_API_KEY"}) if config.distill.strip_api_key else frozenset()
    return child_environment(os.environ if base is None else base, drop=drop)


def claude_argv(config: Config, binary: str) -> list[str]:
    """The ``claude -p`` command line: no tools, no MCP servers, no hooks, no saved session."""
    return [
        binary,
        "-p",
        "--model",
        config.distill.model,
        "--output-format",
        "json",
        "--no-session-persistence",
        "--settings",
        json.dumps({"disableAllHooks": True}),
        "--tools",
        "",
        "--strict-mcp-config",
    ]


class ClaudeAnswer(Record):
    """What ``claude -p --output-format json`` printed: the answer text, whether the CLI called it
    an error, and the usage it reported."""

    text: str
    is_error: bool
    subtype: str
    usage: Usage


def _count(data: Mapping[str, object], key: str) -> int:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _dollars(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _usage(data: Mapping[str, object]) -> Usage:
    raw = data.get("usage")
    usage: Mapping[str, object] = raw if isinstance(raw, dict) else {}
    models = data.get("modelUsage")
    inputs = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    return Usage(
        input_tokens=sum(_count(usage, key) for key in inputs),
        output_tokens=_count(usage, "output_tokens"),
        cost_usd=_dollars(data.get("total_cost_usd")),
        model=next(iter(models), "") if isinstance(models, dict) else "",
    )


def claude_answer(stdout: str) -> ClaudeAnswer | None:
    """The parts of ``claude -p --output-format json`` output; None when ``stdout`` is not it."""
    try:
        data = json.loads(stdout)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "result":
        return None
    text, subtype = data.get("result"), data.get("subtype")
    return ClaudeAnswer(
        text=text if isinstance(text, str) else "",
        is_error=data.get("is_error") is True,
        subtype=subtype if isinstance(subtype, str) else "",
        usage=_usage(data),
    )


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
        return "infra", _short(banner or stderr)
    if returncode != 0:
        return "llm-error", f"exit {returncode}: {_short(stderr or stdout)}"
    if not stdout.strip():
        return "empty-output", "empty output"
    return "no-markers", "missing markers: " + ", ".join(parsed.missing or ("empty part",))


def _short(text: str) -> str:
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
    guard = [sys.executable, "-m", "vaultkit.session.childguard", str(os.getpid()), "--"]
    return guard + argv


def _start(argv: list[str], workdir: str, config: Config) -> subprocess.Popen[bytes]:
    env = child_env(config)
    if shutil.which(argv[0], path=env.get("PATH")) is None:  # the guard would only exit 127
        raise FileNotFoundError(2, "No such file or directory", argv[0])
    return subprocess.Popen(
        guarded_argv(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=workdir,
        env=env,
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


def _run(
    argv: list[str], prompt: str, config: Config, backend: str, *, json_answer: bool = False
) -> BackendResult:
    timeout = max(1, config.distill.timeout)
    with tempfile.TemporaryDirectory(prefix="vaultkit-distill-") as workdir:
        try:
            proc = _start(argv, workdir, config)
        except OSError as exc:
            return BackendResult("infra", "", f"cannot start {argv[0]}: {exc}", backend)
        output = _answer(proc, prompt, timeout)
    if output is None:
        return BackendResult("timeout", "", f"no answer within {timeout} s", backend)
    out, err = output
    stdout = out.decode("utf-8", errors="replace")
    stderr = err.decode("utf-8", errors="replace")
    answer = claude_answer(stdout) if json_answer else None
    if answer is None:
        status, detail = classify(proc.returncode, stdout, stderr)
        return BackendResult(status, stdout, detail, backend)
    code = proc.returncode or int(answer.is_error)  # an error result that exited 0 is an error
    status, detail = classify(code, answer.text, stderr or answer.text)
    if answer.subtype not in ("", "success"):
        detail = f"{detail} ({answer.subtype})"
    return BackendResult(status, answer.text, detail, backend, answer.usage)


def _run_claude(prompt: str, config: Config) -> BackendResult:
    binary = shutil.which(config.distill.claude_path, path=child_env(config).get("PATH"))
    if binary is None:
        detail = f"claude CLI not found: {config.distill.claude_path}"
        return BackendResult("infra", "", detail, "claude")
    return _run(claude_argv(config, binary), prompt, config, "claude", json_answer=True)


def _run_command(prompt: str, config: Config) -> BackendResult:
    argv = list(config.distill.command)
    if not argv:
        return BackendResult("infra", "", "distill.command is empty in vaultkit.toml", "command")
    return _run(argv, prompt, config, "command")


def run_backend(
    prompt: str, config: Config, *, offline: OfflineFacts | None = None
) -> BackendResult:
    """One attempt with the configured backend (``claude`` | ``command`` | ``offline``)."""
    backend = config.distill.backend
    if backend == "offline":
        if offline is None:
            return BackendResult("infra", "", "offline backend needs transcript facts", backend)
        return BackendResult("ok", offline_answer(offline), "offline", backend)
    if backend == "command":
        return _run_command(prompt, config)
    if backend == "claude":
        return _run_claude(prompt, config)
    return BackendResult("infra", "", f"unknown distill.backend {backend!r}", backend)


def _git(cwd: str, *args: str) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", cwd, *args],
            capture_output=True,
            timeout=10,
            check=False,
            env={**os.environ, **GUARD_VARS},
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    if out.returncode != 0:
        return ""
    lines = out.stdout.decode("utf-8", errors="replace").splitlines()
    if args[0] == "status":  # the store itself is not the user's change
        lines = [line for line in lines if not line[3:].startswith(f"{STORE_DIR}/")]
    lines = lines[:30]
    return redact("\n".join(lines))


def git_facts(cwd: str) -> str:
    """``git status --short`` and ``git log -5 --oneline`` of ``cwd`` when it is a repository."""
    if not cwd or not Path(cwd).is_dir() or git_root(Path(cwd)) is None:
        return ""
    status = _git(cwd, "status", "--short")
    log = _git(cwd, "log", "-5", "--oneline")
    parts = []
    if status:
        parts.append(f"git status --short:\n{status}")
    if log:
        parts.append(f"git log -5 --oneline:\n{log}")
    return "\n\n".join(parts)


_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "intro": "_Extracted without an LLM (offline distiller); see the raw transcript._",
        "requests": "Recent requests",
        "files": "Files touched",
        "commands": "Commands run",
        "last": "Last assistant message",
        "none": "(none recorded)",
        "project": "Project",
        "branch": "Branch",
        "first": "First request",
    },
    "ko": {
        "intro": "_LLM 없이 추출한 요약입니다(오프라인). 자세한 내용은 원본 대화를 확인하세요._",
        "requests": "최근 요청",
        "files": "수정한 파일",
        "commands": "실행한 명령",
        "last": "마지막 응답",
        "none": "(기록 없음)",
        "project": "프로젝트",
        "branch": "브랜치",
        "first": "첫 요청",
    },
}


def language(digest: Digest) -> str:
    """``"ko"`` when the user mostly wrote Hangul, else ``"en"`` (labels of offline notes)."""
    text = " ".join(digest.recent_prompts) or digest.first_prompt
    letters = [ch for ch in text if ch.isalpha()]
    hangul = sum(1 for ch in letters if "\uac00" <= ch <= "\ud7a3" or "\u3131" <= ch <= "\u318e")
    return "ko" if letters and hangul * 3 >= len(letters) else "en"


def _bullets(items: tuple[str, ...], none: str, code: bool = False) -> str:
    if not items:
        return f"- {none}"
    return "\n".join(f"- `{i}`" if code else f"- {i}" for i in items)


OFFLINE_TITLE_MAX = 60


def offline_title(facts: OfflineFacts) -> str:
    """The first request, cut on a word boundary when one falls in the last third."""
    first = facts.digest.first_prompt.strip()
    if not first:
        return f"Session {short_id(facts.session_id)}"
    if len(first) <= OFFLINE_TITLE_MAX:
        return first
    cut = first[: OFFLINE_TITLE_MAX + 1].rsplit(" ", 1)[0][:OFFLINE_TITLE_MAX]
    if len(cut) < OFFLINE_TITLE_MAX * 2 // 3:
        cut = first[:OFFLINE_TITLE_MAX]
    return cut.rstrip(" ,.;:-") + "…"


def offline_parts(facts: OfflineFacts) -> Parsed:
    """Title, handoff and wiki text extracted without any LLM."""
    digest = facts.digest
    label = _LABELS[language(digest)]
    none = label["none"]
    files = _bullets(digest.files_touched[-25:], none, code=True)
    last = "\n".join(f"> {line}" for line in digest.last_assistant.splitlines()) or f"> {none}"
    handoff = [
        label["intro"],
        f"## {label['requests']}\n{_bullets(digest.recent_prompts[-6:], none)}",
        f"## {label['files']}\n{files}",
        f"## {label['commands']}\n{_bullets(digest.commands[-15:], none, code=True)}",
        f"## {label['last']}\n{last}",
    ]
    git = git_facts(facts.cwd)
    if git:
        handoff.append(f"## Git\n```text\n{git}\n```")
    facts_list = (
        f"- {label['project']}: {facts.project}\n"
        f"- {label['branch']}: {digest.git_branch or none}\n"
        f"- {label['first']}: {digest.first_prompt or none}"
    )
    wiki = [label["intro"], facts_list, f"## {label['files']}\n{files}"]
    return Parsed(offline_title(facts), "\n\n".join(handoff), "\n\n".join(wiki), ())


def offline_answer(facts: OfflineFacts) -> str:
    """:func:`offline_parts` in the three-marker answer format."""
    parts = offline_parts(facts)
    return (
        "\n".join(
            ["@@@TITLE@@@", parts.title, "@@@HANDOFF@@@", parts.handoff, "@@@WIKI@@@", parts.wiki]
        )
        + "\n"
    )
