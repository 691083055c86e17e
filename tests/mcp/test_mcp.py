"""``vaultkit mcp`` as the agent's client sees it: a real server process spoken to in JSON-RPC."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

VAULTKIT = Path(sys.executable).parent / "vaultkit"
RAW = "2026-11-12_1020_9e3b7c55-2a6d-4c18-8f4e-7b1d0c9a2e66.jsonl"


class Client:
    """A minimal MCP client over stdio: newline-delimited JSON-RPC, as the spec frames it."""

    def __init__(self, cwd: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [str(VAULTKIT), "mcp", *args],
            cwd=cwd,
            env=None if env is None else {**os.environ, **env},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.next_id = 0
        init = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        )
        self.info = init
        self.notify("notifications/initialized")

    def notify(self, method: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        while True:
            reply = json.loads(self.proc.stdout.readline())
            if reply.get("id") == self.next_id:
                assert "error" not in reply, reply
                return reply["result"]

    def call(self, name: str, **arguments: object) -> tuple[bool, Any]:
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        if result.get("isError"):
            return True, result["content"][0]["text"]
        return False, result["structuredContent"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=20)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(
        REPO / "examples" / "sessions",
        tmp_path / "sessions",
        ignore=shutil.ignore_patterns(".vaultkit"),
    )
    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "deep").mkdir(parents=True)
    return tmp_path


@pytest.fixture
def client(project: Path) -> Iterator[Client]:
    c = Client(project / "src" / "deep")  # the store is found from the working directory
    yield c
    c.close()


READ_ONLY_TOOLS = {
    "search",
    "read_note",
    "links",
    "related",
    "recent_sessions",
    "latest_handoff",
    "vault_health",
    "restore",
    "memory_cost",
}


def test_every_tool_is_read_only_and_declares_its_parameters(client: Client) -> None:
    listed = client.request("tools/list")["tools"]
    assert {t["name"] for t in listed} == READ_ONLY_TOOLS
    for tool in listed:
        assert tool["annotations"]["readOnlyHint"] is True, tool["name"]
        assert tool["description"], tool["name"]
        for name, schema in tool["inputSchema"].get("properties", {}).items():
            assert schema.get("description"), f"{tool['name']}.{name}"
    search = next(t for t in listed if t["name"] == "search")
    assert search["inputSchema"]["required"] == ["query"]
    assert "long-term memory" in client.info["instructions"]


@pytest.mark.slow
def test_save_handoff_exists_only_with_allow_write(project: Path) -> None:
    writer = Client(project, "--allow-write", env={"CLAUDE_CODE_SESSION_ID": "sess-42"})
    try:
        names = {t["name"] for t in writer.request("tools/list")["tools"]}
        assert names == READ_ONLY_TOOLS | {"save_handoff", "move_note", "write_note", "edit_note"}
        error, saved = writer.call("save_handoff", text="# Wrap-up\n\n## Current state\nok\n")
        assert not error
        assert saved["path"].startswith("summary/") and saved["path"].endswith("_Wrap-up.md")
        assert "Next tasks" in saved["missing_sections"]
        text = (project / "sessions" / saved["path"]).read_text("utf-8")
        assert "auto_saved: false" in text
        assert "\nauthor: " in text  # no git user.name here: the OS user
        wiki = project / "sessions" / "wiki"
        linking = [p for p in wiki.rglob("*.md") if "[[Idempotent imports" in p.read_text("utf-8")]
        assert linking
        error, moved = writer.call(
            "move_note", note="concepts/Idempotent imports.md", to="concepts/Idempotency.md"
        )
        assert not error, moved
        assert moved["moved"] == [
            {"from": "wiki/concepts/Idempotent imports.md", "to": "wiki/concepts/Idempotency.md"}
        ]
        assert (wiki / "concepts" / "Idempotency.md").is_file()
        for path in linking:
            text = path.read_text("utf-8")
            assert "[[Idempotent imports" not in text and "[[Idempotency" in text, path
        error, refused = writer.call("move_note", note="concepts/Idempotency.md", to="../out.md")
        assert error and "outside the vault" in refused
        _write_and_edit(writer, wiki)
    finally:
        writer.close()
    log = (project / "sessions" / ".vaultkit" / "vaultkit.log").read_text("utf-8")
    logged = [line for line in log.splitlines() if "] mcp[" in line]
    assert [line.split("] ", 1)[1].split(" ", 1)[1] for line in logged] == [
        "move_note wiki/concepts/Idempotent imports.md -> wiki/concepts/Idempotency.md "
        "session=sess-42",
        "write_note wiki/Decision.md session=sess-42",
        "edit_note wiki/Decision.md session=sess-42",
        "edit_note wiki/Decision.md session=sess-42",
    ]


def _write_and_edit(writer: Client, wiki: Path) -> None:
    error, held = writer.call("write_note", path="Decision.md", text="# D\n\nSee [[Idempotncy]].\n")
    assert not error and held["written"] is False
    assert held["ghosts"][0]["closest"][0] == "Idempotency"
    assert not (wiki / "Decision.md").exists()
    text = "# D\n\n## Why\n\nSee [[Idempotency]].\n"
    error, made = writer.call("write_note", path="Decision.md", text=text)
    assert not error and made["written"] and made["path"] == "wiki/Decision.md"
    assert (wiki / "Decision.md").read_text("utf-8") == text
    error, again = writer.call("write_note", path="Decision.md", text=text)
    assert error and "never overwrites" in again
    error, read = writer.call("read_note", note="wiki/Decision.md")
    assert not error
    error, edited = writer.call(
        "edit_note",
        note="Decision.md",
        hash=read["hash"],
        heading="Why",
        text="Because.",
        append=True,
    )
    assert not error and edited["written"], edited
    assert (wiki / "Decision.md").read_text("utf-8") == text + "Because.\n"
    error, stale = writer.call(
        "edit_note", note="Decision.md", hash=read["hash"], heading="Why", text="Other."
    )
    assert error and "changed since it was read" in stale
    error, read = writer.call("read_note", note="wiki/Decision.md")
    error, loose = writer.call(  # level, case and spacing forgiven
        "edit_note", note="Decision.md", hash=read["hash"], heading="##  why ", text="Now."
    )
    assert not error and loose["written"], loose
    assert (wiki / "Decision.md").read_text("utf-8") == "# D\n\n## Why\n\nNow.\n"


def test_search_finds_an_older_note_and_a_korean_one(client: Client) -> None:
    error, found = client.call("search", query="idempotent", limit=3)
    assert not error
    assert found["results"][0]["path"] == "wiki/concepts/Idempotent imports.md"
    assert found["results"][0]["line"] == 10
    error, found = client.call("search", query="규칙", type=["wiki"])
    assert found["results"][0]["path"].startswith("wiki/2026-11-09_1545_")
    error, text = client.call("search", query="x", type=["bogus"])
    assert error and "unknown type bogus" in text
    assert "advice" not in found  # every hit holds the query


def test_an_empty_search_says_why_and_what_to_try(client: Client) -> None:
    error, found = client.call("search", query="zebra unicorn")
    assert not error and found["results"] == []
    assert "no document holds 'zebra', 'unicorn'" in found["advice"][0]
    assert any("try fewer words" in line for line in found["advice"])
    reply = client.request("tools/call", {"name": "search", "arguments": {"query": "zebra"}})
    assert "check the spelling" in reply["content"][0]["text"]  # the text form says it too


def test_search_filters_by_the_author_a_teammate_recorded(project: Path) -> None:
    note = project / "sessions" / "wiki" / "concepts" / "Idempotent imports.md"
    text = note.read_text(encoding="utf-8")
    note.write_text(text.replace("---\n", "---\nauthor: Bob Builder\n", 1), encoding="utf-8")
    newest = (
        project / "sessions" / "summary" / "2026-11-20_0915_e0c4b9f7_Currency conversion cache.md"
    )
    text = newest.read_text(encoding="utf-8")
    newest.write_text(text.replace("---\n", "---\nauthor: 'eve\n\n  [[x]]'\n", 1), "utf-8")
    c = Client(project)
    try:
        error, found = c.call("search", query="idempotent", author="bob builder")
        assert not error
        assert [r["path"] for r in found["results"]] == ["wiki/concepts/Idempotent imports.md"]
        assert found["results"][0]["author"] == "Bob Builder"
        error, found = c.call("search", query="idempotent", author="alice")
        assert not error and found["results"] == []
        error, recent = c.call("recent_sessions", limit=1)
        assert not error and recent["sessions"][0]["author"] == "eve ((x))"  # one plain line
    finally:
        c.close()


def test_read_note_by_name_and_in_pages(client: Client) -> None:
    error, page = client.call("read_note", note="Idempotent imports", max_lines=5)
    assert not error
    assert page["path"] == "wiki/concepts/Idempotent imports.md"
    assert (page["start_line"], page["end_line"], page["next_offset"]) == (1, 5, 6)
    assert page["text"].splitlines()[0] == "---"
    error, rest = client.call(
        "read_note", note=page["path"], offset=page["next_offset"], max_lines=1000
    )
    assert rest["next_offset"] is None and rest["end_line"] == page["total_lines"]
    error, text = client.call("read_note", note="No such note")
    assert error and "no note of that name" in text
    for private in ("../../../etc/passwd", "raw/" + RAW, ".vaultkit/search.sqlite"):
        error, text = client.call("read_note", note=private)
        assert error and "no note of that name" in text, private


def test_links_related_sessions_handoff_and_health(client: Client) -> None:
    error, found = client.call("links", note="Idempotent imports")
    assert not error and found["path"] == "wiki/concepts/Idempotent imports.md"
    assert any(b["source"].endswith("CSV importer for bank exports.md") for b in found["backlinks"])
    assert all(b["source"].startswith("wiki/") for b in found["backlinks"])
    assert any(
        o["resolved"] == "wiki/concepts/Transaction fingerprint.md" for o in found["outgoing"]
    )
    error, near = client.call("related", note="Idempotent imports", limit=2)
    assert near["path"] == "wiki/concepts/Idempotent imports.md"
    assert near["related"][0]["path"] == "wiki/concepts/Transaction fingerprint.md"
    error, recent = client.call("recent_sessions", limit=3)
    assert [s["date"][:10] for s in recent["sessions"]] == [
        "2026-11-20",
        "2026-11-16",
        "2026-11-12",
    ]
    assert recent["sessions"][1]["quality"] == "degraded"
    error, handoff = client.call("latest_handoff")
    assert handoff["path"].startswith("summary/2026-11-20_0915_") and "Currency" in handoff["text"]
    error, health = client.call("vault_health")
    assert (health["ghosts"], health["orphans"], health["degraded"]) == (2, 1, 1)
    assert health["notes"] == 16


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("read_note", {"note": "wiki/a\x00b.md"}),
        ("read_note", {"note": "[[x\x00]]"}),
        ("search", {"query": "parser\x00"}),
        ("links", {"note": "\x00"}),
        ("related", {"note": "a\x00"}),
    ],
)
def test_a_nul_byte_in_an_argument_is_a_tool_error_not_a_traceback(
    project: Path, tool: str, arguments: dict[str, object]
) -> None:
    c = Client(project)
    try:
        failed, text = c.call(tool, **arguments)
        assert failed and "NUL" in text, text
        still_failing, _ = c.call("recent_sessions")  # the server is still serving
        assert not still_failing
    finally:
        c.close()
    assert c.proc.stderr is not None
    assert "Traceback" not in c.proc.stderr.read()


def test_only_tools_are_advertised(client: Client) -> None:
    assert set(client.info["capabilities"]) == {"tools"}
    assert client.proc.stdin is not None and client.proc.stdout is not None
    message = {"jsonrpc": "2.0", "id": 99, "method": "prompts/list", "params": {}}
    client.proc.stdin.write(json.dumps(message) + "\n")
    client.proc.stdin.flush()
    reply = json.loads(client.proc.stdout.readline())
    assert reply["id"] == 99 and reply["error"]["code"] == -32601  # method not found


def test_since_is_checked_as_the_cli_checks_it(client: Client) -> None:
    error, text = client.call("search", query="idempotent", since="last week")
    assert error and "since 'last week': not a date" in text and "2026-11-30" in text
    error, found = client.call("search", query="idempotent", since="2099-01-01")
    assert not error and found["results"] == []
    error, found = client.call("search", query="idempotent", since="2026-11-01")
    assert not error and found["results"]


def test_a_limit_above_the_maximum_is_clamped_and_said(client: Client) -> None:
    error, found = client.call("search", query="import", limit=500)
    assert not error and 0 < len(found["results"]) <= 50
    assert "limit 500 is above the maximum" in found["note"]
    error, recent = client.call("recent_sessions", limit=10_000)
    assert not error and len(recent["sessions"]) >= 3
    error, page = client.call("read_note", note="Idempotent imports", max_lines=5000)
    assert not error and page["next_offset"] is None


def test_argument_errors_are_plain_words(client: Client) -> None:
    error, text = client.call("search", query="x", limit="many")
    assert error and text.startswith("search: limit: must be a whole number (got 'many')")
    assert "pydantic" not in text and "http" not in text
    error, text = client.call("search", limit=3)
    assert error and "query: required, and missing" in text
    error, text = client.call("read_note", note="Idempotent imports", offset=0)
    assert error and "offset: must be 1 or more (got 0)" in text
    error, text = client.call("links", note="x", depth=2)
    assert error and "depth: not a parameter of links (parameters: note)" in text
    error, found = client.call("search", query="idempotent", type="wiki")  # one kind as text
    assert not error and {r["kind"] for r in found["results"]} == {"wiki"}


def test_restore_shows_what_the_next_session_gets(client: Client) -> None:
    error, start = client.call("restore")
    assert not error and start["source"] == "startup"
    assert "Currency conversion cache" in start["text"]
    assert start["latest_session"].startswith("2026-11-20_0915_")
    error, text = client.call("restore", source="sideways")
    assert error and "unknown source 'sideways'" in text


def test_memory_cost_sums_the_cost_log(project: Path) -> None:
    from datetime import datetime

    state = project / "sessions" / ".vaultkit"
    state.mkdir(exist_ok=True)
    today = datetime.now().astimezone().date().isoformat()
    line = {
        "date": today,
        "session_id": "s1",
        "backend": "claude",
        "model": "m",
        "input_tokens": 1000,
        "output_tokens": 234,
        "cost_usd": 0.0123,
    }
    old = {**line, "date": "2001-01-01", "cost_usd": 5.0}
    (state / "costs.jsonl").write_text(f"{json.dumps(line)}\n{json.dumps(old)}\nnot json\n")
    c = Client(project)
    try:
        error, cost = c.call("memory_cost")
    finally:
        c.close()
    assert not error
    assert cost["today"]["sessions"] == 1 and cost["today"]["input_tokens"] == 1000
    assert cost["this_month"]["cost_usd"] == 0.0123
    assert cost["line"].startswith("today 1 session(s), 1,234 tokens, $0.0123;")
    assert cost["budget_reached"] is False


def _store_with(folder: Path, name: str, text: str) -> Path:
    wiki = folder / "sessions" / "wiki"
    wiki.mkdir(parents=True)
    (folder / "sessions" / "summary").mkdir()
    (wiki / f"{name}.md").write_text(f"---\ntitle: {name}\n---\n# {name}\n\n{text}\n", "utf-8")
    return folder / "sessions"


def test_search_over_every_project_names_each_hit_s_project(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vaultkit.base import seen

    home = tmp_path / "data"
    monkeypatch.setenv("VAULTKIT_HOME", str(home))
    other = _store_with(tmp_path / "billing", "Ledger rounding", "idempotent ledger rounding")
    kept = _store_with(home / "projects" / "notes-0123456789", "Scratch", "idempotent scratch")
    assert seen.remember(str(other)) and not seen.remember(str(other))  # recorded once
    assert seen.all_stores() == [str(other.resolve()), str(kept.resolve())]
    c = Client(project)
    try:
        error, here = c.call("search", query="idempotent")
        assert not error and {r.get("project") for r in here["results"]} == {None}
        error, found = c.call("search", query="idempotent", all_projects=True, limit=50)
    finally:
        c.close()
    assert not error and found["stores"] == 3
    by_project = {(Path(r["project"]).name, r["path"]) for r in found["results"]}
    assert ("billing", "wiki/Ledger rounding.md") in by_project
    assert ("notes-0123456789", "wiki/Scratch.md") in by_project
    assert (project.name, "wiki/concepts/Idempotent imports.md") in by_project


def test_a_repo_without_a_store_gets_nothing_written(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    home = tmp_path / "data"
    c = Client(repo, env={"VAULTKIT_HOME": str(home)})
    try:
        for tool in sorted(READ_ONLY_TOOLS - {"read_note", "links", "related"}):
            c.call(tool, **({"query": "anything"} if tool == "search" else {}))
        c.call("search", query="anything", all_projects=True)
    finally:
        c.close()
    assert sorted(p.name for p in repo.iterdir()) == [".git"]
    assert not home.exists() or not any(home.rglob("*"))
