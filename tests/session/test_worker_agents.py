"""The worker on real Codex rollouts and Gemini chats: raw copy, agent: notes, INDEX, search."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from worker_support import FAST_SETTLE, make_project

from vaultkit.base.store import Store
from vaultkit.session.notes.write import read_frontmatter
from vaultkit.session.queue import jobs

CODEX_SID = "01a23083-4503-71f2-8ceb-9ded42e56aa1"
GEMINI_SID = "115dd1e7-9b20-4147-9888-2ec4921a4de4"
INJECTED = "Handoff from the previous session"
PROMPT_LOG = "prompts.txt"
# A stand-in LLM for the ``command`` backend: keeps every prompt it gets, answers in markers.
RECORDING_LLM = """\
import sys
prompt = sys.stdin.read()
with open(sys.argv[1], "a", encoding="utf-8") as log:
    log.write(prompt + "\\n@@@END-OF-PROMPT@@@\\n")
print("@@@TITLE@@@\\nout.txt written by the agent")
print("@@@HANDOFF@@@\\nDone: out.txt holds hi. Next: nothing.")
print("@@@WIKI@@@\\nThe agent wrote out.txt with a shell command.")
"""


def filled(fixture: Path, project: Path) -> str:
    """A captured transcript with its ``{CWD}`` / ``{HOME}`` placeholders filled in."""
    home = os.environ["HOME"]
    text = fixture.read_text(encoding="utf-8")
    for key, value in (("{CWD}", str(project)), ("{HOME}", home)):
        text = text.replace(key, json.dumps(value)[1:-1])
    return text


def codex_rollout(project: Path) -> Path:
    """The rollout where Codex keeps it: ``~/.codex/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl``."""
    folder = Path(os.environ["HOME"]) / ".codex" / "sessions" / "2026" / "12" / "01"
    folder.mkdir(parents=True)
    path = folder / f"rollout-2026-12-01T07-30-38-{CODEX_SID}.jsonl"
    path.write_text(filled(FIXTURES / "codex" / "rollout.jsonl", project), encoding="utf-8")
    return path


def gemini_chat(project: Path, fixture: str = "chat.jsonl") -> Path:
    """The chat file where Gemini CLI keeps it; its name has only 8 characters of the id."""
    folder = Path(os.environ["HOME"]) / ".gemini" / "tmp" / "proj" / "chats"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"session-2026-12-01T07-36-{GEMINI_SID[:8]}.jsonl"
    path.write_text(filled(FIXTURES / "gemini" / fixture, project), encoding="utf-8")
    return path


def queue(store: Store, session_id: str, transcript: Path, agent: str, project: Path) -> None:
    job = jobs.Job(
        session_id=session_id,
        transcript_path=str(transcript),
        cwd=str(project),
        ended_at="2026-12-01T16:31:00+09:00",
        agent=agent,
    )
    jobs.write_job(store, job)


def run_worker(store: Store) -> None:
    env = {**os.environ, **FAST_SETTLE}
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit.session.worker", "--store", str(store.root), "--once"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, (done.stdout, done.stderr, store.log.read_text())


def vaultkit(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        cwd=cwd,
        env={**os.environ, **FAST_SETTLE},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def only(folder: Path, pattern: str = "*.md") -> Path:
    found = [p for p in folder.glob(pattern) if p.name != "INDEX.md"]
    assert len(found) == 1, found
    return found[0]


def offline_store(project: Path) -> Store:
    store = Store(project / "sessions")
    store.root.mkdir(parents=True)
    store.config_file.write_text('[distill]\nbackend = "offline"\n', encoding="utf-8")
    return store


def recording_store(project: Path, tmp_path: Path) -> tuple[Store, Path]:
    store = Store(project / "sessions")
    store.root.mkdir(parents=True)
    script = tmp_path / "llm.py"
    script.write_text(RECORDING_LLM, encoding="utf-8")
    prompts = tmp_path / PROMPT_LOG
    command = json.dumps([sys.executable, str(script), str(prompts)])
    store.config_file.write_text(f'[distill]\nbackend = "command"\ncommand = {command}\n')
    return store, prompts


def test_a_codex_session_is_archived_noted_indexed_rendered_and_found(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    (project / ".git" / "HEAD").write_text("ref: refs/heads/later\n", encoding="utf-8")
    store = offline_store(project)
    rollout = codex_rollout(project)
    queue(store, CODEX_SID, rollout, "codex", project)
    run_worker(store)

    raw = only(store.raw, "*.jsonl")
    assert raw.name.endswith(f"_{CODEX_SID}.jsonl")
    assert raw.read_bytes() == rollout.read_bytes()
    assert stat.S_IMODE(raw.stat().st_mode) == 0o600
    summary, wiki = only(store.summary), only(store.wiki)
    for note in (summary, wiki):
        front = read_frontmatter(note)
        assert (front["agent"], front["session_id"]) == ("codex", CODEX_SID)
        assert front["git_branch"] == "main"  # the rollout's session_meta, not the checkout
        assert front["quality"] == "degraded" and front["degraded_reason"] == "offline"
        body = note.read_text(encoding="utf-8")
        assert INJECTED not in body and "environment_context" not in body
    handoff = summary.read_text(encoding="utf-8")
    assert "echo hi > out.txt" in handoff and "Write hi into out.txt" in handoff
    index = (store.wiki / "INDEX.md").read_text(encoding="utf-8")
    [line] = [x for x in index.splitlines() if x.startswith(f"- [[{wiki.stem}]]")]
    assert " · codex" in line and "⚠ degraded (offline)" in line

    readable = only(store.transcripts).read_text(encoding="utf-8")
    assert "## User\n\nWrite hi into out.txt\n" in readable
    assert "## Codex\n\nI wrote hi into out.txt.\n" in readable
    assert "## Codex\n\nHello from the mock Codex model.\n" in readable
    assert INJECTED not in readable and "exec_command" not in readable
    assert f"session: `{CODEX_SID}`" in readable

    lint = vaultkit(project, "lint", str(store.wiki))
    assert lint.returncode == 0, lint.stdout + lint.stderr
    found = vaultkit(project, "search", "out.txt", "--agent", "codex", "--format", "json", "-q")
    assert found.returncode == 0, found.stderr
    paths = {r["path"] for r in json.loads(found.stdout)["results"]}
    assert f"wiki/{wiki.name}" in paths and f"summary/{summary.name}" in paths
    other = vaultkit(project, "search", "out.txt", "--agent", "gemini", "-q")
    assert other.returncode == 1  # nothing matched


def test_a_gemini_session_is_distilled_by_the_llm_under_its_full_session_id(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "proj")
    (project / ".git" / "HEAD").write_text("ref: refs/heads/feature/gem\n", encoding="utf-8")
    store, prompts = recording_store(project, tmp_path)
    chat = gemini_chat(project)
    queue(store, GEMINI_SID, chat, "gemini", project)  # the id as the SessionEnd payload has it
    run_worker(store)

    raw = only(store.raw, "*.jsonl")
    assert raw.name.endswith(f"_{GEMINI_SID}.jsonl") and raw.read_bytes() == chat.read_bytes()
    assert stat.S_IMODE(raw.stat().st_mode) == 0o600
    [prompt] = prompts.read_text(encoding="utf-8").split("@@@END-OF-PROMPT@@@")[:-1]
    assert "## User\nWrite hi into out.txt" in prompt
    assert "→ run_shell_command: echo hi > out.txt" in prompt
    assert "## Assistant\nHello from the mock Gemini model." in prompt
    assert INJECTED not in prompt and "session_context" not in prompt
    summary, wiki = only(store.summary), only(store.wiki)
    assert GEMINI_SID[:8] in summary.name
    for note in (summary, wiki):
        front = read_frontmatter(note)
        assert (front["agent"], front["session_id"]) == ("gemini", GEMINI_SID)
        assert front["title"] == "out.txt written by the agent" and "quality" not in front
        assert front["git_branch"] == "feature/gem"  # the chat has none: the checkout's
    assert "Done: out.txt holds hi." in summary.read_text(encoding="utf-8")
    index = (store.wiki / "INDEX.md").read_text(encoding="utf-8")
    assert f"- [[{wiki.stem}]] — out.txt written by the agent · gemini" in index
    readable = only(store.transcripts).read_text(encoding="utf-8")
    assert "## Gemini\n\nI wrote hi into out.txt.\n" in readable
    assert "## 나" not in readable  # the first prompt is English: English labels
    assert INJECTED not in readable


def test_a_gemini_chat_resumed_within_the_minute_keeps_both_runs(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = offline_store(project)
    chat = gemini_chat(project, "resumed-same-minute.jsonl")
    queue(store, GEMINI_SID, chat, "gemini", project)
    run_worker(store)
    handoff = only(store.summary).read_text(encoding="utf-8")
    assert "Write hi into out.txt" in handoff and "그리고 요약해 줘" in handoff
    readable = only(store.transcripts).read_text(encoding="utf-8")
    assert readable.count("## User") == 2 and readable.count("## Gemini") == 2


@pytest.mark.parametrize(("agent", "other"), [("codex", "gemini"), ("gemini", "codex")])
def test_a_transcript_that_is_not_the_jobs_agents_own_is_refused(
    tmp_path: Path, agent: str, other: str
) -> None:
    project = make_project(tmp_path / "proj")
    store = offline_store(project)
    own = codex_rollout(project) if agent == "codex" else gemini_chat(project)
    foreign = gemini_chat(project) if agent == "codex" else codex_rollout(project)
    elsewhere = tmp_path / own.name  # the right content, not where the agent keeps it
    elsewhere.write_bytes(own.read_bytes())
    queue(store, "s-elsewhere", elsewhere, agent, project)
    queue(store, "s-other-agents", foreign, agent, project)  # another agent's transcript
    own.write_bytes(foreign.read_bytes())  # the agent's place, another agent's content
    queue(store, "s-wrong-content", own, agent, project)
    queue(store, "s-claude", foreign, "claude", project)
    run_worker(store)
    assert not store.raw.exists() or not list(store.raw.iterdir())
    assert not store.summary.exists() or not list(store.summary.iterdir())
    log = store.log.read_text(encoding="utf-8")
    assert log.count(": refused ") == 4, log
    assert "s-wrong-content: refused" in log and "its first line is not" in log
    assert jobs.list_jobs(store) == []


def test_ingest_tells_the_agent_by_content_and_refuses_a_mismatch(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    store = offline_store(project)
    rollout = tmp_path / "old-rollout.jsonl"  # anywhere: the user named it
    rollout.write_text(filled(FIXTURES / "codex" / "rollout.jsonl", project), encoding="utf-8")
    wrong = vaultkit(project, "ingest", str(rollout), "--agent", "gemini", "--settle", "0")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert f"{rollout}: not a Gemini CLI 0.61 transcript (its first line is not" in wrong.stderr
    bad = vaultkit(project, "ingest", str(rollout), "--agent", "cursor", "--settle", "0")
    assert bad.returncode == 2 and "--agent cursor: no such agent" in bad.stderr

    done = vaultkit(project, "ingest", str(rollout), "--settle", "0", "--format", "json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["session_id"] == CODEX_SID and result["status"] == "done"
    assert read_frontmatter(Path(result["wiki_path"]))["agent"] == "codex"
    assert "queued Codex CLI 0.171 transcript" in done.stderr

    chat = tmp_path / "chat.jsonl"
    chat.write_text(filled(FIXTURES / "gemini" / "chat.jsonl", project), encoding="utf-8")
    done = vaultkit(project, "ingest", str(chat), "--settle", "0", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["session_id"] == GEMINI_SID  # from the header, not the name
    assert {read_frontmatter(p)["agent"] for p in store.summary.glob("*.md")} == {
        "codex",
        "gemini",
    }


def test_export_renders_codex_and_gemini_with_redaction_and_private_spans(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "proj")
    key = "sk-ant-api03-" + "B" * 40
    chat = tmp_path / "chat.jsonl"
    text = filled(FIXTURES / "gemini" / "chat.jsonl", project)
    text = text.replace("Write hi into out.txt", f"Write hi <private>hidden {key}</private>{key}")
    chat.write_text(text, encoding="utf-8")
    out = vaultkit(project, "transcript", "export", str(chat), "-o", "-")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("# Conversation — ")
    assert f"session: `{GEMINI_SID}`" in out.stdout
    assert "## User\n\nWrite hi [REDACTED:anthropic]\n" in out.stdout
    assert key not in out.stdout and "hidden" not in out.stdout and INJECTED not in out.stdout
    assert out.stdout.count("## Gemini") == 2 and "4 turn(s)" in out.stderr

    rollout = tmp_path / "rollout.jsonl"
    rollout.write_text(filled(FIXTURES / "codex" / "rollout.jsonl", project), encoding="utf-8")
    wrote = vaultkit(project, "transcript", "export", str(rollout))
    assert wrote.returncode == 0, wrote.stderr
    target = only(Store(project / "sessions").transcripts)
    assert target.name.endswith(f"_{CODEX_SID[:8]}.md")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    body = target.read_text(encoding="utf-8")
    assert "## Codex\n\nHello from the mock Codex model.\n" in body
    assert INJECTED not in body and "<environment_context>" not in body
