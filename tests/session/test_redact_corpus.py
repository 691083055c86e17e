"""Every credential form of the corpus is redacted wherever it appears: in prompts, commands,
tool output and the LLM's own output, and before a title becomes a file name or an INDEX line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from worker_support import hook_env, make_project

from benchmarks.secretcorpus import Form, load
from vaultkit.base.store import Store
from vaultkit.session.notes.write import NoteMeta, write_session_notes
from vaultkit.session.transcripts.redact import redact
from vaultkit.vault.indexer import regenerate_index

FORMS = load()
SID = "7a1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d"


def leaked(form: Form, text: str) -> bool:
    """The secret, or any 8-character piece of it, is still in ``text``."""
    secret = form.secret.replace("\n", "")
    flat = text.replace("\n", "")
    if len(secret) < 8:
        return secret in flat
    return any(secret[i : i + 8] in flat for i in range(len(secret) - 7))


def test_the_corpus_covers_the_forms_the_issue_names() -> None:
    names = {form.name for form in FORMS}
    for needed in (
        "url-https", "url-postgres", "pgpassword", "mysql-p", "gitlab-pat", "npm-token",
        "huggingface", "google-api", "sendgrid", "auth-basic", "said-password",
    ):  # fmt: skip
        assert needed in names
    assert len(FORMS) >= 100


@pytest.mark.parametrize("form", FORMS, ids=[form.name for form in FORMS])
def test_each_form_is_redacted_and_its_context_kept(form: Form) -> None:
    out = redact(form.text)
    assert not leaked(form, out), out
    assert "[REDACTED:" in out
    # What precedes the secret's word stays (a token's own prefix goes with it).
    before = re.sub(r"[^\s=\"'(,]*$", "", form.text.split(form.secret)[0])
    assert out.startswith(before.rstrip("'\"`")), out
    assert redact(out) == out  # idempotent: injection redacts again


@pytest.mark.parametrize("form", FORMS, ids=[form.name for form in FORMS])
def test_a_title_is_redacted_before_it_names_a_file_or_an_index_line(
    tmp_path: Path, form: Form
) -> None:
    store = Store(tmp_path / "sessions")
    store.summary.mkdir(parents=True)
    store.wiki.mkdir(parents=True)
    meta = NoteMeta(SID, "proj", datetime(2026, 12, 1, 9, 30), "raw/x.jsonl", "main")
    summary, wiki = write_session_notes(
        store, meta, f"Deploy with {form.text}", f"Handoff: {form.text}", f"Wiki: {form.text}"
    )
    regenerate_index(store.wiki)
    for path in (summary, wiki, store.wiki / "INDEX.md"):
        assert not leaked(form, path.name), path.name
        assert not leaked(form, path.read_text(encoding="utf-8")), path


ECHO_LLM = """\
import json, sys
prompt = sys.stdin.read()
open(sys.argv[1], "w", encoding="utf-8").write(prompt)
forms = json.load(open(sys.argv[2], encoding="utf-8"))
print("@@@TITLE@@@")
print("Rotate " + " ".join(f.splitlines()[0] for f in forms[:3]))
print("@@@HANDOFF@@@")
for n, form in enumerate(forms[0::2]):
    print(f"- next step {n}: rotate the credential {form} before friday")
print("@@@WIKI@@@")
for n, form in enumerate(forms[1::2]):
    print(f"Finding {n} about the deploy, as we learned: {form} was pasted in chat.")
"""


def _session(forms: list[Form]) -> list[dict[str, Any]]:
    """A Claude Code transcript carrying each form as a prompt, a command, tool output and the
    assistant's own text."""
    base = {"sessionId": SID, "cwd": "/p", "gitBranch": "main"}
    lines: list[dict[str, Any]] = []
    for n, form in enumerate(forms):
        tool = {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": form.text}}
        result = {"type": "tool_result", "tool_use_id": f"t{n}", "content": f"ok\n{form.text}"}
        lines += [
            {**base, "type": "user", "message": {"role": "user", "content": f"Use {form.text}"}},
            {**base, "type": "assistant", "message": {"id": f"a{n}", "content": [tool]}},
            {**base, "type": "user", "message": {"role": "user", "content": [result]}},
            {
                **base,
                "type": "assistant",
                "message": {"id": f"b{n}", "content": [{"type": "text", "text": form.text}]},
            },
        ]
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("redact_raw", [False, True])
def test_no_form_survives_the_real_pipeline(tmp_path: Path, redact_raw: bool) -> None:
    project = make_project(tmp_path / "proj")
    store = Store(project / "sessions")
    store.root.mkdir()
    script, seen, forms_file = tmp_path / "llm.py", tmp_path / "seen.txt", tmp_path / "forms.json"
    script.write_text(ECHO_LLM, encoding="utf-8")
    forms_file.write_text(json.dumps([f.text for f in FORMS]), encoding="utf-8")
    command = json.dumps([sys.executable, str(script), str(seen), str(forms_file)])
    store.config_file.write_text(
        f'[distill]\nbackend = "command"\ncommand = {command}\n'
        f"[privacy]\nredact_raw = {str(redact_raw).lower()}\n",
        encoding="utf-8",
    )
    transcript = tmp_path / "claude" / f"{SID}.jsonl"
    transcript.parent.mkdir()
    lines = _session(FORMS)
    transcript.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "ingest", str(transcript), "--settle", "0.05", "-q"],
        cwd=project, env=hook_env(), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = [
        p for part in ("summary", "wiki", "transcripts") for p in (store.root / part).glob("*.md")
    ]
    assert len(written) >= 4  # summary, wiki, INDEX.md, the readable transcript
    outputs = {"LLM input": seen.read_text(encoding="utf-8")}
    outputs.update({p.name: p.name + "\n" + p.read_text(encoding="utf-8") for p in written})
    assert "Rotate" in next(p.name for p in store.summary.glob("*.md"))
    for form in FORMS:
        for where, text in outputs.items():
            assert not leaked(form, text), f"{form.name} leaked into {where}"
