"""``vaultkit hooks install --agent codex|gemini`` with the real pinned CLIs: its hooks run.

Each CLI runs against its loopback mock with only the hooks ``vaultkit hooks install`` wrote. The
proof that the CLI ran vaultkit's hooks is the store's log: vaultkit's SessionEnd hook logs one
line naming the session whether it queues the transcript or refuses it. Codex also shows that
without trust its hooks do not run, and that ``vaultkit doctor`` says they are not trusted; a trust
record whose hash vaultkit computes lets ``codex exec`` run the hook, a stale one does not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import require_program

from vaultkit.agents import hookmerge
from vaultkit.agents.codex import trust as codex_trust

from .agents_harness import CodexSandbox, GeminiSandbox
from .mock_gemini import MockGemini
from .mock_openai import MockOpenAI

pytestmark = pytest.mark.e2e

BYPASS = "--dangerously-bypass-hook-trust"  # tests only: never something a user is told


def vk(
    box: CodexSandbox | GeminiSandbox, cwd: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """``vaultkit ARGS…`` in the sandbox's environment (its HOME, CODEX_HOME, …)."""
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        cwd=cwd,
        env=box.env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def log_of(project: Path) -> str:
    log = project / "sessions" / ".vaultkit" / "vaultkit.log"
    return log.read_text(encoding="utf-8") if log.is_file() else ""


def test_codex_runs_the_hooks_vaultkit_installed(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI
) -> None:
    require_program("git")
    box = CodexSandbox(tmp_path, codex_bin, openai.url)
    project = box.project()
    done = vk(box, project, "hooks", "install", "--agent", "codex")
    assert done.returncode == 0, done.stderr
    hooks = box.codex_home / "hooks.json"
    assert done.stdout.splitlines()[0] == f"installed vaultkit hooks in {hooks}"
    assert "Codex skips these hooks until you trust them" in done.stdout
    assert "--agent codex" in hooks.read_text(encoding="utf-8")

    untrusted = box.exec("say hi", project)  # no trust, no bypass: Codex skips the hooks
    assert untrusted.returncode == 0, untrusted.stderr
    assert "SessionEnd" not in log_of(project)
    doctor = vk(box, project, "doctor")
    assert f"warn  codex trust (user): vaultkit's hooks in {hooks} are installed but not" in (
        doctor.stdout
    )
    assert "pick each vaultkit event (SessionStart, SessionEnd), press Enter, then t" in (
        doctor.stdout
    )
    assert BYPASS not in doctor.stdout + done.stdout + done.stderr

    ran = box.exec("say hi", project, BYPASS)
    assert ran.returncode == 0, ran.stderr
    rollouts = list((box.codex_home / "sessions").glob("*/*/*/rollout-*.jsonl"))
    session_ids = {p.stem[-36:] for p in rollouts}
    log = log_of(project)
    assert any(f"SessionEnd {sid}" in log for sid in session_ids), log
    assert openai.of_kind("outside") == []


def test_gemini_runs_the_hooks_vaultkit_installed_and_uninstall_restores_settings(
    tmp_path: Path, gemini_bin: Path, google: MockGemini
) -> None:
    require_program("git")
    box = GeminiSandbox(tmp_path, gemini_bin, google.url)
    settings = box.gemini_dir / "settings.json"
    before = settings.read_bytes()
    project = box.project()
    done = vk(box, project, "hooks", "install", "--agent", "gemini")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == f"installed vaultkit hooks in {settings}"
    assert "Gemini CLI runs hooks only in trusted folders" in done.stdout
    assert "--agent gemini" in settings.read_text(encoding="utf-8")

    # --skip-trust runs the user's hooks; headless runs offer the model no tool that needs a
    # confirmation (MCP tools do) unless the approval mode is yolo.
    run = box.prompt("say hi", project, "--approval-mode", "yolo")
    assert run.returncode == 0, run.stderr
    assert "Hello from the mock Gemini model." in run.stdout
    chats = list((box.gemini_dir / "tmp").glob("*/chats/session-*.jsonl"))
    assert chats
    log = log_of(project)
    assert "SessionEnd" in log and any(p.stem[-8:] in log for p in chats), log
    assert google.of_kind("outside") == []
    # The MCP server registered beside the hooks started: its tools reach the model request.
    tools = google.of_kind("agent")[0].body["tools"]
    names = {d["name"] for group in tools for d in group["functionDeclarations"]}
    assert {"mcp_vaultkit_search", "mcp_vaultkit_latest_handoff"} <= names

    gone = vk(box, project, "hooks", "uninstall", "--agent", "gemini")
    assert gone.returncode == 0, gone.stderr
    assert settings.read_bytes() == before


def trust_records(hooks: Path, *, stale: str = "") -> str:
    """``[hooks.state]`` records for vaultkit's hooks in ``hooks`` with the hash
    :func:`codex_trust.trust_hash` computes, as the TUI writes them when the user trusts them; the
    ``stale`` event's record gets the hash of the hook as it was with another timeout."""
    data = json.loads(hooks.read_text(encoding="utf-8"))
    records = []
    for event, spots in hookmerge.positions(data).items():
        for group, index in spots:
            hook = dict(data["hooks"][event][group]["hooks"][index])
            if event == stale:
                hook["timeout"] = hook["timeout"] - 1
            digest = codex_trust.trust_hash(event, data["hooks"][event][group], hook)
            key = codex_trust.trust_key(str(hooks), event, group, index)
            records.append(f'[hooks.state."{key}"]\ntrusted_hash = "{digest}"\n')
    return "\n" + "\n".join(records)


def test_codex_runs_hooks_whose_trust_record_vaultkit_computes_and_skips_stale_ones(
    tmp_path: Path, codex_bin: Path, openai: MockOpenAI
) -> None:
    require_program("git")
    box = CodexSandbox(tmp_path, codex_bin, openai.url)
    project = box.project()
    assert vk(box, project, "hooks", "install", "--agent", "codex").returncode == 0
    hooks, config = box.codex_home / "hooks.json", box.codex_home / "config.toml"
    provider = config.read_text(encoding="utf-8")

    config.write_text(provider + trust_records(hooks), encoding="utf-8")
    trusted = box.exec("say hi", project)  # no bypass: only the trust records let them run
    assert trusted.returncode == 0, trusted.stderr
    first = {p.stem[-36:] for p in (box.codex_home / "sessions").glob("*/*/*/rollout-*.jsonl")}
    assert len(first) == 1 and f"SessionEnd {next(iter(first))}" in log_of(project)
    ok = vk(box, project, "doctor")
    assert f"ok    codex trust (user): trusted in {config}" in ok.stdout

    config.write_text(provider + trust_records(hooks, stale="SessionEnd"), encoding="utf-8")
    skipped = box.exec("say hi", project)
    assert skipped.returncode == 0, skipped.stderr
    rollouts = {p.stem[-36:] for p in (box.codex_home / "sessions").glob("*/*/*/rollout-*.jsonl")}
    (second,) = rollouts - first
    assert f"SessionEnd {second}" not in log_of(project)
    doctor = vk(box, project, "doctor")
    assert f"warn  codex trust (user): vaultkit's hooks in {hooks} changed since they" in (
        doctor.stdout
    )
    assert "(SessionEnd: the record in " in doctor.stdout
    assert openai.of_kind("outside") == []
