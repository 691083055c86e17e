"""A read-only store: ingest, forget and search say what is wrong and what to run; SessionStart
shows the status line; once writable again, backfill archives what ended meanwhile.

The store is made read-only for real: a read-only bind mount when the tests run as root (root
writes through permission bits), else its permission bits.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hook_start_support import add_session, make_project, transcript

from vaultkit.base.store import Store
from vaultkit.continuity.startup import compose, status_first
from vaultkit.session.queue import jobs

VAULTKIT = str(Path(sys.executable).parent / "vaultkit")
OLD = time.time() - 3600


def _run(*args: str) -> bool:
    return subprocess.run(args, capture_output=True, check=False).returncode == 0


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")] if p.is_dir()}
        for path in modes:
            path.chmod(0o555)
        try:
            yield
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
        return
    if not _run("mount", "--bind", str(folder), str(folder)):
        pytest.skip("root without mount: cannot make a folder read-only here")
    try:
        if not _run("mount", "-o", "remount,ro,bind", str(folder)):
            pytest.skip("cannot remount read-only here")
        yield
    finally:
        _run("umount", str(folder))


def _vk(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [VAULTKIT, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_commands_on_a_read_only_store_say_what_is_wrong(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    name = add_session(project, 29, "0900", "5e55a0aa-1", "Earlier", summary="WORDY summary\n")
    source = transcript(tmp_path / "t" / "6f00beef-2.jsonl", project, mtime=OLD)
    store = Store(project / "sessions")
    with read_only(store.root):
        found = _vk(project, "search", "WORDY")
        assert found.returncode == 0 and f"summary/{name}.md" in found.stdout
        assert "not writable" in found.stderr and "built in memory" in found.stderr
        forgot = _vk(project, "forget", "5e55a0aa", "--yes")
        assert forgot.returncode == 2  # a VaultkitError
        assert "cannot write to the store" in forgot.stderr
        assert "then run: vaultkit forget 5e55a0aa --yes" in forgot.stderr
        ingested = _vk(project, "ingest", str(source))
        assert ingested.returncode == 2
        assert "the transcript was not ingested" in ingested.stderr
        assert f"then run: vaultkit ingest {source}" in ingested.stderr
    assert (store.summary / f"{name}.md").is_file()  # nothing was lost


def test_session_start_shows_the_status_line_and_backfill_recovers_later(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj")
    add_session(project, 29, "0900", "5e55a0aa-1", "Earlier")
    folder = tmp_path / "claude" / "projects" / "-proj"
    transcript(folder / "missed.jsonl", project, mtime=OLD)  # ended while the store was locked
    payload = {"source": "startup", "cwd": str(project), "session_id": "current",
               "transcript_path": str(folder / "current.jsonl")}  # fmt: skip
    store = Store(project / "sessions")
    started: list[Path] = []

    def spawn(s: Store) -> object:  # records the worker start instead of running the distiller
        started.append(s.root)
        return 4242

    with read_only(store.root):
        text = status_first(payload, {}, compose(payload, {}, spawn=spawn))
        assert text.startswith("vaultkit: sessions/ is not writable (")
        assert "the next session start archives them (backfill)" in text
        assert jobs.list_jobs(store) == []
    text = status_first(payload, {}, compose(payload, {}, spawn=spawn))
    assert "is not writable" not in text
    assert [job.session_id for _, job in jobs.list_jobs(store)] == ["missed"]
    assert started == [store.root]
