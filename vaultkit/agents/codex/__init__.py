"""Codex CLI (0.171): its adapter value and what a hook checks of its rollouts (lean: stdlib only).

A rollout is ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`` (default
``~/.codex/``) whose first line is ``session_meta``; Codex writes no exit record, but holds the
rollout open while it runs, so a rollout that ends with a finished turn (``event_msg``
``task_complete``) and that no live process holds open is one whose Codex has exited. The other
parts are modules of this package, imported only when needed: ``reader`` (the rollout),
``hooks`` (``hooks.json`` merge and install), ``trust`` and ``doctor`` (hook and folder trust),
``distill`` (the ``codex exec`` child) and ``scan`` (backfill).
"""

from __future__ import annotations

import os

from vaultkit.agents.adapter import STDOUT_OR_JSON, Agent, owned_problem
from vaultkit.base import leanjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

AGENT = Agent(
    name="codex",
    display="Codex CLI 0.171",
    dir_env="CODEX_HOME",
    home_env="",
    home_default=".codex",
    hook_file="hooks.json",
    project_hook_file=".codex/hooks.json",
    start_event="SessionStart",
    end_event="SessionEnd",
    turn_event="Stop",
    start_sources=("startup", "resume", "clear", "compact", "fork"),
    end_reasons=("other",),
    transcript_glob="sessions/*/*/*/rollout-*.jsonl",
    injection=STDOUT_OR_JSON,
    timeout_unit="s",
    # The distillation child: no hooks, and none of the traffic Codex starts on its own (plugins
    # and apps fetch from github.com, analytics posts to ab.chatgpt.com; seen against the mock
    # with 0.171, docs/agents.md), whatever the user's config.toml turns on.
    child_argv=(
        "codex",
        "exec",
        "--disable",
        "hooks",
        "--disable",
        "plugins",
        "--disable",
        "remote_plugin",
        "--disable",
        "apps",
        "-c",
        "analytics.enabled=false",
        "--ephemeral",
        "--skip-git-repo-check",
        "--sandbox",
        "read-only",
        "-",
    ),
    trust="each hook definition, reviewed in the Codex TUI (/hooks); projects need folder trust",
    tag="codex",
)
UUID_CHARS = 36
TURN_END = "task_complete"


def session_id_from_name(path: str) -> str:
    """The UUID that ends ``rollout-<time>-<id>.jsonl``, or ``""``."""
    stem = os.path.splitext(os.path.basename(path.rstrip("/" + os.sep)))[0]
    tail = stem[-UUID_CHARS:]
    return tail if stem.startswith("rollout-") and tail.count("-") == 4 else ""


def path_problem(path: str, env: Mapping[str, str]) -> str | None:
    """Why ``path`` is not a Codex rollout by its path alone (a missing file passes)."""
    return owned_problem(AGENT, path, env)


def head_problem(head: bytes) -> str | None:
    """Why the first bytes of a (non-empty) file are not a rollout's ``session_meta`` line."""
    what = "a Codex rollout's session_meta"
    first, newline, _ = head.partition(b"\n")
    if not newline:  # one huge first line (Codex puts its whole instructions there): its opening
        ok = first.lstrip().startswith(b"{") and b'"session_meta"' in first
        return None if ok else f"its first line is not {what}"
    try:
        value = leanjson.loads(first)
    except ValueError:
        return "line 1 is not JSON"
    if not isinstance(value, dict):
        return "line 1 is not a JSON object"
    return None if value.get("type") == "session_meta" else f"its first line is not {what}"


def is_exit(record: Mapping[str, object]) -> bool:
    """True for a finished turn (``event_msg`` ``task_complete``): the rollout's last record when
    Codex exits between turns (it counts as an exit only with no live writer)."""
    if record.get("type") != "event_msg":
        return False
    payload = record.get("payload")
    return isinstance(payload, dict) and payload.get("type") == TURN_END


def record_session_id(record: Mapping[str, object]) -> str:
    """The id of the ``session_meta`` line (``{"type": "session_meta", "payload": {"id"…}}``)."""
    payload = record.get("payload")
    if record.get("type") != "session_meta" or not isinstance(payload, dict):
        return ""
    value = payload.get("id", payload.get("session_id"))
    return value.strip() if isinstance(value, str) else ""
