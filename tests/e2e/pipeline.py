"""Helpers for the vaultkit pipeline scenarios: install hooks, script the worker, wait, inspect."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from vaultkit.base.store import Store

from .harness import Sandbox, hooks_settings, read_jsonl
from .mockapi import Dynamic, Recorded, Reply, distillation

VAULTKIT = Path(sys.executable).with_name("vaultkit")
TRANSCRIPT_HEADER = "earlier turns may be trimmed):"
INJECTION_PREFIX = "SessionStart hook additional context:"
_SESSION_LINE = re.compile(r"^Session: (\S+)", re.MULTILINE)
_PIDS = re.compile(r"worker pid (\d+)|worker\[(\d+)\]")


@dataclass(frozen=True, slots=True)
class Distilled:
    """The files the worker produced for one session."""

    raw: Path
    summary: Path
    wiki: Path
    done: dict[str, Any]


def vault_project(
    sandbox: Sandbox, name: str = "project", scope: str = "project", **distill: object
) -> Path:
    """A git project with vaultkit's hooks installed (``scope``: project, or user = the
    sandbox's ``$CLAUDE_CONFIG_DIR/settings.json``; default budgets) and
    ``sessions/vaultkit.toml`` pointing the worker at the pinned ``claude``."""
    project = sandbox.project(name)
    done = subprocess.run(
        [str(VAULTKIT), "hooks", "install", "--scope", scope],
        cwd=project,
        env=sandbox.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, f"vaultkit hooks install failed: {done.stdout}{done.stderr}"
    where = project / ".claude" if scope == "project" else sandbox.config_dir
    settings = (where / "settings.json").read_text(encoding="utf-8")
    assert "SessionEnd" in settings and "SessionStart" in settings, settings
    lines = ["[distill]", f"claude_path = {json.dumps(str(sandbox.claude))}"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in distill.items()]
    store = Store(project / "sessions")
    store.root.mkdir(exist_ok=True)
    store.config_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return project


def add_dump_hooks(project: Path, hook: Path, events: tuple[str, ...]) -> None:
    """Run ``hook`` (a payload recorder) for ``events`` next to vaultkit's own entries."""
    settings_file = project / ".claude" / "settings.json"
    settings = json.loads(settings_file.read_text(encoding="utf-8"))
    extra = hooks_settings(f"{sys.executable} {hook}", events)
    for event, entries in extra["hooks"].items():
        settings["hooks"][event] = [*settings["hooks"].get(event, []), *entries]
    settings_file.write_text(json.dumps(settings, indent=2), encoding="utf-8")


def payloads(folder: Path) -> list[dict[str, Any]]:
    """The recorded hook payloads, in order."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def new_session_id() -> str:
    return str(uuid.uuid4())


def prompt_of(body: dict[str, Any]) -> str:
    """All user text of a request, joined (the worker's prompt arrives as user text)."""
    texts: list[str] = []
    for message in body.get("messages", []):
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts += [b["text"] for b in content if isinstance(b, dict) and "text" in b]
    return "\n".join(texts)


def echo_distillation(tag: str = "Distilled") -> Dynamic:
    """A well-formed distillation whose title/handoff/wiki carry the session id, and whose wiki
    part repeats the condensed transcript it was given (markers defused), so tests can see
    exactly what the worker fed the model."""

    def build(body: dict[str, Any]) -> Reply:
        prompt = prompt_of(body)
        found = _SESSION_LINE.search(prompt)
        sid = found.group(1) if found else "unknown"
        given = prompt.split(TRANSCRIPT_HEADER, 1)[-1].replace("@@@", "")
        # text of its own, twice the transcript's words: a wiki part that is mostly the
        # transcript is rejected as a copy (issue 26), and this one only quotes it
        own = " ".join(f"own{n}" for n in range(2 * len(given.split()) + 16))
        return distillation(
            f"{tag} {sid[:8]}",
            f"## Done\n- HANDOFF-{sid}\n\n## Next steps\n- continue",
            f"WIKI-{sid} links [[Mock Topic]].\n\n{own}\n\n## Transcript as given\n{given}",
        )

    return Dynamic(build)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def worker_pids(store: Store) -> set[int]:
    """Every worker pid the store's log mentions."""
    try:
        text = store.log.read_text(encoding="utf-8")
    except FileNotFoundError:
        return set()
    return {int(a or b) for a, b in _PIDS.findall(text)}


def wait_idle(store: Store, timeout: float = 90, ended: tuple[str, ...] = ()) -> bool:
    """Wait until the SessionEnd hooks of ``ended`` have logged (``claude -p`` may exit before
    its SessionEnd hook finishes), no worker of this store is alive and nothing is marked
    running."""
    deadline = time.monotonic() + timeout
    quiet_since: float | None = None
    while time.monotonic() < deadline:
        running = store.state / "running"
        log = log_text(store)
        busy = (
            any(f"SessionEnd {sid}" not in log for sid in ended)
            or any(_alive(p) for p in worker_pids(store))
            or (running.is_dir() and any(running.iterdir()))
        )
        if busy:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 0.5:
            return True
        time.sleep(0.1)
    return False


def done_record(store: Store, session_id: str) -> dict[str, Any] | None:
    path = store.state / "done" / f"{session_id}.json"
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def wait_distilled(store: Store, session_id: str, timeout: float = 90) -> Distilled:
    """Wait for the session's done record and idle workers; fail with the store's log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and done_record(store, session_id) is None:
        time.sleep(0.1)
    record = done_record(store, session_id)
    assert record is not None, f"{session_id} not distilled in {timeout} s\n{log_text(store)}"
    assert wait_idle(store, max(5.0, deadline - time.monotonic()), (session_id,)), log_text(store)
    record = done_record(store, session_id)
    assert record is not None
    return Distilled(
        Path(record["raw_path"]), Path(record["summary_path"]), Path(record["wiki_path"]), record
    )


def log_text(store: Store) -> str:
    try:
        return "vaultkit.log:\n" + store.log.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "(no vaultkit.log)"


def frontmatter(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), f"{path} has no frontmatter"
    head = text[4:].split("\n---\n", 1)[0]
    value = yaml.safe_load(head)
    assert isinstance(value, dict)
    return value


def notes(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.md") if p.name != "INDEX.md")


def notes_of(folder: Path, session_id: str) -> list[Path]:
    return [p for p in notes(folder) if frontmatter(p).get("session_id") == session_id]


def injected_texts(sandbox: Sandbox, project: Path, session_id: str) -> list[str]:
    """What SessionStart hooks injected into a session, read from its real transcript."""
    transcript = sandbox.transcripts_dir(project) / f"{session_id}.jsonl"
    out: list[str] = []
    for row in read_jsonl(transcript):
        attachment = row.get("attachment") or {}
        if row.get("type") == "attachment" and attachment.get("type") == "hook_additional_context":
            out.append("\n".join(str(c) for c in attachment.get("content", [])))
    return out


def requests_for(records: list[Recorded], session_id: str) -> list[Recorded]:
    """The agent's requests of one session (Claude Code sends the id in a header)."""
    return [r for r in records if r.headers.get("x-claude-code-session-id") == session_id]


def index_entries(store: Store) -> list[str]:
    text = store.index.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("- [[")]


def observe(scenario: str, **facts: object) -> None:
    """Print what a scenario observed (shown with ``pytest -s``; used for the closing note)."""
    print(f"OBSERVED {scenario}: {json.dumps(facts, default=str)}")
