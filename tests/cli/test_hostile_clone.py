"""A hostile teammate's store, committed and cloned with real git: nothing outside leaks.

The store of issue 22: a far-future summary that is a symlink to a credentials file outside, wiki
links to a passwd-like file outside and into ``raw/``, a symlinked folder, a symlinked INDEX.md.
SessionStart (the installed hook command), ``vaultkit search``, the MCP server (a stdio client)
and ``vaultkit doctor``/``lint`` run against the clone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import vaultkit

BIN = Path(sys.executable).parent
ENTRY = str(Path(vaultkit.__file__).resolve().parent / "vaultkit_hook.py")
LEAKS = ("LEAK-AWS", "LEAK-PASSWD", "LEAK-RAW", "LEAK-FOLDER", "LEAK-INDEX")
SID = "5f0c2a9e-1111-4222-8333-944445555666"
GOOD = f"2026-11-30_0900_{SID[:8]}_Real-work"
KEY = "sk-ant-api03-" + "M" * 40


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=Mallory", "-c", "user.email=m@example.invalid", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _note(path: Path, body: str, **meta: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    front = yaml.safe_dump(meta, sort_keys=False)
    path.write_text(f"---\n{front}---\n{body}", encoding="utf-8")


def _outside(tmp: Path) -> dict[str, Path]:
    """The victim's files outside the store: credentials, a passwd-like file, a folder."""
    aws = tmp / "victim" / ".aws"
    aws.mkdir(parents=True)
    (aws / "credentials").write_text("[default]\naws_secret_access_key = LEAK-AWS\n")
    (aws / "notes.md").write_text("# keys\nLEAK-FOLDER\n")
    etc = tmp / "etc"
    etc.mkdir()
    (etc / "passwd").write_text("root:x:0:0:LEAK-PASSWD:/root:/bin/sh\n")
    (etc / "index.md").write_text("- [[x]] LEAK-INDEX\n")
    return {"aws": aws, "passwd": etc / "passwd", "index": etc / "index.md"}


def hostile_repo(tmp: Path) -> Path:
    """The teammate's repository: one real session and the hostile links, committed."""
    outside = _outside(tmp)
    origin = tmp / "origin"
    store = origin / "sessions"
    meta = {"title": "Real work", "date": "2026-11-30T09:00:00+00:00", "session_id": SID}
    _note(store / "summary" / f"{GOOD}.md", "## Done\n- GOOD-SUMMARY\n", **meta)
    _note(store / "wiki" / f"{GOOD}.md", "# Real\nGOOD-WIKI\n", **meta)
    # a teammate's own notes: one dated far ahead in its frontmatter, one newer with a secret
    pin = {"title": "Pinned", "date": "2099-12-31T23:59:00+00:00", "author": "Mallory"}
    _note(store / "summary" / "2026-11-30_0930_77777777_Pinned.md", "PINNED-BODY\n", **pin)
    late = {"title": f"Deploy with {KEY}", "date": "2026-11-30T10:00:00+00:00",
            "author": "Mallory", "session_id": "88888888-x"}  # fmt: skip
    _note(store / "summary" / "2026-11-30_1000_88888888_Deploy.md", f"use {KEY}\n", **late)
    summary, wiki = store / "summary", store / "wiki"
    # relative, so it points out of whichever folder the clone lands in
    depth = os.path.relpath(outside["aws"] / "credentials", tmp / "clone" / "sessions" / "summary")
    (summary / "2099-12-31_2359_0badc0de_Onboarding.md").symlink_to(depth)
    (wiki / "passwd.md").symlink_to(outside["passwd"])
    (wiki / "raw-copy.md").symlink_to(Path("..") / "raw" / f"2026-11-30_0900_{SID}.jsonl")
    (wiki / "shared").symlink_to(outside["aws"], target_is_directory=True)
    (wiki / "INDEX.md").symlink_to(outside["index"])
    _git(tmp, "init", "-q", "-b", "main", str(origin))
    _git(origin, "add", "-A")
    _git(origin, "commit", "-q", "-m", "onboarding notes")
    return origin


HOSTILE = (
    "sessions/summary/2099-12-31_2359_0badc0de_Onboarding.md",
    "sessions/wiki/INDEX.md",
    "sessions/wiki/passwd.md",
    "sessions/wiki/raw-copy.md",
    "sessions/wiki/shared",
)


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    origin = hostile_repo(tmp_path)
    target = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", str(origin), str(target))
    raw = target / "sessions" / "raw"  # the victim's own private raw copy, never shared
    raw.mkdir()
    (raw / f"2026-11-30_0900_{SID}.jsonl").write_text('{"type":"user","text":"LEAK-RAW"}\n')
    for rel in HOSTILE:
        assert (target / rel).is_symlink(), rel
    return target


def _leaks(text: str) -> list[str]:
    return [leak for leak in LEAKS if leak in text]


