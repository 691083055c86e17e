"""agents/transcripts: only a regular ``<id>.jsonl`` of Claude Code records under the agent's
``projects/`` folder is the agent's transcript; real files, real symlinks, real pipes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import FIXTURES
from worker_support import claude_projects, write_transcript

from vaultkit.agents import transcripts
from vaultkit.agents.claude import config_dir, projects_dir
from vaultkit.agents.transcripts import EMPTY, file_problem, head_problem, path_problem

TRANSCRIPTS = FIXTURES / "claude" / "transcripts"
SID = "3c3c3c3c-1111-2222-3333-444444444444"


def env() -> dict[str, str]:
    return dict(os.environ)


def test_the_config_dir_is_claude_config_dir_else_home_dot_claude(tmp_path: Path) -> None:
    home = os.environ["HOME"]
    assert config_dir({"HOME": home}) == os.path.join(home, ".claude")
    assert config_dir({"HOME": home, "CLAUDE_CONFIG_DIR": str(tmp_path / "cc")}) == str(
        tmp_path / "cc"
    )
    assert projects_dir({"HOME": home}) == os.path.realpath(os.path.join(home, ".claude/projects"))


@pytest.mark.parametrize("fixture", sorted(p.name for p in TRANSCRIPTS.glob("*.jsonl")))
def test_real_transcripts_of_claude_code_are_accepted(fixture: str) -> None:
    target = claude_projects() / f"{SID}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes((TRANSCRIPTS / fixture).read_bytes())
    assert path_problem(str(target), env()) is None
    assert file_problem(str(target), env()) is None


def test_a_file_outside_the_agents_folder_is_refused(tmp_path: Path) -> None:
    elsewhere = write_transcript(tmp_path / "proj" / f"{SID}.jsonl", SID)
    root = projects_dir(env())
    assert path_problem("/etc/passwd", env()) == f"not under {root}{os.sep}"
    assert path_problem(str(elsewhere), env()) == f"not under {root}{os.sep}"
    assert file_problem(str(elsewhere), env()) == f"not under {root}{os.sep}"
    assert file_problem(str(elsewhere), env(), anywhere=True) is None, "ingest: user's choice"
    # CLAUDE_CONFIG_DIR moves the agent's folder, and with it what is accepted
    moved = {**env(), "CLAUDE_CONFIG_DIR": str(tmp_path / "proj" / "..")}
    inside = write_transcript(tmp_path / "projects" / "-p" / f"{SID}.jsonl", SID)
    assert path_problem(str(inside), moved) is None
    assert path_problem(str(inside), env()) is not None


def test_a_symlink_out_of_the_folder_is_refused_and_one_inside_it_is_followed(
    tmp_path: Path,
) -> None:
    folder = claude_projects()
    folder.mkdir(parents=True)
    secret = tmp_path / "id_rsa"
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    out = folder / f"{SID}.jsonl"
    out.symlink_to(secret)
    assert path_problem(str(out), env()) is not None
    assert file_problem(str(out), env()) is not None
    real = write_transcript(folder / "aaaa.jsonl", "aaaa")
    link = folder / "bbbb.jsonl"
    link.symlink_to(real)
    assert file_problem(str(link), env()) is None
    folder_link = claude_projects("-linked")
    folder_link.parent.mkdir(parents=True, exist_ok=True)
    folder_link.symlink_to(tmp_path, target_is_directory=True)  # projects/-linked -> outside
    write_transcript(tmp_path / f"{SID}.jsonl", SID)
    assert path_problem(str(folder_link / f"{SID}.jsonl"), env()) is not None


def test_folders_pipes_and_misnamed_files_are_refused() -> None:
    folder = claude_projects()
    (folder / f"{SID}.jsonl").mkdir(parents=True)
    assert path_problem(str(folder / f"{SID}.jsonl"), env()) == "not a regular file"
    os.mkfifo(folder / "pipe.jsonl")
    assert path_problem(str(folder / "pipe.jsonl"), env()) == "not a regular file"
    assert file_problem(str(folder / "pipe.jsonl"), env()) == "not a regular file"  # no hang
    for name in ("notes.txt", "a b.jsonl", ".jsonl", "x.jsonl.bak"):
        target = write_transcript(folder / name, SID)
        assert path_problem(str(target), env()) == "not named <session-id>.jsonl", name
    assert path_problem(str(folder / "not-yet-written.jsonl"), env()) is None  # the caller decides
    assert file_problem(str(folder / "not-yet-written.jsonl"), env()) == "does not exist"


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"", EMPTY),
        (b"\n\n  \n", EMPTY),
        (b"root:x:0:0:root:/root:/bin/bash\n", "line 1 is not JSON"),
        (b'["a list"]\n', "line 1 is not a JSON object"),
        (b'{"hello": "world"}\n', "its first lines have no Claude Code record type and session id"),
        (b'{"type": "user"}\n', "its first lines have no Claude Code record type and session id"),
        (b'{"type": "message", "sessionId": "s"}\n', "its first lines have no Claude Code"),
        (b'{"type": "user", "sessionId": "s"}\n', None),
        (b'{"type": "summary", "summary": "x", "leafUuid": "u"}\n', None),
        (b'{"type": "queue-operation", "sessionId": "s"}\n{"type":"user","sessionId":"s"}', None),
        (b'{"type": "user", "sessionId": "s", "message": "' + b"x" * 70_000, None),
        (b'{"message": "' + b"x" * 70_000, "its first line is not a transcript record"),
    ],
)
def test_the_first_lines_must_be_claude_code_records(head: bytes, expected: str | None) -> None:
    problem = head_problem(head)
    if expected is None:
        assert problem is None
    else:
        assert problem is not None and problem.startswith(expected)


def test_an_empty_transcript_is_refused_only_when_its_content_is_read() -> None:
    target = claude_projects() / f"{SID}.jsonl"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"")
    assert path_problem(str(target), env()) is None, "SessionEnd: may still be being written"
    assert file_problem(str(target), env()) == EMPTY
    target.write_text(json.dumps({"type": "user", "sessionId": SID}) + "\n")
    assert file_problem(str(target), env()) is None


# --- other agents: Codex rollouts and Gemini chat files -------------------------------------


def _place(home: Path, rel: str, source: Path) -> Path:
    target = home / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(source.read_bytes())
    return target


def test_codex_rollout_is_codex_transcript_only(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    rel = ".codex/sessions/2026/12/01/rollout-2026-12-01T07-30-39-01a2.jsonl"
    rollout = _place(tmp_path, rel, FIXTURES / "codex/rollout.jsonl")
    assert transcripts.file_problem(str(rollout), env, agent="codex") is None
    assert transcripts.path_problem(str(rollout), env) is not None  # not Claude's
    gemini_problem = transcripts.file_problem(str(rollout), env, agent="gemini")
    assert gemini_problem is not None and "Gemini" in gemini_problem


def test_gemini_chat_is_gemini_transcript_only(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    rel = ".gemini/tmp/app/chats/session-2026-12-01T07-36-115dd1e7.jsonl"
    chat = _place(tmp_path, rel, FIXTURES / "gemini/chat.jsonl")
    assert transcripts.file_problem(str(chat), env, agent="gemini") is None
    assert transcripts.file_problem(str(chat), env, agent="codex") is not None


def test_other_agents_refuse_lookalikes(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}
    rel = ".codex/sessions/2026/12/01/rollout-x.jsonl"
    fake = tmp_path / rel
    fake.parent.mkdir(parents=True)
    fake.write_text('{"type": "user", "sessionId": "x"}\n')
    assert transcripts.file_problem(str(fake), env, agent="codex") == (
        "its first line is not a Codex rollout's session_meta"
    )
    outside = tmp_path / "rollout-x.jsonl"
    outside.write_bytes((FIXTURES / "codex/rollout.jsonl").read_bytes())
    problem = transcripts.path_problem(str(outside), env, agent="codex")
    assert problem is not None and problem.startswith("not Codex CLI")
    assert transcripts.path_problem(str(fake), env, agent="cursor") == "no agent is called 'cursor'"
    link = tmp_path / ".codex/sessions/2026/12/01/rollout-link.jsonl"
    link.symlink_to("/etc/passwd")
    assert transcripts.file_problem(str(link), env, agent="codex") is not None
