"""``vaultkit search --all-projects``: every store this user has, each hit naming its store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _store(folder: Path, name: str, text: str) -> Path:
    wiki = folder / "sessions" / "wiki"
    wiki.mkdir(parents=True)
    (wiki / f"{name}.md").write_text(f"---\ntitle: {name}\n---\n# {name}\n\n{text}\n", "utf-8")
    return folder / "sessions"


def _vk(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VAULTKIT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "vaultkit", "search", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_all_projects_searches_recorded_and_kept_stores(tmp_path: Path) -> None:
    home = tmp_path / "data"
    here = tmp_path / "app"
    _store(here, "Retry policy", "exponential backoff for the uploader")
    (here / ".git").mkdir()
    other = _store(tmp_path / "billing", "Backoff in billing", "exponential backoff on 429")
    _store(home / "projects" / "loose-0123456789", "Loose", "nothing about it")
    home.mkdir(exist_ok=True)
    (home / "projects.txt").write_text(f"{other}\n{tmp_path / 'gone' / 'sessions'}\n", "utf-8")
    alone = _vk(here, home, "backoff", "--format", "json")
    assert alone.returncode == 0
    assert [r["path"] for r in json.loads(alone.stdout)["results"]] == ["wiki/Retry policy.md"]
    every = _vk(here, home, "backoff", "--all-projects", "--format", "json")
    assert every.returncode == 0, every.stderr
    data = json.loads(every.stdout)
    assert data["stores"] == 3  # here, billing, the data folder's; the gone one is dropped
    assert {(Path(r["project"]).name, r["path"]) for r in data["results"]} == {
        ("app", "wiki/Retry policy.md"),
        ("billing", "wiki/Backoff in billing.md"),
    }
    text = _vk(here, home, "backoff", "--all-projects")
    assert "wiki/Backoff in billing.md:" in text.stdout and "billing/sessions/" in text.stdout
    both = _vk(here, home, "backoff", str(other), "--all-projects")
    assert both.returncode != 0 and "--all-projects searches every store" in both.stderr
    assert "Traceback" not in both.stderr
