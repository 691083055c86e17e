"""Capture what the real Codex CLI and Gemini CLI print as distillation backends (fixtures).

Runs the command lines vaultkit's ``codex`` and ``gemini`` backends build
(:func:`vaultkit.agents.codex.distill.argv`,
:func:`vaultkit.agents.gemini.distill.argv`)
with the prompt on stdin against the API mocks, once answering and once failing, and saves
stdout verbatim (the mock's address as ``{MOCK}``) under ``tests/fixtures/codex/exec-json/`` and
``tests/fixtures/gemini/output-json/`` (a failed Gemini run prints nothing on stdout: the JSON
object that ends its stderr is saved, without the stack trace before it, which names this
machine's paths). Run from the repository root::

    (cd tests && ../.venv/bin/python -m e2e.capture_backend_fixtures)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from vaultkit.agents.codex import distill as codex_distill
from vaultkit.agents.gemini import distill as gemini_distill
from vaultkit.agents.gemini.distill import error_object

from .agents_harness import CODEX_KEY, GEMINI_KEY, CodexSandbox, GeminiSandbox, agent_binary
from .harness import REPO
from .mock_gemini import HttpError as GeminiError
from .mock_gemini import MockGemini
from .mock_openai import HttpError, MockOpenAI

FIXTURES = REPO / "tests" / "fixtures"
PROMPT = "Distil this session into @@@TITLE@@@, @@@HANDOFF@@@ and @@@WIKI@@@ parts."
GEMINI_MODEL = "gemini-2.5-flash"  # an explicit model: no routing classifier call


def _save(text: str, mock_url: str, target: Path) -> None:
    if CODEX_KEY in text or GEMINI_KEY in text:
        raise RuntimeError("a dummy API key reached a fixture; refusing to save it")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text.replace(mock_url, "{MOCK}"), encoding="utf-8")
    print(f"wrote {target.relative_to(REPO)}")


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        argv, input=PROMPT, cwd=cwd, env=env, capture_output=True, text=True, timeout=180
    )
    return done.stdout or error_object(done.stderr)


def capture_codex(root: Path) -> None:
    binary = str(agent_binary("codex"))
    argv = codex_distill.argv(binary, "")
    for name, error in (("success", None), ("error-401", HttpError(401, "Incorrect API key"))):
        with MockOpenAI() as mock:
            if error is not None:
                mock.replies.set_default("worker", error)
            box = CodexSandbox(root / f"codex-{name}", Path(binary), mock.url)
            out = _run(argv, box.env(), box.project())
            _save(out, mock.url, FIXTURES / "codex" / "exec-json" / f"{name}.jsonl")


def capture_gemini(root: Path) -> None:
    binary = str(agent_binary("gemini"))
    argv = gemini_distill.argv(binary, GEMINI_MODEL)
    failure = GeminiError(400, "API key not valid. Please pass a valid API key.")
    for name, error in (("success", None), ("error-400", failure)):
        with MockGemini() as mock:
            if error is not None:
                mock.replies.set_default("worker", error)
            box = GeminiSandbox(root / f"gemini-{name}", Path(binary), mock.url)
            private = root / f"gemini-{name}" / "private"
            (private / ".gemini").mkdir(parents=True)
            settings = json.dumps(gemini_distill.child_settings())
            (private / ".gemini" / "settings.json").write_text(settings, encoding="utf-8")
            scratch = root / f"gemini-{name}" / "tmp"  # its error report lands in $TMPDIR
            scratch.mkdir()
            env = box.env({"GEMINI_CLI_HOME": str(private), "TMPDIR": str(scratch)})
            out = _run(argv, env, box.project())
            _save(out, mock.url, FIXTURES / "gemini" / "output-json" / f"{name}.json")


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="vaultkit-capture-backends-"))
    try:
        capture_codex(root)
        capture_gemini(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
