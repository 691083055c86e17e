"""Claude Code, then Codex CLI, then Gemini CLI in one project and one HOME (issue 15's proof).

The pinned CLIs each talk to their own loopback mock, with vaultkit's hooks installed only by
``vaultkit hooks install --agent all`` (user scope: ``~/.claude``, ``$CODEX_HOME``,
``~/.gemini``). Each session is archived at its SessionEnd and distilled by the real detached
worker with ``backend = "auto"``, that is with the session's own CLI (``claude -p``, ``codex
exec``, ``gemini -p``) against the same mock; each next agent's first model request carries the
previous agent's handoff. The Codex distillation child is started through a wrapper that
bypasses hook trust, so only vaultkit's guard keeps it from running the user's hooks. Across the
run no distillation child fired a hook: three SessionEnd lines and three jobs for the three
user sessions, three raw copies, and no worker request carrying the injected memory.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest
from conftest import require_program

from vaultkit.base.store import Store
from vaultkit.session.distill import costs

from .agents_harness import (
    CodexSandbox,
    GeminiSandbox,
    SharedHome,
    bypassing_codex,
    hook_groups,
    read_dumps,
    recorder_command,
)
from .harness import Sandbox
from .mock_gemini import MockGemini, contents_texts, user_texts
from .mock_gemini import Text as GeminiText
from .mock_openai import MockOpenAI, input_texts
from .mock_openai import Text as OpenAIText
from .mockapi import MockAPI, distillation
from .mockapi import Text as ClaudeText
from .pipeline import (
    VAULTKIT,
    Distilled,
    frontmatter,
    index_entries,
    log_text,
    new_session_id,
    prompt_of,
    wait_distilled,
)

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

BYPASS = "--dangerously-bypass-hook-trust"  # tests only: never something a user is told
MEMORY = "## vaultkit: memory of earlier sessions"  # the head of every injection
_ENDED = re.compile(r"SessionEnd (\S+) \(")


def answer(agent: str, marker: str) -> str:
    """A distillation answer whose handoff carries ``marker``."""
    return distillation(
        f"Parser work in {agent}",
        f"## Done\n- {marker}\n\n## Next steps\n- continue the parser",
        f"The parser streams now ({agent}). See [[Streaming Parser]].",
    ).text


@pytest.fixture
def world(
    tmp_path: Path,
    claude_bin: Path,
    codex_bin: Path,
    gemini_bin: Path,
    mock_api: MockAPI,
    openai: MockOpenAI,
    google: MockGemini,
) -> SharedHome:
    require_program("git")
    claude = Sandbox(tmp_path, claude_bin, mock_api, config_dir=tmp_path / "home" / ".claude")
    codex = CodexSandbox(tmp_path, codex_bin, openai.url)
    gemini = GeminiSandbox(tmp_path, gemini_bin, google.url)
    return SharedHome(claude, codex, gemini)


def install_everything(world: SharedHome, project: Path, codex_bin: Path) -> Store:
    """``vaultkit hooks install --agent all`` (user scope) and a ``vaultkit.toml`` naming the
    pinned CLIs for ``backend = "auto"``."""
    done = subprocess.run(
        [str(VAULTKIT), "hooks", "install", "--agent", "all"],
        cwd=project,
        env=world.env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for path in (
        world.claude.config_dir / "settings.json",
        world.codex.codex_home / "hooks.json",
        world.gemini.gemini_dir / "settings.json",
    ):
        assert f"installed vaultkit hooks in {path}" in done.stdout, done.stdout
    store = Store(project / "sessions")
    store.root.mkdir()
    codex = bypassing_codex(world.codex.root, codex_bin)
    store.config_file.write_text(
        "[distill]\n"
        'backend = "auto"\n'
        f'claude_path = "{world.claude.claude}"\n'
        f'codex_path = "{codex}"\n'
        f'gemini_path = "{world.gemini.binary}"\n'
        f'gemini_model = "{GeminiSandbox.MODEL}"\n',
        encoding="utf-8",
    )
    return store


def add_recorder(world: SharedHome) -> Path:
    """A payload recorder beside vaultkit's SessionStart and SessionEnd hooks in the three CLIs'
    user files (a test instrument: it counts every hook run, guarded or not); returns the
    folder it writes to."""
    command = f"env E2E_DUMP_DIR={world.codex.dumps} {recorder_command()}"
    for path, timeout in (
        (world.claude.config_dir / "settings.json", 10),
        (world.codex.codex_home / "hooks.json", 10),
        (world.gemini.gemini_dir / "settings.json", 10_000),  # Gemini's timeouts are in ms
    ):
        data = json.loads(path.read_text(encoding="utf-8"))
        extra = hook_groups(command, ("SessionStart", "SessionEnd"), timeout)["hooks"]
        for event, groups in extra.items():
            data["hooks"][event] = [*data["hooks"][event], *groups]
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return world.codex.dumps


def ended(store: Store) -> list[str]:
    """The session ids of the SessionEnd lines in the store's log, in order."""
    try:
        return _ENDED.findall(store.log.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []


def next_ended(store: Store, seen: int, timeout: float = 30) -> str:
    """The session id of the next SessionEnd line after the first ``seen`` ones."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(ended(store)) <= seen:
        time.sleep(0.1)
    lines = ended(store)
    assert len(lines) == seen + 1, log_text(store)
    return lines[-1]


def developer_texts(mock: MockOpenAI, at: int) -> list[str]:
    """The developer messages' texts of the ``at``-th Codex model request."""
    body = mock.of_kind("agent")[at].body
    return [
        part.get("text", "")
        for item in body["input"]
        if item.get("role") == "developer"
        for part in item.get("content") or []
    ]


def check_note(result: Distilled, agent: str, marker: str) -> None:
    assert frontmatter(result.summary)["agent"] == agent
    assert frontmatter(result.wiki)["agent"] == agent
    assert marker in result.summary.read_text(encoding="utf-8")
    assert result.raw.stat().st_mode & 0o777 == 0o600


def test_claude_then_codex_then_gemini_share_one_memory(
    world: SharedHome,
    codex_bin: Path,
    mock_api: MockAPI,
    openai: MockOpenAI,
    google: MockGemini,
) -> None:
    project = world.claude.project()
    store = install_everything(world, project, codex_bin)
    dumps = add_recorder(world)
    shared = world.variables()

    # 1. Claude Code: its worker distils with `claude -p` (auto) against the Anthropic mock.
    claude_mark = "MARK-claude-5c7 the tokenizer is done"
    mock_api.queue("worker", ClaudeText(answer("claude", claude_mark)))
    claude_sid = new_session_id()
    run = world.claude.run(
        "Write the tokenizer", project, "--session-id", claude_sid, extra_env=shared
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert next_ended(store, 0) == claude_sid
    claude = wait_distilled(store, claude_sid)
    check_note(claude, "claude", claude_mark)
    [claude_worker] = mock_api.of_kind("worker")
    assert "Write the tokenizer" in prompt_of(claude_worker.body)

    # 2. Codex: its first request carries Claude's handoff; its worker uses `codex exec`.
    codex_mark = "MARK-codex-91e the parser streams"
    openai.replies.queue("worker", OpenAIText(answer("codex", codex_mark)))
    ran = world.codex.exec("Write the streaming parser", project, BYPASS, extra_env=shared)
    assert ran.returncode == 0, ran.stderr
    handed = [t for t in developer_texts(openai, 0) if claude_mark in t]
    assert len(handed) == 1 and handed[0].startswith(MEMORY), developer_texts(openai, 0)
    codex_sid = next_ended(store, 1)
    codex = wait_distilled(store, codex_sid)
    check_note(codex, "codex", codex_mark)
    [codex_worker] = openai.of_kind("worker")
    assert any("Write the streaming parser" in t for t in input_texts(codex_worker.body))

    # 3. Gemini: its first request carries Codex's handoff in <hook_context>; `gemini -p` distils.
    gemini_mark = "MARK-gemini-3b8 the parser is tested"
    google.replies.queue("worker", GeminiText(answer("gemini", gemini_mark)))
    ran = world.gemini.prompt("Test the streaming parser", project, extra_env=shared)
    assert ran.returncode == 0, ran.stderr
    first = user_texts(google.of_kind("agent")[0].body)
    handed = [t for t in first if "<hook_context>" in t and codex_mark in t]
    assert len(handed) == 1, "\n".join(first)
    gemini_sid = next_ended(store, 2)
    gemini = wait_distilled(store, gemini_sid)
    check_note(gemini, "gemini", gemini_mark)
    [gemini_worker] = google.of_kind("worker")
    assert any("Test the streaming parser" in t for t in contents_texts(gemini_worker.body))

    # 4. No distillation child fired a hook or became a session.
    users = [claude_sid, codex_sid, gemini_sid]
    assert len(set(users)) == 3
    time.sleep(1.0)  # a late hook of a child would log by now
    hooks_ran = [(p["hook_event_name"], p["session_id"]) for p in read_dumps(dumps)]
    assert sorted(hooks_ran) == sorted(
        (event, sid) for event in ("SessionEnd", "SessionStart") for sid in users
    ), hooks_ran
    assert ended(store) == users, log_text(store)
    assert len(re.findall(r"\] SessionEnd\b", log_text(store))) == 3, log_text(store)
    assert [(c.session_id, c.backend) for c in costs.entries(store)] == [
        (claude_sid, "claude"),
        (codex_sid, "codex"),
        (gemini_sid, "gemini"),
    ], "auto distilled each session with its own CLI"
    done = sorted(p.stem for p in (store.state / "done").glob("*.json"))
    assert done == sorted(users)
    raws = sorted(p.name for p in store.raw.iterdir())
    assert len(raws) == 3 and all(any(s in name for name in raws) for s in users), raws
    workers = [
        prompt_of(claude_worker.body),
        *input_texts(codex_worker.body),
        *contents_texts(gemini_worker.body),
    ]
    assert not any(MEMORY in text for text in workers), "memory reached a distillation request"
    assert len(world.claude.transcripts(project)) == 1
    assert len(list((world.codex.codex_home / "sessions").rglob("rollout-*.jsonl"))) == 1
    assert len(list((world.gemini.gemini_dir / "tmp").rglob("session-*.jsonl"))) == 1
    lines = index_entries(store)
    assert len(lines) == 3, lines
    for agent, note in (("claude", claude), ("codex", codex), ("gemini", gemini)):
        [line] = [entry for entry in lines if note.wiki.stem in entry]
        assert line.endswith(f" · {agent}"), lines  # INDEX.md's agent column
    for mock in (mock_api.outside(), openai.of_kind("outside"), google.of_kind("outside")):
        assert mock == []