def _session_start(clone: Path) -> str:
    payload = {"session_id": "new-session", "cwd": str(clone), "source": "startup",
               "hook_event_name": "SessionStart", "transcript_path": ""}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-I", "-S", ENTRY, "SessionStart"],
        input=json.dumps(payload),
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def _vk(clone: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "vaultkit"), *args],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_session_start_injects_the_real_session_and_nothing_outside(clone: Path) -> None:
    out = _session_start(clone)
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert _leaks(text) == []
    assert "GOOD-SUMMARY" in text and "GOOD-WIKI" in text
    assert "Onboarding" not in text  # the far-future link is not "the latest session"
    assert "information, not instructions" in text
    assert "PINNED-BODY" not in text and "77777777_Pinned.md (its date 2099-12-31" in text
    assert (
        "Newer sessions by teammates: Mallory · 2026-11-30 10:00 · Deploy with [REDACTED:" in text
    )
    assert KEY not in text


def test_search_finds_the_real_notes_and_nothing_behind_the_links(clone: Path) -> None:
    for word in LEAKS:
        found = _vk(clone, "search", word, "--format", "json")
        assert found.returncode == 1, found.stderr  # exit 1: nothing matched
        assert json.loads(found.stdout)["results"] == [], word
    good = json.loads(_vk(clone, "search", "GOOD-WIKI", "--format", "json").stdout)["results"]
    assert [hit["path"] for hit in good] == [f"wiki/{GOOD}.md"]


class Client:
    """A stdio MCP client: newline-delimited JSON-RPC, as the spec frames it."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [str(BIN / "vaultkit"), "mcp"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.next_id = 0
        info = {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"}}  # fmt: skip
        self.request("initialize", info)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> Any:
        assert self.proc.stdout is not None
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            reply = json.loads(self.proc.stdout.readline())
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply
                return reply["result"]

    def call(self, name: str, **arguments: object) -> tuple[bool, str]:
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        return bool(result.get("isError")), json.dumps(result, ensure_ascii=False)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.mark.slow
def test_the_mcp_tools_read_nothing_behind_the_links(clone: Path) -> None:
    client = Client(clone)
    try:
        for rel in HOSTILE:
            shown = rel.removeprefix("sessions/")
            for name in (shown, f"{shown}/credentials", f"{shown}/notes.md"):
                failed, text = client.call("read_note", note=name)
                assert failed and _leaks(text) == [], (name, text)
        for name in ("wiki/../raw/" + f"2026-11-30_0900_{SID}.jsonl", "shared/notes.md"):
            failed, text = client.call("read_note", note=name)
            assert failed and _leaks(text) == [], (name, text)
        for leak in LEAKS:
            failed, text = client.call("search", query=leak)
            assert not failed and json.loads(text)["structuredContent"]["results"] == [], text
        for tool, args in (
            ("recent_sessions", {}),
            ("latest_handoff", {}),
            ("vault_health", {}),
            ("links", {"note": GOOD}),
            ("related", {"note": GOOD}),
        ):
            failed, text = client.call(tool, **args)
            assert not failed, (tool, text)
            assert _leaks(text) == [] and "Onboarding" not in text, (tool, text)
        failed, text = client.call("latest_handoff")
        assert "GOOD-SUMMARY" in text  # this user's own handoff, not the teammate's newer one
        for tool, args in (
            ("search", {"query": "deploy"}),
            ("read_note", {"note": "summary/2026-11-30_1000_88888888_Deploy.md"}),
        ):
            failed, text = client.call(tool, **args)
            assert not failed and "[REDACTED:" in text and KEY not in text, (tool, text)
    finally:
        client.close()


def test_doctor_and_lint_name_each_link_its_target_and_the_command(clone: Path) -> None:
    doctor = _vk(clone, "doctor", "--format", "json")
    checks = json.loads(doctor.stdout)["checks"]
    links = {c["detail"].split(" ", 1)[0]: c for c in checks if c["name"] == "shared link"}
    assert sorted(links) == sorted(HOSTILE)
    root = str(clone.resolve())
    for rel, check in links.items():
        assert check["status"] == "fail"
        assert check["fix"] == f"git -C {root} rm -- {rel}"
        target = os.path.realpath(clone / rel)
        assert target in check["detail"]
    assert "into the store's private raw/" in links["sessions/wiki/raw-copy.md"]["detail"]
    assert doctor.returncode == 1
    assert _leaks(doctor.stdout + doctor.stderr) == []
    lint = _vk(clone, "lint", "sessions/wiki")
    reported = [line for line in lint.stdout.splitlines() if " VK203 " in line]
    assert len(reported) == len(HOSTILE), lint.stdout
    for rel in HOSTILE:
        assert any(f"rm -- {rel})" in line for line in reported), rel
    assert _leaks(lint.stdout + lint.stderr) == []
    assert lint.returncode == 1
