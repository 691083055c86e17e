"""Distillation backends: an agent's own CLI, any command, the offline distiller.

``run_backend`` runs one attempt with the configured backend and classifies it (see
:mod:`vaultkit.session.distill.childrun`): ``ok``, ``empty-output``, ``no-markers``, ``timeout``,
``llm-error`` or ``infra`` (login, quota, network, missing binary — never saved as a note).
An agent's name (``claude``, ``codex``, ``gemini``) is that agent's CLI
(:mod:`vaultkit.session.distill.agentcli` runs it; what it is belongs to the agent: ``claude
-p`` reports tokens and ``total_cost_usd``, Codex and Gemini tokens and no cost); ``auto`` picks
the CLI of the agent whose session it is when that CLI can run here, else the default agent's
(Claude Code's) when it can, else the offline distiller; a command reports nothing. Every CLI
child runs guarded: hooks disabled, guard variables set, no saved session, a private folder,
its process group killed when the attempt ends or the worker dies.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from vaultkit.agents import known
from vaultkit.agents.childenv import GUARD_VARS
from vaultkit.base.config import Config
from vaultkit.base.store import STORE_DIR, git_root
from vaultkit.session.distill import agentcli, openaicompat
from vaultkit.session.distill.childrun import (
    BackendResult,
    Status,
    child_env,
    classify,
    guarded_argv,
    run_child,
)
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
    "guarded_argv",
    "offline_answer",
    "offline_parts",
    "offline_title",
    "run_backend",
]


@dataclass(frozen=True, slots=True)
class OfflineFacts:
    """What the offline distiller needs (it reads no prompt)."""

    digest: Digest
    cwd: str
    project: str
    session_id: str


def _run(argv: list[str], prompt: str, config: Config, backend: str) -> BackendResult:
    timeout = config.distill.timeout
    with tempfile.TemporaryDirectory(prefix="vaultkit-distill-") as workdir:
        try:
            ran = run_child(argv, prompt, env=child_env(config), cwd=workdir, timeout=timeout)
        except OSError as exc:
            return BackendResult("infra", "", f"cannot start {argv[0]}: {exc}", backend)
    if ran is None:
        return BackendResult("timeout", "", f"no answer within {max(1, timeout)} s", backend)
    status, detail = classify(ran.returncode, ran.stdout, ran.stderr)
    return BackendResult(status, ran.stdout, detail, backend)


def _run_command(prompt: str, config: Config) -> BackendResult:
    argv = list(config.distill.command)
    if not argv:
        return BackendResult("infra", "", "distill.command is empty in vaultkit.toml", "command")
    return _run(argv, prompt, config, "command")


def runnable(backend: str, config: Config, env: Mapping[str, str] | None = None) -> bool:
    """True when ``backend`` is an agent's CLI that can run here (on the child's PATH, and, for
    ``gemini``, an API key there for it: its child cannot use a Google login)."""
    return agentcli.runnable(backend, config, env)


def choose(config: Config, agent: str = known.DEFAULT, env: Mapping[str, str] | None = None) -> str:
    """The backend an attempt for ``agent``'s session uses: the configured one, or for ``auto``
    the agent's own CLI when it can run, else the default agent's when it can, else
    ``offline``."""
    backend = config.distill.backend
    if backend != "auto":
        return backend
    for name in dict.fromkeys((agent, known.DEFAULT)):
        if runnable(name, config, env):
            return name
    return "offline"


HINTS = {"command": "check distill.command in vaultkit.toml", openaicompat.NAME: openaicompat.HINT}


def hint(backend: str) -> str:
    """What to check when ``backend`` could not run (the InfraError hint)."""
    found = HINTS.get(backend) or (agentcli.hint(backend) if backend in known.AGENTS else "")
    return found or "check distill.backend in vaultkit.toml"


def run_backend(
    prompt: str, config: Config, *, offline: OfflineFacts | None = None, agent: str = known.DEFAULT
) -> BackendResult:
    """One attempt with the backend :func:`choose` picks for ``agent``'s session (an agent's
    CLI | ``openai`` | ``command`` | ``offline``)."""
    backend = choose(config, agent)
    if backend == "offline":
        if offline is None:
            return BackendResult("infra", "", "offline backend needs transcript facts", backend)
        return BackendResult("ok", offline_answer(offline), "offline", backend)
    if backend == "command":
        return _run_command(prompt, config)
    if backend == openaicompat.NAME:
        return openaicompat.run(prompt, config)
    if backend in known.AGENTS:
        return agentcli.run(backend, prompt, config)
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
