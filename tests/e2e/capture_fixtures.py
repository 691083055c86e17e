"""Capture real Claude Code hook payloads and transcripts into ``tests/fixtures/claude/``.

Run from the repository root (it needs the pinned CLI, see ``install_claude.sh``)::

    (cd tests && ../.venv/bin/python -m e2e.capture_fixtures)

Sessions run in a fixed sandbox folder (``/tmp/vaultkit-e2e-capture``) so that paths inside
the fixtures stay the same from one capture to the next. The mock answers are fixed too; only
ids, timestamps and durations change.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .harness import (
    INSTALL_SCRIPT,
    REPO,
    Sandbox,
    Tmux,
    hooks_settings,
    seed_interactive_state,
    wait_until,
    write_project_settings,
)
from .mockapi import MockAPI, Text, ToolUse

FIXTURES = REPO / "tests" / "fixtures" / "claude"
CAPTURE_ROOT = Path("/tmp/vaultkit-e2e-capture")
HOOK = Path(__file__).with_name("dump_hook.py")
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")
INJECTION = (
    "Handoff from the previous session (2026-11-29): the parser now streams transcripts. "
    "Related note: [[Streaming transcripts]]."
)
_NAMES = {
    "SessionStart": "session-start",
    "UserPromptSubmit": "user-prompt-submit",
    "Stop": "stop",
    "SessionEnd": "session-end",
}


@dataclass(frozen=True, slots=True)
class Captured:
    """What one capture wrote: hook payload files and transcript files."""

    hooks: tuple[Path, ...]
    transcripts: tuple[Path, ...]


def _run(sandbox: Sandbox, project: Path, dumps: Path, prompt: str, *args: str) -> None:
    env = {"E2E_DUMP_DIR": str(dumps), "E2E_INJECT": ""}
    if "--inject" in args:
        args = tuple(a for a in args if a != "--inject")
        env["E2E_INJECT"] = INJECTION
    run = sandbox.run(prompt, project, *args, extra_env=env)
    if run.returncode != 0:
        raise RuntimeError(f"claude failed ({run.returncode}): {run.stdout}{run.stderr}")


def _payload_name(payload: dict[str, object]) -> str:
    event = str(payload.get("hook_event_name"))
    detail = payload.get("source") or payload.get("reason")
    base = _NAMES.get(event, event.lower())
    return f"{base}-{detail}.json" if detail else f"{base}.json"


def _save_payloads(dumps: Path, out: Path, prefix: str = "") -> list[Path]:
    """One file per distinct event/source/reason, first occurrence wins."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for path in sorted(dumps.glob("*.json")):
        payload = json.loads(path.read_text(encoding="utf-8"))
        target = out / (prefix + _payload_name(payload))
        if target in written:
            continue
        target.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", "utf-8")
        written.append(target)
    return written


def _session_id(dumps: Path, index: int) -> str:
    starts = [
        json.loads(p.read_text(encoding="utf-8")) for p in sorted(dumps.glob("*-SessionStart.json"))
    ]
    return str(starts[index]["session_id"])


def capture(out: Path, root: Path, claude: Path) -> Captured:
    """Run the fixture sessions in ``root`` and write their payloads/transcripts to ``out``."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    with MockAPI() as mock:
        sandbox = Sandbox(root, claude, mock)
        project = sandbox.project("project")
        dumps = root / "dumps"
        write_project_settings(project, hooks_settings(f"{sys.executable} {HOOK}", EVENTS))
        mock.queue(
            "agent",
            ToolUse(
                "Bash",
                {"command": "echo hi > out.txt", "description": "Write hi into out.txt"},
                preface="I'll write the file with Bash.",
            ),
            Text("Done: `out.txt` now contains `hi`."),
            Text("The previous handoff says the parser now streams transcripts."),
            Text("빌드는 `make build`로 합니다. 테스트는 `make test`입니다."),
        )
        _run(sandbox, project, dumps, "Write hi into out.txt", "--allowedTools", "Bash")
        tool_sid = _session_id(dumps, 0)
        _run(sandbox, project, dumps, "What did the last session do?", "--inject")
        inject_sid = _session_id(dumps, 1)
        folder = sandbox.transcripts_dir(project)
        transcripts = out / "transcripts"
        transcripts.mkdir(parents=True, exist_ok=True)
        copies = [
            _copy(folder / f"{tool_sid}.jsonl", transcripts / "tool-use.jsonl"),
            _copy(folder / f"{inject_sid}.jsonl", transcripts / "injection.jsonl"),
        ]
        _run(sandbox, project, dumps, "이 프로젝트는 어떻게 빌드해?", "--resume", inject_sid)
        copies.append(_copy(folder / f"{inject_sid}.jsonl", transcripts / "resumed.jsonl"))
        interactive = root / "dumps-interactive"
        interactive_clear_and_exit(sandbox, project, interactive)
        hooks = _save_payloads(dumps, out / "hooks")
        hooks += _save_payloads(interactive, out / "hooks", prefix="interactive-")
    return Captured(tuple(hooks), tuple(copies))


def _events(dumps: Path) -> list[str]:
    return [p.stem.split("-", 1)[1] for p in sorted(dumps.glob("*.json"))]


def interactive_clear_and_exit(sandbox: Sandbox, project: Path, dumps: Path) -> list[str]:
    """Drive the interactive UI under tmux: a prompt, ``/clear``, a prompt, ``/exit``.

    Returns the hook events seen, in order. Raises ``TimeoutError`` naming the step that hung,
    with the screen's text."""
    seed_interactive_state(sandbox, project)
    ui = Tmux(sandbox, project, {"E2E_DUMP_DIR": str(dumps)})
    ui.start()
    try:
        steps = [
            ("startup", None, lambda: _events(dumps)[-1:] == ["SessionStart"]),
            ("first prompt", "hello from tmux", lambda: _events(dumps)[-1:] == ["Stop"]),
            ("/clear", "/clear", lambda: _events(dumps)[-2:] == ["SessionEnd", "SessionStart"]),
            ("second prompt", "after the clear", lambda: _events(dumps)[-1:] == ["Stop"]),
            ("/exit", "/exit", lambda: not ui.alive() and _events(dumps)[-1:] == ["SessionEnd"]),
        ]
        for name, line, done in steps:
            if line is not None:
                wait_until(lambda: "❯" in ui.screen(), 15)
                ui.send_line(line)
            if not wait_until(done, 30, 0.2):
                raise TimeoutError(f"interactive step {name!r} hung; screen:\n{ui.screen()}")
    finally:
        ui.stop()
    return _events(dumps)


def _copy(source: Path, target: Path) -> Path:
    """Copy a captured file with this checkout's absolute path replaced by ``/repo``."""
    text = source.read_text(encoding="utf-8").replace(str(REPO), "/repo")
    target.write_text(text, encoding="utf-8")
    return target


def main() -> int:
    done = subprocess.run(["bash", str(INSTALL_SCRIPT)], capture_output=True, text=True, check=True)
    result = capture(FIXTURES, CAPTURE_ROOT, Path(done.stdout.strip().splitlines()[-1]))
    for path in (*result.hooks, *result.transcripts):
        print(path.relative_to(REPO))
    return 0


if __name__ == "__main__":
    sys.exit(main())
