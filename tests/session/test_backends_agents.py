"""The ``codex``, ``gemini`` and ``auto`` distillation backends: command lines, environments,
output parsing (real CLI output from tests/fixtures), the choice ``auto`` makes, config checks.

The CLIs here are small Python scripts standing in for ``codex`` and ``gemini`` (real
subprocesses that record what they were given); tests/e2e/test_e2e_backends.py runs the pinned
CLIs themselves.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import FIXTURES

from vaultkit.agents.codex import distill as codex_distill
from vaultkit.agents.gemini import distill as gemini_distill
from vaultkit.agents.gemini.distill import error_object
from vaultkit.base.config import Config, DistillConfig, parse_config
from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.distill.backends import choose, run_backend
from vaultkit.session.distill.childrun import classify
from vaultkit.session.distill.pipeline import InfraError, SessionInfo, distill_session
from vaultkit.session.notes.write import read_frontmatter
from vaultkit.session.queue.jobs import pid_alive

GOOD = "@@@TITLE@@@\nLogin page\n@@@HANDOFF@@@\n## Done\n- login\n@@@WIKI@@@\nSee [[Auth]]\n"
SID = "0c0de000-1111-2222-3333-444455556666"

# A stand-in CLI: records argv, cwd, environment, prompt and the files in GEMINI_CLI_HOME, then
# prints what $FAKE_OUT names (or sleeps $FAKE_SLEEP seconds after writing its pid).
FAKE = """
import json, os, sys, time
prompt = sys.stdin.read()
home = os.environ.get("GEMINI_CLI_HOME", "")
settings = os.path.join(home, ".gemini", "settings.json")
record = {"argv": sys.argv[1:], "cwd": os.getcwd(), "prompt": prompt, "env": dict(os.environ),
          "settings": json.load(open(settings)) if home and os.path.exists(settings) else None}
with open(os.environ["FAKE_RECORD"], "w", encoding="utf-8") as handle:
    json.dump(record, handle)
if os.environ.get("FAKE_SLEEP"):
    open(os.environ["FAKE_PID"], "w").write(str(os.getpid()))
    time.sleep(float(os.environ["FAKE_SLEEP"]))
sys.stdout.write(open(os.environ["FAKE_OUT"], encoding="utf-8").read())
sys.stderr.write(os.environ.get("FAKE_ERR", ""))
sys.exit(int(os.environ.get("FAKE_CODE", "0")))
"""


def fake_cli(tmp_path: Path, name: str) -> Path:
    """``tmp_path/bin/<name>``: the recording stand-in, first on PATH."""
    binary = tmp_path / "bin" / name
    binary.parent.mkdir(exist_ok=True)
    binary.write_text(f"#!{sys.executable}\n{FAKE}", encoding="utf-8")
    binary.chmod(0o755)
    return binary


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH holding only ``tmp_path/bin`` and the system folders (no real agent CLIs)."""
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin")
    for key in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("FAKE_RECORD", str(tmp_path / "record.json"))
    return tmp_path / "bin"


def answer_file(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "answer.out"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("FAKE_OUT", str(path))


def recorded(tmp_path: Path) -> dict[str, object]:
    value = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def codex_json(text: str) -> str:
    """``codex exec --json`` lines around ``text`` (the shape of exec-json/success.jsonl)."""
    events = [
        {"type": "thread.started", "thread_id": "t1"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "i1", "type": "agent_message", "text": text}},
        {"type": "turn.completed", "usage": {"input_tokens": 30, "output_tokens": 5}},
    ]
    return "".join(json.dumps(e) + "\n" for e in events)


# -- command lines --------------------------------------------------------------------------


def test_codex_runs_exec_without_hooks_or_rollout_reading_stdin() -> None:
    argv = codex_distill.argv("/opt/codex", codex_distill.model(DistillConfig()))
    assert argv[:2] == ["/opt/codex", "exec"]
    assert argv[argv.index("--disable") + 1] == "hooks"
    assert argv[argv.index("--sandbox") + 1] == "read-only"
    assert {"--ephemeral", "--skip-git-repo-check", "--json"} <= set(argv)
    assert argv[-1] == "-" and "--model" not in argv
    chosen = codex_distill.argv(
        "codex", codex_distill.model(DistillConfig(codex_model="gpt-5.5-mini"))
    )
    assert chosen[chosen.index("--model") + 1] == "gpt-5.5-mini" and chosen[-1] == "-"


