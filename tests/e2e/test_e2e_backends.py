"""The ``codex`` and ``gemini`` distillation backends with the pinned CLIs against their mocks.

``distill_session`` (what the worker calls) runs in its own process with the sandbox's
environment: the mock must receive vaultkit's distillation prompt and its answer must become the
notes, while a recorder hook installed where the user's hooks live (``$CODEX_HOME/hooks.json``,
``~/.gemini/settings.json``) proves the child fired none, no rollout or chat file is kept where
the user's sessions are, and no temp folder is left behind. For Codex the child is started
through a wrapper that adds ``--dangerously-bypass-hook-trust``, so that only vaultkit's
``--disable hooks`` stands between the child and the (otherwise untrusted) hooks; a control run
without it shows the recorder does fire.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import require_program

from .agents_harness import (
    CodexSandbox,
    GeminiSandbox,
    hook_groups,
    recorder_command,
)
from .mock_gemini import MockGemini, contents_texts
from .mock_gemini import Text as GeminiText
from .mock_openai import MockOpenAI, Text, input_texts, provider_toml

pytestmark = pytest.mark.e2e

PROMPT_MARK = "Make the importer stream CSV-7Q2 files"
ANSWER = (
    "@@@TITLE@@@\nStreaming importer\n@@@HANDOFF@@@\n## Done\n- streamed the importer ANSWER-9K1\n"
    "@@@WIKI@@@\nThe importer streams; see [[Importer]].\n"
)
BYPASS = "--dangerously-bypass-hook-trust"

# Distil one session in a process of its own: argv[1] is a JSON object with the store, the
# agent and the [distill] settings; prints the outcome as JSON.
DRIVER = textwrap.dedent(
    """
    import json, sys
    from datetime import datetime, timezone
    from pathlib import Path
    from vaultkit.base.config import Config, DistillConfig
    from vaultkit.base.store import Store
    from vaultkit.session.distill.pipeline import SessionInfo, distill_session

    def codex_rows(prompt):
        say = lambda role, kind, text: {"type": "response_item", "payload": {
            "type": "message", "role": role, "content": [{"type": kind, "text": text}]}}
        return [{"type": "session_meta", "payload": {"id": "e2e0b4c5", "cwd": "/project"}},
                say("user", "input_text", prompt), say("assistant", "output_text", "ok")]

    def gemini_rows(prompt):
        return [{"sessionId": "e2e0b4c5", "projectHash": "0" * 64, "kind": "main",
                 "startTime": "2026-12-01T09:00:00Z", "lastUpdated": "2026-12-01T09:00:00Z"},
                {"id": "u1", "timestamp": "2026-12-01T09:00:01Z", "type": "user",
                 "content": prompt},
                {"id": "g1", "timestamp": "2026-12-01T09:00:02Z", "type": "gemini",
                 "content": "ok"}]

    ROWS = {"codex": codex_rows, "gemini": gemini_rows}
    args = json.loads(sys.argv[1])
    store = Store(Path(args["store"]))
    raw = store.raw / "2026-12-01_0900_e2e0b4c5-1111-2222-3333-444455556666.jsonl"
    raw.parent.mkdir(parents=True, exist_ok=True)
    rows = ROWS[args["agent"]](args["prompt"])  # the session in its own agent's format
    raw.write_text("".join(json.dumps(r) + "\\n" for r in rows), encoding="utf-8")
    store.wiki.mkdir(parents=True, exist_ok=True)  # the note the answer links: a link that
    (store.wiki / "Importer.md").write_text("# Importer\\n", encoding="utf-8")  # resolves stays
    when = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    info = SessionInfo("e2e0b4c5-1111-2222-3333-444455556666", raw, "project",
                       str(store.root.parent), None, when, agent=args["agent"])
    outcome = distill_session(store, info, Config(distill=DistillConfig(**args["distill"])))
    print(json.dumps({"wiki": str(outcome.wiki_path), "summary": str(outcome.summary_path),
                      "quality": outcome.quality, "backend": outcome.backend,
                      "tokens": [outcome.usage.input_tokens, outcome.usage.output_tokens]}))
    """
)


def distil(env: dict[str, str], project: Path, agent: str, distill: dict[str, Any]) -> Any:
    args = {
        "store": str(project / "sessions"),
        "agent": agent,
        "prompt": PROMPT_MARK,
        "distill": {"backend": "auto", "timeout": 120, **distill},
    }
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def assert_notes(outcome: Any, backend: str) -> None:
    assert (outcome["quality"], outcome["backend"]) == ("ok", backend)
    assert outcome["tokens"] == [12, 7], "the usage the CLI reported (the mock's)"
    assert "ANSWER-9K1" in Path(outcome["summary"]).read_text(encoding="utf-8")
    assert "[[Importer]]" in Path(outcome["wiki"]).read_text(encoding="utf-8")


def bypassing(tmp_path: Path, binary: Path) -> Path:
    """A ``codex`` that runs the real one with hook trust bypassed (``exec`` stays first)."""
    wrapper = tmp_path / "codex-bypassing-trust"
    wrapper.write_text(
        f'#!/bin/sh\nsub="$1"; shift\nexec "{binary}" "$sub" {BYPASS} "$@"\n', encoding="utf-8"
    )
    wrapper.chmod(0o755)
    return wrapper


def test_codex_backend_distils_through_codex_exec_without_hooks_or_rollout(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI
) -> None:
    require_program("git")
    box = CodexSandbox(tmp_path, codex_bin, openai.url)
    box.write_hooks(hook_groups(recorder_command(), ("SessionStart", "Stop", "SessionEnd"), 10))
    project = box.project()
    control = box.exec("hello", project, BYPASS)
    assert control.returncode == 0 and box.payloads(), "the recorder fires when hooks run"
    for dump in box.dumps.iterdir():
        dump.unlink()
    for rollout in (box.codex_home / "sessions").rglob("*.jsonl"):
        rollout.unlink()
    openai.replies.queue("worker", Text(ANSWER))

    env = box.env({"E2E_DUMP_DIR": str(box.dumps)})
    codex = str(bypassing(tmp_path, codex_bin))
    outcome = distil(env, project, "codex", {"codex_path": codex})

    assert_notes(outcome, "codex")
    [request] = openai.of_kind("worker")
    assert any(PROMPT_MARK in text for text in input_texts(request.body))
    assert box.payloads() == [], "the distillation child fired no hook"
    assert not list((box.codex_home / "sessions").rglob("*.jsonl")), "no rollout was kept"
    assert list(box.tmp.iterdir()) == [], "no temp folder left"
    assert not openai.of_kind("outside")


def test_the_codex_child_starts_no_outside_traffic_whatever_the_users_config(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI
) -> None:
    """With the user's plugins, apps and analytics on (and with Codex's defaults: github.com,
    api.github.com and ab.chatgpt.com at start), the distillation child sends nothing but its one
    model request: the flags of ``codex.AGENT.child_argv`` turn them off."""
    require_program("git")
    box = CodexSandbox(tmp_path, codex_bin, openai.url)
    on = "\n[features]\nplugins = true\nremote_plugin = true\napps = true\n"
    on += "\n[analytics]\nenabled = true\n"
    provider_only = provider_toml(openai.url).split("\n[features]")[0]
    (box.codex_home / "config.toml").write_text(provider_only + on, encoding="utf-8")
    openai.replies.queue("worker", Text(ANSWER))
    outcome = distil(box.env(), box.project(), "codex", {"codex_path": str(codex_bin)})
    assert_notes(outcome, "codex")
    assert [r.kind for r in openai.requests] == ["worker"], openai.of_kind("outside")


def test_gemini_backend_distils_in_a_private_home_without_hooks_or_chat(
    tmp_path: Path, gemini_bin: Path, google: MockGemini
) -> None:
    require_program("git")
    box = GeminiSandbox(tmp_path, gemini_bin, google.url)
    events = ("SessionStart", "AfterAgent", "SessionEnd")
    box.write_settings(hook_groups(recorder_command(), events, 10_000))
    project = box.project()
    control = box.prompt("hello", project)
    assert control.returncode == 0 and box.payloads(), "the recorder fires when hooks run"
    for dump in box.dumps.iterdir():
        dump.unlink()
    chats = box.gemini_dir / "tmp"
    before = sorted(chats.rglob("session-*.jsonl"))
    google.replies.queue("worker", GeminiText(ANSWER))
    scratch = tmp_path / "scratch"
    scratch.mkdir()

    env = box.env({"E2E_DUMP_DIR": str(box.dumps), "TMPDIR": str(scratch)})
    settings = {"gemini_path": str(gemini_bin), "gemini_model": GeminiSandbox.MODEL}
    outcome = distil(env, project, "gemini", settings)

    assert_notes(outcome, "gemini")
    [request] = google.of_kind("worker")
    assert any(PROMPT_MARK in text for text in contents_texts(request.body))
    assert box.payloads() == [], "the distillation child fired no hook"
    assert sorted(chats.rglob("session-*.jsonl")) == before, "no chat file in the user's home"
    assert list(scratch.iterdir()) == [], "the private home and folder are gone"
    assert not google.of_kind("outside")
