"""distill_session: the retry / degraded / infra-error matrix over real child processes.

The fake LLMs are small Python scripts run through the "command" backend (and a fake ``claude``
executable for the CLI backend): real subprocesses, real files, no mocks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import FIXTURES, require_program

from vaultkit.agents.claude.distill import answer as claude_answer
from vaultkit.base.config import Config, DistillConfig
from vaultkit.base.store import Store
from vaultkit.base.templates import template_path
from vaultkit.errors import VaultkitError
from vaultkit.session.distill.agentcli import usage
from vaultkit.session.distill.backends import classify
from vaultkit.session.distill.costs import Usage
from vaultkit.session.distill.pipeline import InfraError, NoUserTurn, SessionInfo, distill_session
from vaultkit.session.notes.write import read_frontmatter
from vaultkit.session.queue.jobs import pid_alive

SID = "5e55a0b1-1111-2222-3333-444455556666"
WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))
GOOD = "@@@TITLE@@@\nLogin page\n@@@HANDOFF@@@\n## Done\n- login\n@@@WIKI@@@\nSee [[Auth]]\n"


def rows() -> list[dict[str, object]]:
    base = {"sessionId": SID, "cwd": "/w/proj", "gitBranch": "feat/login"}
    return [
        {
            **base,
            "type": "attachment",
            "attachment": {"type": "hook_additional_context", "content": "INJECTED-CONTEXT"},
        },
        {**base, "type": "user", "message": {"role": "user", "content": "Add a login page"}},
        {
            **base,
            "type": "assistant",
            "message": {
                "id": "m1",
                "content": [
                    {"type": "text", "text": "Adding it now."},
                    {
                        "type": "tool_use",
                        "name": "Write",
                        "input": {"file_path": "/w/proj/login.py"},
                    },
                    {"type": "tool_use", "name": "Bash", "input": {"command": "pytest -q"}},
                ],
            },
        },
    ]


@pytest.fixture
def session(tmp_path: Path) -> tuple[Store, SessionInfo]:
    store = Store(tmp_path / "proj" / "sessions")
    raw = store.raw / f"2026-11-30_0905_{SID}.jsonl"
    raw.parent.mkdir(parents=True)
    raw.write_text("".join(json.dumps(r) + "\n" for r in rows()), encoding="utf-8")
    info = SessionInfo(SID, raw, "proj", str(tmp_path / "proj"), None, WHEN)
    return store, info


def script(tmp_path: Path, name: str, body: str) -> list[str]:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


def command_config(argv: list[str], timeout: int = 20) -> Config:
    return Config(distill=DistillConfig(backend="command", command=argv, timeout=timeout))


def notes(store: Store) -> tuple[list[Path], list[Path]]:
    return sorted(store.summary.glob("*.md")), sorted(store.wiki.glob("*.md"))


ECHO_GOOD = f"""
import sys, pathlib
prompt = sys.stdin.read()
pathlib.Path(sys.argv[0]).with_suffix(".prompt").write_text(prompt, encoding="utf-8")
print({GOOD!r})
"""


def test_good_answer_writes_two_clean_notes(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    (store.wiki).mkdir(parents=True)
    (store.wiki / "Auth decisions.md").write_text("x", encoding="utf-8")
    outcome = distill_session(store, info, command_config(script(tmp_path, "good", ECHO_GOOD)))
    assert (outcome.title, outcome.quality, outcome.degraded_reason, outcome.retries) == (
        "Login page",
        "ok",
        None,
        0,
    )
    summaries, wikis = notes(store)
    assert summaries == [outcome.summary_path]
    assert outcome.wiki_path in wikis and outcome.summary_path.name == outcome.wiki_path.name
    front = read_frontmatter(outcome.summary_path)
    assert front["type"] == "handoff-summary" and front["session_id"] == SID
    assert front["git_branch"] == "feat/login" and "quality" not in front
    assert read_frontmatter(outcome.wiki_path)["type"] == "session-wiki"
    assert "See Auth\n" in outcome.wiki_path.read_text(encoding="utf-8")  # [[Auth]] is no note
    assert read_frontmatter(outcome.wiki_path)["unresolved_links"] == ["Auth"]
    prompt = (tmp_path / "good.prompt").read_text(encoding="utf-8")
    assert "Add a login page" in prompt and "→ Write /w/proj/login.py" not in prompt
    assert "→ Write login.py" in prompt and "INJECTED-CONTEXT" not in prompt
    assert "[[Auth decisions]]" in prompt and SID in prompt and "feat/login" in prompt
    assert "{{" not in prompt


@pytest.mark.parametrize(
    ("name", "body", "reason"),
    [
        ("nomarkers", "import sys; sys.stdin.read(); print('I summarised nothing.')", "no-markers"),
        ("empty", "import sys; sys.stdin.read()", "empty-output"),
        (
            "crash",
            "import sys; sys.stdin.read(); sys.stderr.write('boom'); sys.exit(3)",
            "llm-error",
        ),
        (
            "half",
            "import sys; sys.stdin.read(); print('@@@TITLE@@@\\nT\\n@@@HANDOFF@@@\\nPART')",
            "no-markers",
        ),
    ],
)
def test_twice_failing_answers_still_write_a_degraded_note(
    session: tuple[Store, SessionInfo], tmp_path: Path, name: str, body: str, reason: str
) -> None:
    store, info = session
    outcome = distill_session(store, info, command_config(script(tmp_path, name, body)))
    assert (outcome.quality, outcome.degraded_reason, outcome.retries) == ("degraded", reason, 1)
    front = read_frontmatter(outcome.summary_path)
    assert front["quality"] == "degraded" and front["degraded_reason"] == reason
    assert front["distill_retries"] == 1 and front["auto_saved"] is True
    handoff = outcome.summary_path.read_text(encoding="utf-8")
    assert "Add a login page" in handoff and "`login.py`" in handoff and "`pytest -q`" in handoff
    if name == "nomarkers":
        assert "I summarised nothing." in handoff
    if name == "half":
        assert "PART" in handoff and outcome.title == "T"
    assert len(notes(store)[0]) == 1 and len(notes(store)[1]) == 1


def test_fails_first_then_succeeds_counts_one_retry(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    body = f"""
    import sys, pathlib
    sys.stdin.read()
    flag = pathlib.Path(sys.argv[0]).with_suffix(".ran")
    if not flag.exists():
        flag.write_text("1")
        sys.exit(0)
    print({GOOD!r})
    """
    outcome = distill_session(store, info, command_config(script(tmp_path, "flaky", body)))
    assert (outcome.quality, outcome.retries) == ("ok", 1)
    assert "quality" not in read_frontmatter(outcome.summary_path)


def test_timeout_kills_the_process_group_and_degrades(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    pids = tmp_path / "pids"
    body = f"""
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    open({str(pids)!r}, "a").write(f"{{child.pid}}\\n")
    time.sleep(60)
    """
    start = time.monotonic()
    outcome = distill_session(store, info, command_config(script(tmp_path, "slow", body), 1))
    assert time.monotonic() - start < 20
    assert (outcome.quality, outcome.degraded_reason, outcome.retries) == ("degraded", "timeout", 1)
    children = [int(p) for p in pids.read_text().split()]
    assert len(children) == 2
    deadline = time.monotonic() + 5
    while any(pid_alive(p) for p in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(pid_alive(p) for p in children)


@pytest.mark.parametrize(
    "banner",
    [
        "Invalid API key · Please run /login",
        "Claude AI usage limit reached|1764000000",
        'API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}',
        "Error: connect ECONNREFUSED 127.0.0.1:443",
    ],
)
def test_infrastructure_errors_raise_and_write_nothing(
    session: tuple[Store, SessionInfo], tmp_path: Path, banner: str
) -> None:
    store, info = session
    body = f"import sys; sys.stdin.read(); print({banner!r}); sys.exit(1)"
    with pytest.raises(InfraError) as caught:
        distill_session(store, info, command_config(script(tmp_path, "infra", body)))
    assert "stays queued" in str(caught.value)
    assert notes(store) == ([], [])
    assert "infra" in store.log.read_text(encoding="utf-8")


def test_infra_on_the_retry_also_raises(session: tuple[Store, SessionInfo], tmp_path: Path) -> None:
    store, info = session
    body = """
    import sys, pathlib
    sys.stdin.read()
    flag = pathlib.Path(sys.argv[0]).with_suffix(".ran")
    if not flag.exists():
        flag.write_text("1")
        print("no markers here")
        sys.exit(0)
    print("Not logged in · Please run /login")
    sys.exit(1)
    """
    with pytest.raises(InfraError):
        distill_session(store, info, command_config(script(tmp_path, "late", body)))
    assert notes(store) == ([], [])


def test_long_marker_less_answer_mentioning_rate_limits_is_not_infra(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    body = "import sys; sys.stdin.read(); print('We discussed the rate limit design. ' * 40)"
    outcome = distill_session(store, info, command_config(script(tmp_path, "talk", body)))
    assert outcome.degraded_reason == "no-markers"


FAKE_CLAUDE = """
import json, os, sys
prompt = sys.stdin.read()
record = {"argv": sys.argv[1:], "cwd": os.getcwd(), "prompt": prompt, "env": dict(os.environ)}
with open(os.environ["FAKE_CLAUDE_RECORD"], "w", encoding="utf-8") as handle:
    json.dump(record, handle)