def test_gemini_skips_trust_and_answers_json_reading_stdin() -> None:
    argv = gemini_distill.argv("/opt/gemini", gemini_distill.model(DistillConfig()))
    assert argv == ["/opt/gemini", "--skip-trust", "--output-format", "json"]
    assert "-p" not in argv, "the prompt travels on stdin, never in argv"
    model = gemini_distill.model(DistillConfig(gemini_model="gemini-2.5-flash"))
    chosen = gemini_distill.argv("g", model)
    assert chosen[-2:] == ["--model", "gemini-2.5-flash"]


# -- output of the real CLIs ----------------------------------------------------------------


def test_codex_json_output_gives_the_answer_and_the_tokens() -> None:
    out = (FIXTURES / "codex" / "exec-json" / "success.jsonl").read_text(encoding="utf-8")
    answer = codex_distill.answer(out, "", "gpt-mock")
    assert answer is not None
    assert answer.text.startswith("@@@TITLE@@@\nMock\n@@@HANDOFF@@@")
    assert (answer.input_tokens, answer.output_tokens) == (12, 7)
    assert (answer.cost_usd, answer.model) == (0.0, "gpt-mock")
    assert (answer.errors, answer.failed) == ("", False), "the model-metadata warning is no error"


def test_a_codex_401_is_an_infrastructure_failure() -> None:
    out = (FIXTURES / "codex" / "exec-json" / "error-401.jsonl").read_text(encoding="utf-8")
    answer = codex_distill.answer(out, "")
    assert answer is not None and answer.text == "" and answer.failed
    assert "401 Unauthorized" in answer.errors
    status, detail = classify(1, answer.text, answer.errors)
    assert status == "infra" and "Incorrect API key" in detail


def test_plain_text_is_not_codex_json() -> None:
    assert codex_distill.answer("@@@TITLE@@@\nA\n", "") is None
    assert codex_distill.answer("", "") is None


def test_gemini_json_output_gives_the_answer_and_the_tokens() -> None:
    out = (FIXTURES / "gemini" / "output-json" / "success.json").read_text(encoding="utf-8")
    answer = gemini_distill.answer(out, "")
    assert answer is not None and (answer.errors, answer.failed) == ("", False)
    assert answer.text.startswith("@@@TITLE@@@\nMock\n@@@HANDOFF@@@")
    assert (answer.input_tokens, answer.output_tokens) == (12, 7)
    assert (answer.cost_usd, answer.model) == (0.0, "gemini-2.5-flash")


def test_a_gemini_error_at_the_end_of_stderr_is_an_infrastructure_failure() -> None:
    tail = (FIXTURES / "gemini" / "output-json" / "error-400.json").read_text(encoding="utf-8")
    stderr = "Error when talking to Gemini API\n    at throwErrorIfNotOK (x.js:1:2) {\n}\n" + tail
    answer = gemini_distill.answer("", stderr)
    assert answer is not None and answer.text == "" and answer.failed
    status, detail = classify(144, answer.text, answer.errors)
    assert status == "infra" and "API key not valid" in detail
    assert error_object("no json here\n") == ""


# -- running them ---------------------------------------------------------------------------


