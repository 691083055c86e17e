"""Distillation backends: ``claude``, ``codex``, ``gemini``, any command, the offline distiller.

``run_backend`` runs one attempt with the configured backend and classifies it (see
:mod:`vaultkit.session.distill.childrun`): ``ok``, ``empty-output``, ``no-markers``, ``timeout``,
``llm-error`` or ``infra`` (login, quota, network, missing binary — never saved as a note).
``auto`` picks the CLI of the agent whose session it is when that CLI can run here, else
``claude`` when it can, else the offline distiller. ``claude -p`` answers in its JSON form: the
answer text is its ``result``, and its token usage and ``total_cost_usd`` travel with the
attempt; ``codex`` (:mod:`vaultkit.session.distill.codexcli`) and ``gemini``
(:mod:`vaultkit.session.distill.geminicli`) report tokens and no cost; a command reports nothing.
Every CLI child runs guarded: hooks disabled, guard variables set, no saved session, a private
folder, its process group killed when the attempt ends or the worker dies.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from vaultkit.agents.childenv import GUARD_VARS
from vaultkit.base.config import Config
from vaultkit.base.record import Record
from vaultkit.base.store import STORE_DIR, git_root
from vaultkit.session.distill import codexcli, geminicli
from vaultkit.session.distill.childrun import (
    BackendResult,
    Status,
    child_env,
    classify,
    guarded_argv,
    missing_binary,
    run_child,
)
from vaultkit.session.distill.costs import Usage
from vaultkit.session.distill.markers import Parsed
from vaultkit.session.notes.naming import short_id
from vaultkit.session.transcripts.condense import Digest
from vaultkit.session.transcripts.redact import redact

__all__ = [
    "BackendResult",
    "OfflineFacts",
    "Status",
    "child_env",
    "choose",
    "classify",
    "claude_answer",
    "claude_argv",
    "guarded_argv",
    "offline_answer",
    "offline_parts",
    "offline_title",
    "run_backend",
]

CLI_BACKENDS = ("claude", "codex", "gemini")


@dataclass(frozen=True, slots=True)
class OfflineFacts:
    """What the offline distiller needs (it reads no prompt)."""

    digest: Digest
    cwd: str
    project: str
    session_id: str


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


def _run(
    argv: list[str], prompt: str, config: Config, backend: str, *, json_answer: bool = False
) -> BackendResult:
    timeout = config.distill.timeout
    with tempfile.TemporaryDirectory(prefix="vaultkit-distill-") as workdir:
        try:
            ran = run_child(argv, prompt, env=child_env(config), cwd=workdir, timeout=timeout)
        except OSError as exc:
            return BackendResult("infra", "", f"cannot start {argv[0]}: {exc}", backend)
    if ran is None:
        return BackendResult("timeout", "", f"no answer within {max(1, timeout)} s", backend)
    answer = claude_answer(ran.stdout) if json_answer else None
    if answer is None:
        status, detail = classify(ran.returncode, ran.stdout, ran.stderr)
        return BackendResult(status, ran.stdout, detail, backend)
    code = ran.returncode or int(answer.is_error)  # an error result that exited 0 is an error
    status, detail = classify(code, answer.text, ran.stderr or answer.text)
    if answer.subtype not in ("", "success"):
        detail = f"{detail} ({answer.subtype})"
    return BackendResult(status, answer.text, detail, backend, answer.usage)


def _run_claude(prompt: str, config: Config) -> BackendResult:
    binary = shutil.which(config.distill.claude_path, path=child_env(config).get("PATH"))
    if binary is None:
        return missing_binary("claude", config.distill.claude_path)
    return _run(claude_argv(config, binary), prompt, config, "claude", json_answer=True)


def _run_command(prompt: str, config: Config) -> BackendResult:
    argv = list(config.distill.command)
    if not argv:
        return BackendResult("infra", "", "distill.command is empty in vaultkit.toml", "command")
    return _run(argv, prompt, config, "command")


def runnable(backend: str, config: Config, env: Mapping[str, str] | None = None) -> bool:
    """True when the ``claude``/``codex``/``gemini`` backend's CLI is on the child's PATH (and,
    for ``gemini``, an API key is there for it: its child cannot use a Google login)."""
    env = child_env(config, env)
    paths = {
        "claude": config.distill.claude_path,
        "codex": config.distill.codex_path,
        "gemini": config.distill.gemini_path,
    }
    if backend not in paths or shutil.which(paths[backend], path=env.get("PATH")) is None:
        return False
    return backend != "gemini" or bool(geminicli.auth_type(env))


def choose(config: Config, agent: str = "claude", env: Mapping[str, str] | None = None) -> str:
    """The backend an attempt for ``agent``'s session uses: the configured one, or for ``auto``
    the agent's own CLI when it can run, else ``claude`` when it can, else ``offline``."""
    backend = config.distill.backend
    if backend != "auto":
        return backend
    for name in dict.fromkeys((agent, "claude")):
        if name in CLI_BACKENDS and runnable(name, config, env):
            return name
    return "offline"


HINTS = {
    "claude": "check `claude` login/quota or distill.claude_path in vaultkit.toml",
    "codex": "check `codex login`/quota or distill.codex_path in vaultkit.toml",
    "gemini": "check GEMINI_API_KEY, the Gemini quota or distill.gemini_path in vaultkit.toml",
    "command": "check distill.command in vaultkit.toml",
}


def hint(backend: str) -> str:
    """What to check when ``backend`` could not run (the InfraError hint)."""
    return HINTS.get(backend, "check distill.backend in vaultkit.toml")


def run_backend(
    prompt: str, config: Config, *, offline: OfflineFacts | None = None, agent: str = "claude"
) -> BackendResult:
    """One attempt with the backend :func:`choose` picks for ``agent``'s session (``claude`` |
    ``codex`` | ``gemini`` | ``command`` | ``offline``)."""
    backend = choose(config, agent)
    if backend == "offline":
        if offline is None:
            return BackendResult("infra", "", "offline backend needs transcript facts", backend)
        return BackendResult("ok", offline_answer(offline), "offline", backend)
    if backend == "command":
        return _run_command(prompt, config)
    if backend == "claude":
        return _run_claude(prompt, config)
    if backend == "codex":
        return codexcli.run_codex(prompt, config)
    if backend == "gemini":
        return geminicli.run_gemini(prompt, config)
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