print(ANSWER)
"""

# What Claude Code 2.1.332 gives a hook process (observed), and user configuration to keep.
SESSION_ENV = {
    "CLAUDECODE": "1",
    "AI_AGENT": "claude-code_2-1-332_harness",
    "CLAUDE_PID": "4242",
    "CLAUDE_PROJECT_DIR": "/w/proj",
    "CLAUDE_ENV_FILE": "/tmp/env-file",
    "CLAUDE_CODE_ENTRYPOINT": "sdk-cli",
    "CLAUDE_CODE_SSE_PORT": "1234",
    "CLAUDE_CODE_SESSION_ID": SID,
    "CLAUDE_CODE_SESSION_ATTENDED": "0",
    "CLAUDE_CODE_CHILD_SESSION": "1",
    "CLAUDE_CODE_CHILD_NOTES_DIR": "/tmp/notes",
}
CONFIG_ENV = {
    "CLAUDE_CODE_USE_BEDROCK": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "CLAUDE_CONFIG_DIR": "/somewhere/claude-config",
}


def test_claude_backend_runs_isolated_without_tools_hooks_or_session(
    session: tuple[Store, SessionInfo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, info = session
    binary = tmp_path / "bin" / "claude"
    binary.parent.mkdir()
    code = FAKE_CLAUDE.replace("ANSWER", repr(GOOD))
    binary.write_text(f"#!{sys.executable}\n{code}", encoding="utf-8")
    binary.chmod(0o755)
    record = tmp_path / "record.json"
    extra = {**SESSION_ENV, **CONFIG_ENV, "ANTHROPIC_API_KEY": "test-key"}
    for key, value in {**extra, "FAKE_CLAUDE_RECORD": str(record)}.items():
        monkeypatch.setenv(key, value)
    config = Config(
        distill=DistillConfig(claude_path=str(binary), model="haiku", strip_api_key=True)
    )
    outcome = distill_session(store, info, config)
    assert outcome.quality == "ok"
    seen = json.loads(record.read_text(encoding="utf-8"))
    argv = seen["argv"]
    assert argv[:3] == ["-p", "--model", "haiku"]
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True}
    assert "--no-session-persistence" in argv and "--strict-mcp-config" in argv
    assert argv[argv.index("--tools") + 1] == ""
    assert argv[argv.index("--output-format") + 1] == "json"
    env = seen["env"]
    assert sorted(k for k in SESSION_ENV if k in env) == []
    assert {k: env.get(k) for k in CONFIG_ENV} == CONFIG_ENV
    assert "ANTHROPIC_API_KEY" not in env
    assert (env["VAULTKIT_CHILD"], env["CLAUDE_WIKI_CHILD"]) == ("1", "1")
    assert not Path(seen["cwd"]).exists()
    assert not Path(seen["cwd"]).resolve().is_relative_to(Path(info.cwd).resolve())
    assert "Add a login page" in seen["prompt"]


def test_api_key_is_kept_unless_stripping_is_configured(
    session: tuple[Store, SessionInfo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, info = session
    body = f"""
    import os, sys
    sys.stdin.read()
    assert os.environ.get("ANTHROPIC_API_KEY") == "kept", "key missing"
    print({GOOD!r})
    """
    monkeypatch.setenv("ANTHROPIC_API_KEY", "kept")
    outcome = distill_session(store, info, command_config(script(tmp_path, "key", body)))
    assert outcome.quality == "ok"


PRINT_JSON = FIXTURES / "claude" / "print-json"
REPLAY_CLAUDE = """
import sys
sys.stdin.read()
sys.stdout.write(open(PATH, encoding="utf-8").read())
sys.exit(CODE)
"""


def replay_claude(tmp_path: Path, fixture: str, code: int) -> Config:
    """A ``claude`` that prints what the real CLI 2.1.332 printed (fixtures/claude/print-json)."""
    binary = tmp_path / "bin" / "claude"
    binary.parent.mkdir(exist_ok=True)
    body = REPLAY_CLAUDE.replace("PATH", repr(str(PRINT_JSON / fixture))).replace("CODE", str(code))
    binary.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    binary.chmod(0o755)
    return Config(distill=DistillConfig(claude_path=str(binary)))


def test_claude_json_answer_gives_the_text_and_what_it_cost(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    outcome = distill_session(store, info, replay_claude(tmp_path, "success.json", 0))
    assert outcome.quality == "ok"
    assert outcome.title == "Parser work"
    summary, wiki = notes(store)
    assert "Done: parser.py edited." in summary[0].read_text(encoding="utf-8")
    assert "The parser streams." in wiki[0].read_text(encoding="utf-8")
    assert "total_cost_usd" not in summary[0].read_text(encoding="utf-8")
    assert outcome.usage == Usage(12, 7, 0.000094, "claude-sonnet-5-5")


def test_claude_json_error_result_is_an_infrastructure_error(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    with pytest.raises(InfraError, match="Invalid API key"):
        distill_session(store, info, replay_claude(tmp_path, "error-401.json", 1))
    assert notes(store) == ([], [])


def test_claude_answer_reads_the_real_cli_json_and_nothing_else() -> None:
    good = claude_answer((PRINT_JSON / "success.json").read_text(encoding="utf-8"), "")
    assert good is not None
    assert (good.failed, good.note) == (False, ""), "subtype success adds nothing"
    assert good.text.startswith("@@@TITLE@@@\nParser work\n")
    bad = claude_answer((PRINT_JSON / "error-401.json").read_text(encoding="utf-8"), "")
    assert bad is not None and bad.failed
    assert usage(bad) == Usage(0, 0, 0.0, "")
    assert claude_answer(GOOD, "") is None, "plain text (an older CLI) is not JSON"
    assert claude_answer('{"type": "assistant"}', "") is None
    cached = json.dumps(
        {
            "type": "result",
            "result": GOOD,
            "total_cost_usd": 0.5,
            "usage": {
                "input_tokens": 10,
                "cache_creation_input_tokens": 100,
                "cache_read_input_tokens": 1000,
                "output_tokens": 5,
            },
        }
    )
    parsed = claude_answer(cached, "")
    assert parsed is not None and usage(parsed) == Usage(1110, 5, 0.5, "")


def test_an_error_result_that_exits_zero_is_not_taken_as_an_answer(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    answer = {
        "type": "result",
        "subtype": "error_during_execution",
        "is_error": True,
        "result": GOOD,
        "total_cost_usd": 0.01,
        "usage": {"input_tokens": 3},
    }
    fixture = tmp_path / "zero.json"
    fixture.write_text(json.dumps(answer), encoding="utf-8")
    config = replay_claude(tmp_path, str(fixture), 0)
    outcome = distill_session(store, info, config)
    assert (outcome.quality, outcome.degraded_reason) == ("degraded", "llm-error")
    assert outcome.usage.cost_usd == pytest.approx(0.02), "both attempts are counted"


def test_missing_claude_binary_is_an_infrastructure_error(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    missing = str(tmp_path / "no-such-claude")
    config = Config(distill=DistillConfig(backend="claude", claude_path=missing))
    with pytest.raises(InfraError, match="not found"):
        distill_session(store, info, config)
    assert notes(store) == ([], [])


def test_offline_backend_is_always_available_and_degraded(
    session: tuple[Store, SessionInfo], tmp_path: Path
) -> None:
    store, info = session
    require_program("git")
    project = Path(info.cwd)
    project.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    subprocess.run(["git", "init", "-q", str(project)], check=True, env=env)
    (project / "login.py").write_text("x = 1\n")
    subprocess.run(["git", "-C", str(project), "add", "login.py"], check=True, env=env)
    subprocess.run(
        ["git", "-C", str(project), "commit", "-qm", "Add login stub"], check=True, env=env
    )
    (project / "new.txt").write_text("y\n")
    outcome = distill_session(store, info, Config(distill=DistillConfig(backend="offline")))
    assert (outcome.quality, outcome.degraded_reason, outcome.retries) == ("degraded", "offline", 0)
    assert outcome.title == "Add a login page"
    text = outcome.summary_path.read_text(encoding="utf-8")
    assert "Add login stub" in text and "?? new.txt" in text
    assert "?? sessions/" not in text  # the store is not the user's change
    assert "Adding it now." in text
    front = read_frontmatter(outcome.summary_path)
    assert front["auto_saved"] is True and front["quality"] == "degraded"


def test_both_notes_record_the_git_user_of_the_sessions_folder_as_author(
    session: tuple[Store, SessionInfo], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, info = session
    require_program("git")
    project = Path(info.cwd)
    project.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "config", "user.name", "Ada L."], check=True)
    offline = Config(distill=DistillConfig(backend="offline"))
    outcome = distill_session(store, info, offline)
    for path in (outcome.summary_path, outcome.wiki_path):
        assert read_frontmatter(path)["author"] == "Ada L."
    subprocess.run(["git", "-C", str(project), "config", "--unset", "user.name"], check=True)
    monkeypatch.setenv("USER", "ada-login")  # no git user.name: the OS user
    outcome = distill_session(store, info, offline)
    assert read_frontmatter(outcome.summary_path)["author"] == "ada-login"


@pytest.mark.parametrize(
    "title", ["../../etc/passwd", "CON", "x" * 400, "🎉 emoji 🎉", "한국어 제목", "a/b\\c:d"]
)
def test_hostile_llm_titles_stay_inside_the_store(
    session: tuple[Store, SessionInfo], tmp_path: Path, title: str
) -> None:
    store, info = session
    answer = f"@@@TITLE@@@\n{title}\n@@@HANDOFF@@@\nh\n@@@WIKI@@@\nw\n"
    body = f"import sys; sys.stdin.read(); print({answer!r})"
    outcome = distill_session(store, info, command_config(script(tmp_path, "hostile", body)))
    for path, folder in ((outcome.summary_path, store.summary), (outcome.wiki_path, store.wiki)):
        assert path.resolve().parent == folder.resolve()
        assert path.exists() and len(path.stem.encode("utf-8")) <= 150
    assert sorted(store.root.rglob("*.md")) == sorted([outcome.summary_path, outcome.wiki_path])


def test_a_session_without_a_user_turn_needs_no_llm_call_and_leaves_no_note(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "sessions")
    raw = tmp_path / "empty.jsonl"
    raw.write_text('{"type": "summary", "summary": "x"}\n', encoding="utf-8")
    info = SessionInfo(SID, raw, "proj", str(tmp_path), None, WHEN)
    never = script(tmp_path, "never", "import sys; sys.exit('must not run')")
    with pytest.raises(NoUserTurn):
        distill_session(store, info, command_config(never))
    assert not list(store.root.rglob("*.md"))


def test_missing_transcript_is_a_vaultkit_error_naming_the_path(tmp_path: Path) -> None:
    store = Store(tmp_path / "sessions")
    info = SessionInfo(SID, tmp_path / "gone.jsonl", "proj", str(tmp_path), None, WHEN)
    with pytest.raises(VaultkitError, match=r"gone\.jsonl") as caught:
        distill_session(store, info, Config(distill=DistillConfig(backend="offline")))
    assert not isinstance(caught.value, InfraError)


def test_prompt_template_is_found_and_has_every_placeholder() -> None:
    path = template_path("distill-prompt.md")
    assert path.parent.name in {"templates", "_templates"}
    text = path.read_text(encoding="utf-8")
    for name in ("project", "session_id", "date", "branch", "existing_notes", "transcript"):
        assert "{{" + name + "}}" in text
    for marker in ("@@@TITLE@@@", "@@@HANDOFF@@@", "@@@WIKI@@@"):
        assert marker in text
    with pytest.raises(VaultkitError, match=r"no-such\.md"):
        template_path("no-such.md")


@pytest.mark.parametrize(
    ("returncode", "stdout", "stderr", "expected"),
    [
        (1, "Invalid API key · Please run /login", "", "infra"),
        (0, "Claude AI usage limit reached|1764000000", "", "infra"),
        (0, "", "API Error: 500 Internal Server Error", "infra"),
        (1, "", "Error: connect ECONNREFUSED 127.0.0.1:443", "infra"),
        (1, "", "Request failed: rate limit exceeded", "infra"),
        (0, "Added the /login route and tuned the rate limit.", "", "no-markers"),
        (2, "Added the /login route.", "Traceback: KeyError", "llm-error"),
        (0, "", "", "empty-output"),
        (0, GOOD, "", "ok"),
        (1, GOOD, "", "llm-error"),
    ],
)
def test_classification(returncode: int, stdout: str, stderr: str, expected: str) -> None:
    assert classify(returncode, stdout, stderr)[0] == expected


def test_offline_notes_follow_the_users_language_and_survive_marker_text(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "sessions")
    raw = store.raw / "k.jsonl"
    raw.parent.mkdir(parents=True)
    reply = "마커 형식은 다음과 같습니다:\n@@@WIKI@@@\n끝."
    lines = [
        {"type": "user", "message": {"role": "user", "content": "빌드 스크립트를 고쳐 줘"}},
        {"type": "assistant", "message": {"id": "m", "content": [{"type": "text", "text": reply}]}},
    ]
    raw.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), "utf-8")
    info = SessionInfo(SID, raw, "proj", str(tmp_path / "nowhere"), "main", WHEN)
    outcome = distill_session(store, info, Config(distill=DistillConfig(backend="offline")))
    text = outcome.summary_path.read_text(encoding="utf-8")
    assert "## 최근 요청" in text and "## 마지막 응답" in text and "Recent requests" not in text
    assert "> 끝." in text  # the whole reply survived, marker line included
    front = read_frontmatter(outcome.summary_path)
    assert front["source"] == "raw/k.jsonl"
    assert front["date"] == "2026-11-30T09:05:00+09:00"
    assert front["git_branch"] == "main" and front["project"] == "proj"
    wiki = outcome.wiki_path.read_text(encoding="utf-8")
    assert "- 첫 요청: 빌드 스크립트를 고쳐 줘" in wiki


def test_offline_title_is_cut_on_a_word_boundary(tmp_path: Path) -> None:
    from vaultkit.session.distill.backends import OFFLINE_TITLE_MAX, OfflineFacts, offline_title
    from vaultkit.session.transcripts.condense import condense

    def title(prompt: str) -> str:
        path = tmp_path / "t.jsonl"
        line = {"type": "user", "message": {"role": "user", "content": prompt}}
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
        digest = condense(path, 10_000)
        return offline_title(OfflineFacts(digest=digest, cwd="", project="p", session_id="abc"))

    long = "We need a category column on transactions. Can you add a migration for it?"
    assert title(long) == "We need a category column on transactions. Can you add a…"
    assert title("short request") == "short request"
    assert title("x" * 100) == "x" * OFFLINE_TITLE_MAX + "…"