def test_codex_child_is_guarded_private_and_its_folder_removed(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_cli(tmp_path, "codex")
    answer_file(tmp_path, codex_json(GOOD), monkeypatch)
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    result = run_backend("PROMPT-TEXT", Config(distill=DistillConfig(backend="codex")))
    assert (result.status, result.backend, result.output) == ("ok", "codex", GOOD)
    assert (result.usage.input_tokens, result.usage.output_tokens) == (30, 5)
    seen = recorded(tmp_path)
    env = seen["env"]
    assert isinstance(env, dict) and isinstance(seen["argv"], list)
    assert seen["prompt"] == "PROMPT-TEXT" and seen["argv"][-1] == "-"
    assert (env["VAULTKIT_CHILD"], env["CLAUDE_WIKI_CHILD"]) == ("1", "1")
    assert env["CODEX_HOME"] == str(tmp_path / "codex-home"), "the user's login and provider"
    assert env["TMPDIR"].startswith(str(seen["cwd"]))
    assert not Path(str(seen["cwd"])).exists(), "the private folder is removed"


def test_gemini_child_gets_a_private_home_without_hooks_and_no_session_variables(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_cli(tmp_path, "gemini")
    out = (FIXTURES / "gemini" / "output-json" / "success.json").read_text(encoding="utf-8")
    answer_file(tmp_path, out, monkeypatch)
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    for key in ("GEMINI_SESSION_ID", "GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR"):
        monkeypatch.setenv(key, "the-user-session")
    result = run_backend("PROMPT", Config(distill=DistillConfig(backend="gemini")))
    assert (result.status, result.backend) == ("ok", "gemini")
    assert result.usage.model == "gemini-2.5-flash"
    seen = recorded(tmp_path)
    env = seen["env"]
    assert isinstance(env, dict)
    settings = seen["settings"]
    assert settings == gemini_distill.child_settings("gemini-api-key")
    assert isinstance(settings, dict) and settings["hooksConfig"] == {"enabled": False}
    home = Path(env["GEMINI_CLI_HOME"])
    assert Path(str(seen["cwd"])).parent == home.parent, "one private folder holds both"
    assert not home.exists() and not Path(str(seen["cwd"])).exists()
    assert not {k for k in env if k.startswith("GEMINI_") and env[k] == "the-user-session"}
    assert env["VAULTKIT_CHILD"] == "1" and env["GEMINI_API_KEY"] == "test-key"


def test_gemini_without_an_api_key_fails_at_once_saying_why(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_cli(tmp_path, "gemini")
    user = Path(os.environ["HOME"]) / ".gemini"
    user.mkdir(parents=True)
    (user / "settings.json").write_text(
        '{"security": {"auth": {"selectedType": "oauth-personal"}}}'
    )
    result = run_backend("PROMPT", Config(distill=DistillConfig(backend="gemini")))
    assert (result.status, result.backend) == ("infra", "gemini")
    assert "GEMINI_API_KEY" in result.detail and "'oauth-personal'" in result.detail
    assert not (tmp_path / "record.json").exists(), "the CLI was never started"


def test_vertex_ai_variables_are_a_usable_key(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_cli(tmp_path, "gemini")
    out = (FIXTURES / "gemini" / "output-json" / "success.json").read_text(encoding="utf-8")
    answer_file(tmp_path, out, monkeypatch)
    monkeypatch.setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
    monkeypatch.setenv("GOOGLE_API_KEY", "vertex-express-key")
    result = run_backend("PROMPT", Config(distill=DistillConfig(backend="gemini")))
    assert result.status == "ok"
    assert recorded(tmp_path)["settings"] == gemini_distill.child_settings("vertex-ai")


def test_a_codex_child_that_hangs_is_killed_with_its_group_at_the_timeout(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_cli(tmp_path, "codex")
    answer_file(tmp_path, codex_json(GOOD), monkeypatch)
    monkeypatch.setenv("FAKE_SLEEP", "60")
    monkeypatch.setenv("FAKE_PID", str(tmp_path / "pid"))
    config = Config(distill=DistillConfig(backend="codex", timeout=1))
    result = run_backend("PROMPT", config)
    assert result.status == "timeout"
    child = int((tmp_path / "pid").read_text())
    deadline = time.monotonic() + 5  # killed at once; reaped by init a moment later
    while pid_alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(child)
    assert not Path(str(recorded(tmp_path)["cwd"])).exists()


def test_missing_codex_binary_is_infra_naming_the_setting(tmp_path: Path, on_path: Path) -> None:
    result = run_backend("PROMPT", Config(distill=DistillConfig(backend="codex")))
    assert (result.status, result.backend) == ("infra", "codex")
    assert result.detail == "codex CLI not found: codex"


def test_codex_plain_output_from_a_wrapper_is_judged_as_text(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_cli(tmp_path, "codex")
    answer_file(tmp_path, "not logged in\n", monkeypatch)
    monkeypatch.setenv("FAKE_CODE", "1")
    result = run_backend("PROMPT", Config(distill=DistillConfig(backend="codex")))
    assert result.status == "infra"


# -- auto -----------------------------------------------------------------------------------


def test_auto_picks_the_sessions_own_cli_then_claude_then_offline(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = Config(distill=DistillConfig(backend="auto"))
    assert [choose(config, a) for a in ("claude", "codex", "gemini")] == ["offline"] * 3
    fake_cli(tmp_path, "claude")
    assert [choose(config, a) for a in ("claude", "codex", "gemini")] == ["claude"] * 3
    fake_cli(tmp_path, "codex")
    fake_cli(tmp_path, "gemini")
    assert choose(config, "codex") == "codex"
    assert choose(config, "gemini") == "claude", "gemini without an API key cannot run"
    monkeypatch.setenv("GEMINI_API_KEY", "k")
    assert choose(config, "gemini") == "gemini"
    assert choose(config, "someone-else") == "claude"
    for fixed in ("claude", "codex", "gemini", "command", "offline"):
        assert choose(Config(distill=DistillConfig(backend=fixed)), "codex") == fixed


def test_auto_uses_the_configured_paths(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "tools"
    elsewhere.mkdir()
    binary = fake_cli(tmp_path, "codex")
    binary.rename(elsewhere / "codex-0.171")
    config = Config(distill=DistillConfig(backend="auto"))
    assert choose(config, "codex") == "offline"
    moved = DistillConfig(backend="auto", codex_path=str(elsewhere / "codex-0.171"))
    assert choose(Config(distill=moved), "codex") == "codex"


WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))


def codex_session(tmp_path: Path) -> tuple[Store, SessionInfo]:
    store = Store(tmp_path / "proj" / "sessions")
    raw = store.raw / f"2026-11-30_0905_{SID}.jsonl"
    raw.parent.mkdir(parents=True)
    rollout = FIXTURES / "codex" / "rollout.jsonl"  # a real one
    raw.write_bytes(rollout.read_bytes())
    info = SessionInfo(SID, raw, "proj", str(tmp_path / "proj"), None, WHEN, agent="codex")
    return store, info


def test_auto_with_no_cli_writes_the_offline_note_instead_of_waiting(
    tmp_path: Path, on_path: Path
) -> None:
    store, info = codex_session(tmp_path)
    outcome = distill_session(store, info, Config(distill=DistillConfig(backend="auto")))
    assert (outcome.quality, outcome.degraded_reason, outcome.backend) == (
        "degraded",
        "offline",
        "offline",
    )
    assert read_frontmatter(outcome.summary_path)["degraded_reason"] == "offline"
    assert "auto: no runnable CLI, offline" in store.log.read_text(encoding="utf-8")


def test_auto_distils_a_codex_session_with_codex(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_cli(tmp_path, "codex")
    fake_cli(tmp_path, "claude")  # there, but not the session's agent
    answer_file(tmp_path, codex_json(GOOD), monkeypatch)
    store, info = codex_session(tmp_path)
    outcome = distill_session(store, info, Config(distill=DistillConfig(backend="auto")))
    assert (outcome.quality, outcome.backend, outcome.title) == ("ok", "codex", "Login page")
    assert outcome.usage.input_tokens == 30
    assert "I wrote hi into out.txt." in str(recorded(tmp_path)["prompt"])
    assert "attempt 1 via codex: ok" in store.log.read_text(encoding="utf-8")


def test_the_infra_hint_names_the_backend_that_failed(tmp_path: Path, on_path: Path) -> None:
    store, info = codex_session(tmp_path)
    with pytest.raises(InfraError) as caught:
        distill_session(store, info, Config(distill=DistillConfig(backend="codex")))
    assert "codex CLI not found" in str(caught.value)
    assert caught.value.hint is not None and "distill.codex_path" in caught.value.hint
    assert "claude" not in caught.value.hint


# -- config ---------------------------------------------------------------------------------


def test_config_accepts_the_new_backends_and_their_settings() -> None:
    text = (
        '[distill]\nbackend = "gemini"\ngemini_path = "/opt/gemini"\n'
        'gemini_model = "gemini-2.5-flash"\ncodex_path = "codex"\ncodex_model = "gpt-5.5"\n'
    )
    distill = parse_config(text, "vaultkit.toml").distill
    assert (distill.backend, distill.gemini_path, distill.gemini_model) == (
        "gemini",
        "/opt/gemini",
        "gemini-2.5-flash",
    )
    assert (distill.codex_path, distill.codex_model) == ("codex", "gpt-5.5")
    for name in ("auto", "claude", "codex", "command", "offline"):
        assert parse_config(f'[distill]\nbackend = "{name}"\n', "v.toml").distill.backend == name


def test_an_unknown_backend_or_an_empty_path_is_a_config_error() -> None:
    with pytest.raises(VaultkitError, match=r"sessions/vaultkit\.toml: distill\.backend is 'codx'"):
        parse_config('[distill]\nbackend = "codx"\n', "sessions/vaultkit.toml")
    with pytest.raises(VaultkitError) as caught:
        parse_config('[distill]\nbackend = "codx"\n', "v.toml")
    assert caught.value.hint is not None and "auto, claude, codex, gemini" in caught.value.hint
    with pytest.raises(VaultkitError, match=r"distill\.codex_path is empty"):
        parse_config('[distill]\ncodex_path = " "\n', "v.toml")
    with pytest.raises(VaultkitError, match=r"distill\.gemini_model must be str"):
        parse_config("[distill]\ngemini_model = 3\n", "v.toml")


def test_auto_is_the_default_and_keeps_claude_for_claude_users(
    tmp_path: Path, on_path: Path
) -> None:
    assert Config().distill.backend == "auto"
    assert choose(Config(), "claude") == "offline", "nothing to run: offline, not stuck"
    fake_cli(tmp_path, "claude")
    assert choose(Config(), "claude") == "claude"
    assert choose(Config(), "codex") == "claude", "a Codex session, no codex: claude"
