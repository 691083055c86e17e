"""``vaultkit doctor`` per agent: Codex hook and project trust, Gemini folder trust (real files)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.agents import hookmerge
from vaultkit.agents.codex import trust as codex_trust
from vaultkit.agents.gemini import trust as gemini_trust

BARE_PATH = f"/usr/bin{os.pathsep}/bin"


def vk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PATH": BARE_PATH},
        timeout=60,
    )


def line(out: str, name: str) -> str:
    found = [ln for ln in out.splitlines() if ln[6:].startswith(f"{name}:")]
    assert len(found) == 1, out
    return found[0]


def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / ".git").mkdir(parents=True)
    return folder


@pytest.mark.slow
def test_codex_hooks_installed_but_untrusted_are_a_warning_until_trusted(tmp_path: Path) -> None:
    folder = project(tmp_path)
    assert vk("hooks", "install", "--agent", "codex", cwd=folder).returncode == 0
    hooks = Path(os.environ["HOME"]) / ".codex" / "hooks.json"
    done = vk("doctor", cwd=folder)
    assert done.returncode == 0, done.stdout  # warnings only: Claude's hooks are not required
    assert line(done.stdout, "hooks").startswith("ok    hooks: none for Claude Code")
    warn = line(done.stdout, "codex trust (user)")
    assert warn.startswith(f"warn  codex trust (user): vaultkit's hooks in {hooks} are installed")
    assert "(SessionStart, SessionEnd have no trust record" in warn
    assert (
        "(later: type /hooks), pick each vaultkit event (SessionStart, SessionEnd)" in done.stdout
    )
    assert line(done.stdout, "codex CLI").startswith("warn  codex CLI: 'codex' is not on PATH")
    config = hooks.with_name("config.toml")
    start, end = (record(hooks, event) for event in ("SessionStart", "SessionEnd"))
    config.write_text(start, "utf-8")
    half = line(vk("doctor", cwd=folder).stdout, "codex trust (user)")
    assert "(SessionEnd have no trust record" in half
    config.write_text(start + end.replace('= "sha256:', '= "sha256:0'), "utf-8")
    stale = line(vk("doctor", cwd=folder).stdout, "codex trust (user)")
    assert stale.startswith(f"warn  codex trust (user): vaultkit's hooks in {hooks} changed since")
    assert "(SessionEnd: the record in " in stale
    config.write_text(start + end, "utf-8")
    assert line(vk("doctor", cwd=folder).stdout, "codex trust (user)") == (
        f"ok    codex trust (user): trusted in {config}"
    )


def record(hooks: Path, event: str) -> str:
    """The ``[hooks.state]`` record Codex writes when the user trusts vaultkit's hook for
    ``event`` in ``hooks`` (the hash as :func:`codex_trust.trust_hash` computes it)."""
    data = json.loads(hooks.read_text(encoding="utf-8"))
    group, hook = next(iter(hookmerge.positions(data)[event]))
    entry = data["hooks"][event][group]
    digest = codex_trust.trust_hash(event, entry, entry["hooks"][hook])
    key = codex_trust.trust_key(str(hooks), event, group, hook)
    return f'[hooks.state."{key}"]\ntrusted_hash = "{digest}"\n'


@pytest.mark.slow
def test_doctor_json_has_every_check_and_the_text_exit_code(tmp_path: Path) -> None:
    folder = project(tmp_path)
    assert vk("hooks", "install", "--agent", "codex", cwd=folder).returncode == 0
    text, done = vk("doctor", cwd=folder), vk("doctor", "--format", "json", cwd=folder)
    assert done.returncode == text.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    checks = report["checks"]
    rendered = [ln for ln in text.stdout.splitlines() if ln[:6].rstrip() in ("ok", "warn", "fail")]
    assert [f"{c['status']:<5} {c['name']}: {c['detail']}" for c in checks] == rendered
    assert all(set(c) == {"name", "status", "detail", "fix"} for c in checks)
    warn = next(c for c in checks if c["name"] == "codex trust (user)")
    assert warn["status"] == "warn" and "press Enter, then t" in warn["fix"]
    counts = {s: sum(c["status"] == s for c in checks) for s in ("fail", "warn", "ok")}
    assert (report["failed"], report["warnings"], report["ok"]) == tuple(counts.values())
    (folder / "sessions").mkdir()
    (folder / "sessions" / "vaultkit.toml").write_text("[distill]\nnope = 1\n", "utf-8")
    failed = vk("doctor", "--format", "json", cwd=folder)
    assert failed.returncode == vk("doctor", cwd=folder).returncode == 1
    assert json.loads(failed.stdout)["checks"][0]["status"] == "fail"


@pytest.mark.slow
def test_codex_project_hooks_need_a_trusted_project(tmp_path: Path) -> None:
    folder = project(tmp_path)
    done = vk("hooks", "install", "--agent", "codex", "--scope", "project", cwd=folder)
    assert done.returncode == 0, done.stderr
    out = vk("doctor", cwd=folder).stdout
    assert line(out, "codex project trust").startswith(
        f"warn  codex project trust: {folder} is not a trusted project"
    )
    config = Path(os.environ["HOME"]) / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(f'[projects."{folder}"]\ntrust_level = "trusted"\n', encoding="utf-8")
    assert line(vk("doctor", cwd=folder).stdout, "codex project trust").startswith(
        f"ok    codex project trust: {folder} is trusted"
    )


@pytest.mark.slow
def test_gemini_hooks_in_an_untrusted_folder_are_a_warning(tmp_path: Path) -> None:
    folder = project(tmp_path)
    assert vk("hooks", "install", "--agent", "gemini", cwd=folder).returncode == 0
    done = vk("doctor", cwd=folder)
    assert done.returncode == 0, done.stdout
    said = line(done.stdout, "gemini folder trust")
    assert said.startswith(
        f"warn  gemini folder trust: Gemini CLI runs no hooks in {folder}: the folder is not"
    )
    assert "`gemini -p` there exits 55 and suggests --skip-trust, which runs the user's" in said
    assert "but never the project's" in said
    rules = Path(os.environ["HOME"]) / ".gemini" / "trustedFolders.json"
    rules.write_text(json.dumps({str(folder): "TRUST_FOLDER"}), encoding="utf-8")
    assert line(vk("doctor", cwd=folder).stdout, "gemini folder trust").startswith(
        f"ok    gemini folder trust: {folder} is trusted (TRUST_FOLDER in {rules})"
    )


def test_gemini_project_hooks_say_that_skip_trust_leaves_them_out(tmp_path: Path) -> None:
    """The --skip-trust that headless Gemini suggests in an untrusted folder runs without the
    project's settings.json: doctor names the file whose hooks that skips."""
    folder = project(tmp_path)
    done = vk("hooks", "install", "--agent", "gemini", "--scope", "project", cwd=folder)
    assert done.returncode == 0, done.stderr
    said = line(vk("doctor", cwd=folder).stdout, "gemini folder trust")
    assert said.startswith("warn  gemini folder trust:")
    hooks = folder / ".gemini" / "settings.json"
    assert f"runs without the project's hooks: vaultkit's in {hooks} would not run" in said


