"""The real Gemini CLI 0.61 against the mock Gemini API: hooks, injection, chat file, trust.

These pin down the facts vaultkit's Gemini adapter relies on (hook payload fields, where the
chat JSONL lives, that only JSON ``additionalContext`` reaches the model while plain stdout is
shown to the user, that headless runs need a trusted folder, and that a private
``GEMINI_CLI_HOME`` with hooks disabled makes a quiet child run), so an upgrade that changes
them fails here first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import require_program

from .agents_harness import GeminiSandbox, hook_groups, recorder_command
from .mock_gemini import MockGemini, user_texts

pytestmark = pytest.mark.e2e

EVENTS = ("SessionStart", "SessionEnd")
MARKER = "Handoff from the previous session: INJECTED-9c1d"


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIXTURE_NAMES = ("session-start-startup.json", "session-end-exit.json")


def _fixture(name: str) -> dict[str, object]:
    value = json.loads((FIXTURES / "hooks" / "gemini" / name).read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


@pytest.fixture
def mock() -> Iterator[MockGemini]:
    with MockGemini() as server:
        yield server


@pytest.fixture
def box(tmp_path: Path, gemini_bin: Path, mock: MockGemini) -> GeminiSandbox:
    require_program("git")  # the sandbox's projects are git repositories
    sandbox = GeminiSandbox(tmp_path, gemini_bin, mock.url)
    sandbox.write_settings(hook_groups(recorder_command(), EVENTS, 10_000))
    return sandbox


def _agent_texts(mock: MockGemini) -> list[str]:
    return [t for r in mock.of_kind("agent") for t in user_texts(r.body)]


def test_hooks_fire_with_the_documented_fields(box: GeminiSandbox, mock: MockGemini) -> None:
    project = box.project()
    run = box.prompt("say hi", project, extra_env={"E2E_INJECT": MARKER})
    assert run.returncode == 0, run.stderr
    assert "Hello from the mock Gemini model." in run.stdout
    payloads = box.payloads()
    assert [p["hook_event_name"] for p in payloads] == list(EVENTS)
    start, end = payloads
    assert start["source"] == "startup"
    assert end["reason"] == "exit"
    assert {p["session_id"] for p in payloads} == {start["session_id"]}
    assert {Path(p["cwd"]).resolve() for p in payloads} == {project.resolve()}
    transcript = Path(start["transcript_path"])
    assert end["transcript_path"] == str(transcript)
    rel = transcript.relative_to(box.gemini_dir / "tmp").as_posix()
    short = start["session_id"][:8]
    assert re.fullmatch(rf"project/chats/session-[0-9T-]+-{short}\.jsonl", rel), rel
    header = json.loads(transcript.read_text(encoding="utf-8").splitlines()[0])
    assert header["sessionId"] == start["session_id"]
    assert mock.of_kind("outside") == []
    for payload, name in zip(payloads, FIXTURE_NAMES, strict=True):
        assert sorted(payload) == sorted(_fixture(name)), name  # the committed fixtures still hold


def test_json_additional_context_reaches_the_model_wrapped(
    box: GeminiSandbox, mock: MockGemini
) -> None:
    text = f"{MARKER} <b>[[Note]]</b> & more"
    run = box.prompt("say hi", box.project(), extra_env={"E2E_INJECT": text})
    assert run.returncode == 0, run.stderr
    # Headless mode prepends it to the prompt inside <hook_context>…</hook_context>, with < and >
    # escaped (so an injection cannot close the wrapper); & stays as it is.
    escaped = f"{MARKER} &lt;b&gt;[[Note]]&lt;/b&gt; & more"
    assert any(f"<hook_context>{escaped}</hook_context>" in t for t in _agent_texts(mock))


def test_a_20000_character_injection_arrives_whole(box: GeminiSandbox, mock: MockGemini) -> None:
    text = "g" * 19_996 + "-END"
    run = box.prompt("say hi", box.project(), extra_env={"E2E_INJECT": text})
    assert run.returncode == 0, run.stderr
    assert any(f"<hook_context>{text}</hook_context>" in t for t in _agent_texts(mock))


def test_plain_stdout_is_shown_to_the_user_not_injected(
    box: GeminiSandbox, mock: MockGemini
) -> None:
    env = {"E2E_INJECT": MARKER, "E2E_INJECT_MODE": "plain"}
    run = box.prompt("say hi", box.project(), extra_env=env)
    assert run.returncode == 0, run.stderr
    assert mock.of_kind("agent")
    assert not any(MARKER in json.dumps(r.body) for r in mock.requests)
    assert MARKER in run.stderr  # as a "Hook system message"


def test_headless_runs_need_a_trusted_folder(box: GeminiSandbox, mock: MockGemini) -> None:
    argv_without_trust = (str(box.binary), "-m", box.MODEL, "-p", "say hi")
    run = box.run_argv(argv_without_trust, box.project(), None)
    assert run.returncode == 55  # what vaultkit doctor tells the user (gemini/doctor.py)
    assert "trusted directory" in run.stderr and "--skip-trust" in run.stderr
    assert box.payloads() == []
    assert mock.of_kind("agent") == []


def _project_hooks(project: Path) -> None:
    (project / ".gemini").mkdir()
    hooks = hook_groups(recorder_command(), EVENTS, 10_000)
    (project / ".gemini" / "settings.json").write_text(json.dumps(hooks), encoding="utf-8")


def test_project_hooks_load_only_when_the_folder_itself_is_trusted(
    box: GeminiSandbox, mock: MockGemini
) -> None:
    box.write_settings({})  # no user-level hooks
    project = box.project()
    _project_hooks(project)
    assert box.prompt("say hi", project).returncode == 0  # --skip-trust: project hooks ignored
    assert box.payloads() == []
    argv = (str(box.binary), "-m", box.MODEL, "-p", "say hi")
    run = box.run_argv(argv, project, {"GEMINI_CLI_TRUST_WORKSPACE": "true"})
    assert run.returncode == 0, run.stderr
    assert [p["hook_event_name"] for p in box.payloads()] == list(EVENTS)
    assert "project-level hooks have been detected" in run.stderr


def test_a_child_run_fires_no_hooks_and_writes_no_user_chat(
    box: GeminiSandbox, mock: MockGemini, tmp_path: Path
) -> None:
    project = box.project()
    _project_hooks(project)
    child_home = tmp_path / "child-home"
    (child_home / ".gemini").mkdir(parents=True)
    settings = {
        "hooksConfig": {"enabled": False},
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
    }
    (child_home / ".gemini" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    # Trusted through the variable, so the project's hooks would load if hooks were enabled.
    env = {"GEMINI_CLI_HOME": str(child_home), "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    argv = (str(box.binary), "-m", box.MODEL, "-p", "summarise")
    run = box.run_argv(argv, project, env)
    assert run.returncode == 0, run.stderr
    assert "Hello from the mock Gemini model." in run.stdout
    assert box.payloads() == []  # neither the user's nor the project's hooks ran
    assert not (box.gemini_dir / "tmp").exists()
    assert list((child_home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl"))
