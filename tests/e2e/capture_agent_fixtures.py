"""Capture real Codex CLI and Gemini CLI hook payloads and transcripts as test fixtures.

Run from the repository root (it installs the pinned CLIs, see ``install_agents.sh``)::

    (cd tests && ../.venv/bin/python -m e2e.capture_agent_fixtures)

Sessions run in a fixed sandbox folder (``/tmp/vaultkit-e2e-capture-agents``); in what is saved
the project folder becomes ``{CWD}`` and the sandbox HOME becomes ``{HOME}``, and no dummy key may
remain. Payloads go to ``tests/fixtures/hooks/<agent>/``, transcripts to
``tests/fixtures/<agent>/``.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

from .agents_harness import (
    CODEX_KEY,
    GEMINI_KEY,
    CodexSandbox,
    GeminiSandbox,
    agent_binary,
    hook_groups,
    recorder_command,
)
from .harness import REPO
from .mock_gemini import FunctionCall as GeminiCall
from .mock_gemini import MockGemini
from .mock_gemini import Text as GeminiText
from .mock_openai import FunctionCall, MockOpenAI, Text

CAPTURE_ROOT = Path("/tmp/vaultkit-e2e-capture-agents")
FIXTURES = REPO / "tests" / "fixtures"
INJECTION = (
    "Handoff from the previous session (2026-11-29): the parser now streams transcripts. "
    "Related note: [[Streaming transcripts]]."
)
_NAMES = {"SessionStart": "session-start", "Stop": "stop", "SessionEnd": "session-end"}


def scrub(text: str, cwd: Path, home: Path) -> str:
    """Sandbox paths as placeholders; refuses text that still holds a dummy key."""
    for secret in (CODEX_KEY, GEMINI_KEY):
        if secret in text:
            raise RuntimeError("a dummy API key reached a fixture; refusing to save it")
    return text.replace(str(cwd), "{CWD}").replace(str(home), "{HOME}")


def _save_payloads(payloads: list[dict[str, object]], out: Path, cwd: Path, home: Path) -> None:
    """One file per distinct event/source/reason, first occurrence wins."""
    out.mkdir(parents=True, exist_ok=True)
    for payload in payloads:
        event = str(payload.get("hook_event_name"))
        detail = payload.get("source") or payload.get("reason")
        name = _NAMES.get(event, event.lower()) + (f"-{detail}" if detail else "")
        target = out / f"{name}.json"
        if not target.exists():
            text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
            target.write_text(scrub(text, cwd, home), encoding="utf-8")


def _fresh(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def capture_codex() -> None:
    root = _fresh(CAPTURE_ROOT / "codex")
    hooks_out = _fresh(FIXTURES / "hooks" / "codex")
    out = _fresh(FIXTURES / "codex")
    with MockOpenAI() as mock:
        box = CodexSandbox(root, agent_binary("codex"), mock.url)
        box.write_hooks(hook_groups(recorder_command(), ("SessionStart", "Stop", "SessionEnd"), 10))
        project = box.project()
        mock.replies.queue(
            "agent",
            FunctionCall("exec_command", {"cmd": "echo hi > out.txt"}),
            Text("I wrote hi into out.txt."),
        )
        flags = ("--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox")
        env = {"E2E_INJECT": INJECTION}
        first = box.exec("Write hi into out.txt", project, *flags, extra_env=env)
        if first.returncode != 0:
            raise RuntimeError(f"codex exec failed: {first.stderr}")
        session = str(box.payloads()[0]["session_id"])
        again = box.exec("그리고 요약해 줘", project, "resume", session, *flags[:1], extra_env=env)
        if again.returncode != 0:
            raise RuntimeError(f"codex exec resume failed: {again.stderr}")
        payloads = box.payloads()
        if any(mock.of_kind("outside")):
            raise RuntimeError(f"codex tried to go outside: {mock.of_kind('outside')}")
    _save_payloads(payloads, hooks_out, project, box.home)
    transcript = Path(str(payloads[0]["transcript_path"]))
    text = transcript.read_text(encoding="utf-8")
    (out / "rollout.jsonl").write_text(scrub(text, project, box.home), encoding="utf-8")


def _next_minute() -> None:
    """Sleep into the next wall-clock minute (Gemini names chat files by the minute)."""
    time.sleep(61 - time.time() % 60)


def capture_gemini() -> None:
    root = _fresh(CAPTURE_ROOT / "gemini")
    hooks_out = _fresh(FIXTURES / "hooks" / "gemini")
    out = _fresh(FIXTURES / "gemini")
    with MockGemini() as mock:
        box = GeminiSandbox(root, agent_binary("gemini"), mock.url)
        box.write_settings(hook_groups(recorder_command(), ("SessionStart", "SessionEnd"), 10_000))
        project = box.project()
        mock.replies.queue(
            "agent",
            GeminiCall("run_shell_command", {"command": "echo hi > out.txt"}),
            GeminiText("I wrote hi into out.txt."),
        )
        env = {"E2E_INJECT": INJECTION}
        first = box.prompt("Write hi into out.txt", project, "--yolo", extra_env=env)
        if first.returncode != 0:
            raise RuntimeError(f"gemini -p failed: {first.stderr}")
        _next_minute()  # so that the resumed run's own new file does not share the old name
        again = box.prompt("그리고 요약해 줘", project, "--resume", "latest", extra_env=env)
        if again.returncode != 0:
            raise RuntimeError(f"gemini --resume failed: {again.stderr}")
        payloads = box.payloads()
        if any(mock.of_kind("outside")):
            raise RuntimeError(f"gemini tried to go outside: {mock.of_kind('outside')}")
    _save_payloads(payloads, hooks_out, project, box.home)
    transcript = Path(str(payloads[0]["transcript_path"]))
    text = transcript.read_text(encoding="utf-8")
    (out / "chat.jsonl").write_text(scrub(text, project, box.home), encoding="utf-8")
    # On --resume, SessionStart names a new file (session-<minute>-<id8>.jsonl) holding only a
    # header and the context set-up, while the resumed turns are appended to the original file
    # (the one SessionEnd names). Resumed within the same minute, both names are the same file.
    resumed = next(p for p in payloads if p.get("source") == "resume")
    stub = Path(str(resumed["transcript_path"])).read_text(encoding="utf-8")
    (out / "resume-stub.jsonl").write_text(scrub(stub, project, box.home), encoding="utf-8")


def main() -> int:
    wanted = sys.argv[1:] or ["codex", "gemini"]
    if "codex" in wanted:
        capture_codex()
    if "gemini" in wanted:
        capture_gemini()
    return 0


if __name__ == "__main__":
    sys.exit(main())