def test_absent_agents_are_one_ok_line_and_no_hooks_at_all_still_fail(tmp_path: Path) -> None:
    done = vk("doctor", cwd=project(tmp_path))
    assert "ok    agents: codex, gemini: not on this machine" in done.stdout
    assert "fail  hooks: not installed: SessionStart, SessionEnd" in done.stdout
    assert done.returncode == 1


@pytest.mark.parametrize(
    ("rules", "trusted"),
    [
        ({"{p}": "TRUST_FOLDER"}, True),
        ({"{p}/child": "TRUST_PARENT"}, True),  # the parent of the rule's path
        ({"{up}": "TRUST_FOLDER", "{p}": "DO_NOT_TRUST"}, False),  # the longest rule wins
        ({"{up}": "DO_NOT_TRUST", "{p}": "TRUST_FOLDER"}, True),
        ({"{p}-other": "TRUST_FOLDER"}, None),  # a sibling with a common prefix is not a parent
        ({}, None),
    ],
)
def test_gemini_trusted_folders_rules(
    tmp_path: Path, rules: dict[str, str], trusted: bool | None
) -> None:
    folder = project(tmp_path)
    path = tmp_path / "trustedFolders.json"
    filled = {k.format(p=folder, up=tmp_path): v for k, v in rules.items()}
    path.write_text("// comments are allowed\n" + json.dumps(filled), encoding="utf-8")
    env = {"GEMINI_CLI_TRUSTED_FOLDERS_PATH": str(path), "HOME": str(tmp_path)}
    assert gemini_trust.folder_trust(folder, {}, env).trusted is trusted


def test_gemini_environment_and_settings_switches(tmp_path: Path) -> None:
    folder = project(tmp_path)
    env = {"HOME": str(tmp_path)}
    off = {"security": {"folderTrust": {"enabled": False}}}
    assert gemini_trust.folder_trust(folder, off, env).trusted is True
    on = {**env, "GEMINI_CLI_TRUST_WORKSPACE": "true"}
    assert gemini_trust.folder_trust(folder, {}, on).why == "GEMINI_CLI_TRUST_WORKSPACE=true"
    restricted = {**on, "GEMINI_RESTRICTED_MODE": "true"}
    assert gemini_trust.folder_trust(folder, {}, restricted).trusted is False
