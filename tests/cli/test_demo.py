"""``vaultkit demo``: a recorded session through the real hooks and worker, offline, in a
temporary project that is removed afterwards, with nothing written anywhere else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vaultkit.cli import demo_run
from vaultkit.errors import VaultkitError


def demo(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir(exist_ok=True)
    temp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "VAULTKIT_"))}
    env.update(HOME=str(home), TMPDIR=str(temp))
    done = subprocess.run(
        [sys.executable, "-m", "vaultkit", "demo", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    return done, home, temp


@pytest.mark.slow  # about 3.5 s: the runner's 1 s grace, the settle window, four processes
def test_the_demo_shows_note_index_line_and_next_session_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    done, home, temp = demo(tmp_path, "--format", "json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["kept"] is False and shown["note"].startswith("sessions/wiki/")
    stem = Path(shown["note"]).stem
    assert f"session_id: {demo_run.SESSION}" in shown["note_text"]
    assert "git_branch: feat/fx-cache" in shown["note_text"]
    assert shown["index_line"].startswith(f"- [[{stem}]]")
    start = shown["session_start"]
    assert start.startswith("## vaultkit: memory of earlier sessions in this project")
    assert "Reports mix EUR and KRW. Cache daily exchange rates so reports work offline." in start
    assert shown["index_line"][2:] in start  # the next session is given the same INDEX line
    assert 0 < shown["distilled_seconds"] <= shown["seconds"]
    assert list(temp.iterdir()) == []  # the temporary project is gone
    assert list(home.iterdir()) == []  # and the user's home was never written
    assert sorted(tmp_path.iterdir()) == [home, temp]  # nor anything beside them


@pytest.mark.slow
def test_keep_keeps_the_project_and_the_text_names_it(tmp_path: Path) -> None:
    done, home, temp = demo(tmp_path, "--keep")
    assert done.returncode == 0, done.stderr
    [root] = temp.iterdir()
    project = root / "ledgerline"
    assert f"It is kept in {project}" in done.stdout
    assert "== The wiki note it wrote: sessions/wiki/" in done.stdout
    assert "== What the next session's SessionStart hook gives the agent" in done.stdout
    assert (project / "sessions" / "wiki" / "INDEX.md").is_file()
    assert len(list((project / "sessions" / "raw").glob("*.jsonl"))) == 1
    assert list(home.iterdir()) == []


def test_a_missing_recording_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo_run, "RECORDED", "no-such-session.jsonl")
    with pytest.raises(VaultkitError, match="the demo's recorded session is missing"):
        demo_run.recorded_session()
