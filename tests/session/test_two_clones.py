"""A team of two through real git: a bare origin, two clones with their own HOME and user.name.

Four sessions in turn go through the real hook entry (SessionEnd, the detached worker, the
offline distiller), each clone commits, pulls (merging the other's work) and pushes. Then, in both
clones: INDEX.md has no conflict markers and lists everyone's notes, ``vaultkit search`` finds the
teammate's note and ``--author`` filters by who wrote it, SessionStart runs and shows the notes,
and every derived view is brought up to date without a rebuild by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import require_program
from worker_support import FAST_SETTLE, exited, spawned_pids, wait_for

from vaultkit.base import pulled
from vaultkit.base.store import Store

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

CONFLICT_MARKS = ("<<<<<<<", ">>>>>>>", "\n=======\n")


@dataclass(frozen=True)
class Clone:
    """One teammate: a HOME of their own (git config, Claude Code's transcripts) and a clone."""

    name: str
    home: Path
    repo: Path

    @property
    def store(self) -> Store:
        return Store(self.repo / "sessions")

    def env(self) -> dict[str, str]:
        drop = ("VAULTKIT_CHILD", "CLAUDE_WIKI_CHILD", "GIT_DIR", "GIT_WORK_TREE")
        env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("GIT_")}
        env.update(FAST_SETTLE)
        env.update(
            HOME=str(self.home),
            USER=self.name,
            XDG_CONFIG_HOME=str(self.home / ".config"),
            GIT_CONFIG_NOSYSTEM="1",
        )
        return env

    def run(
        self, *argv: str, stdin: bytes | None = None, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            list(argv),
            input=stdin,
            cwd=cwd or self.repo,
            env=self.env(),
            capture_output=True,
            timeout=60,
            check=False,
        )

    def git(self, *args: str) -> str:
        done = self.run("git", *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout.decode()

    def vk(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return self.run(sys.executable, "-m", "vaultkit", *args)

    def hook(self, event: str, payload: Mapping[str, object]) -> subprocess.CompletedProcess[bytes]:
        stdin = json.dumps(payload).encode()
        return self.run(sys.executable, "-m", "vaultkit.hookentry", event, stdin=stdin)


def _transcript(clone: Clone, session_id: str, word: str) -> Path:
    """Claude Code's transcript of a session about ``word``, where Claude Code keeps it."""
    path = clone.home / ".claude" / "projects" / "-proj" / f"{session_id}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        {"type": "user", "sessionId": session_id, "gitBranch": "main", "cwd": str(clone.repo),
         "message": {"role": "user", "content": f"make the {word} importer idempotent"}},
        {"type": "assistant", "sessionId": session_id, "message": {
            "id": "msg_1", "role": "assistant",
            "content": [{"type": "text", "text": f"The {word} importer now skips duplicates."}]}},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _session(clone: Clone, session_id: str, word: str) -> None:
    """One session ends through the real hook; wait for its worker, then commit the store."""
    transcript = _transcript(clone, session_id, word)
    before = set(spawned_pids(clone.store))
    payload = {
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": str(clone.repo),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    done = clone.hook("SessionEnd", payload)
    assert (done.returncode, done.stdout) == (0, b""), done.stderr
    [pid] = set(spawned_pids(clone.store)) - before
    wait_for(lambda: exited(pid), 60, f"{clone.name}'s worker")
    clone.git("add", "-A")
    clone.git("commit", "-qm", f"{clone.name}: session {word}")


def _sync(clone: Clone) -> None:
    """Pull (merging what the teammate pushed) and push; never a conflict."""
    clone.git("pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert clone.git("ls-files", "-u") == ""  # no unmerged path
    clone.git("push", "-q", "origin", "HEAD:main")


def _start(clone: Clone) -> str:
    """SessionStart as the agent runs it: the text it would inject."""
    payload = {"session_id": "next", "cwd": str(clone.repo), "source": "startup",
               "hook_event_name": "SessionStart"}  # fmt: skip
    done = clone.hook("SessionStart", payload)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def _search(clone: Clone, *args: str) -> list[dict[str, object]]:
    done = clone.vk("search", *args, "--format", "json", "-q")
    assert done.returncode in (0, 1), done.stderr
    return list(json.loads(done.stdout)["results"])


def _team(tmp_path: Path) -> tuple[Clone, Clone]:
    require_program("git")
    origin = tmp_path / "origin.git"
    subprocess.run(
        ["git", "init", "-q", "--bare", "--initial-branch=main", str(origin)],
        check=True,
        timeout=30,
    )
    clones = []
    for name in ("alice", "bob"):
        home = tmp_path / f"home-{name}"
        home.mkdir()
        (home / ".gitconfig").write_text(
            f"[user]\n\tname = {name}\n\temail = {name}@example.invalid\n"
            "[init]\n\tdefaultBranch = main\n",
            encoding="utf-8",
        )
        clones.append(Clone(name, home, tmp_path / name / "proj"))
    alice, bob = clones
    alice.repo.parent.mkdir()
    alice.run("git", "clone", "-q", str(origin), str(alice.repo), cwd=tmp_path)
    (alice.repo / "README.md").write_text("# proj\n", encoding="utf-8")
    (alice.repo / "sessions").mkdir()
    config = '[distill]\nbackend = "offline"\n\n[retention]\nkeep_summaries = 1\n'
    (alice.repo / "sessions" / "vaultkit.toml").write_text(config, encoding="utf-8")
    alice.git("add", "-A")
    alice.git("commit", "-qm", "start")
    alice.git("push", "-q", "origin", "HEAD:main")
    bob.repo.parent.mkdir()
    bob.run("git", "clone", "-q", str(origin), str(bob.repo), cwd=tmp_path)
    assert (bob.repo / "sessions" / "vaultkit.toml").is_file()
    return alice, bob


def _notes(clone: Clone) -> set[str]:
    return {p.stem for p in clone.store.wiki.glob("*.md") if p.name != "INDEX.md"}


def test_two_clones_share_one_memory_without_a_conflict(tmp_path: Path) -> None:
    alice, bob = _team(tmp_path)
    # Four sessions in turn; each teammate records before pulling, so every pull merges.
    _session(alice, "a1a1a1a1-0000-4000-8000-000000000001", "zeppelin")
    _sync(alice)
    _session(bob, "b0b0b0b0-0000-4000-8000-000000000002", "quokka")
    _sync(bob)
    _session(alice, "a1a1a1a1-0000-4000-8000-000000000003", "marmalade")
    _sync(alice)
    _session(bob, "b0b0b0b0-0000-4000-8000-000000000004", "periscope")
    _sync(bob)
    alice.git("pull", "-q", "--no-rebase", "--no-edit", "origin", "main")

    everyone = _notes(alice)
    assert len(everyone) == 4 and _notes(bob) == everyone
    for clone in (alice, bob):
        index = clone.store.index.read_text(encoding="utf-8")
        assert not any(mark in index for mark in CONFLICT_MARKS), index
        assert all(f"[[{stem}]]" in index for stem in everyone), index
        # Retention moved summaries into summary/_archive/ on both sides: merged, not doubled.
        kept = list(clone.store.summary.glob("*.md"))
        archived = list(clone.store.summary_archive.glob("*.md"))
        assert len(kept) + len(archived) == 4 and len(archived) >= 2

    for me, mate, word in ((alice, bob, "periscope"), (bob, alice, "marmalade")):
        text = _start(me)  # SessionStart runs and shows the notes, the teammate's too
        assert f"{mate.name}" in text or any(stem in text for stem in _notes(mate)), text
        assert sum(stem in text for stem in everyone) >= 2, text
        # The pull changed INDEX.md: SessionStart had the runner regenerate it and the search
        # index, with nobody running a rebuild.
        wait_for(lambda me=me: not pulled.changed(me.store), 60, f"{me.name}'s refresh")
        assert me.vk("index", "--check").returncode == 0
        hits = _search(me, word)
        assert [h["author"] for h in hits if h["kind"] == "wiki"] == [mate.name], hits
        assert _search(me, word, "--author", me.name) == []
        mine = _search(me, "importer", "--author", me.name, "--type", "wiki")
        assert len(mine) == 2 and {h["author"] for h in mine} == {me.name}
    # Regeneration is deterministic: both clones hold the same INDEX.md, so the next merge of it
    # has nothing to merge.
    assert alice.store.index.read_bytes() == bob.store.index.read_bytes()


def test_the_next_command_after_a_pull_brings_index_and_search_up_to_date(
    tmp_path: Path,
) -> None:
    alice, bob = _team(tmp_path)
    _session(alice, "a1a1a1a1-0000-4000-8000-000000000011", "zeppelin")
    _sync(alice)
    _session(bob, "b0b0b0b0-0000-4000-8000-000000000012", "quokka")
    assert _search(bob, "quokka")  # the search index and the lint cache exist before the pull
    assert bob.vk("lint", "--format", "json").returncode in (0, 1)
    _sync(bob)  # union-merged INDEX.md, not regenerated yet
    assert pulled.changed(bob.store)
    done = bob.vk("search", "zeppelin", "--format", "json", "-q")
    assert done.returncode == 0, done.stderr
    assert b"INDEX.md and the search index brought up to date" in done.stderr
    [hit] = [h for h in json.loads(done.stdout)["results"] if h["kind"] == "wiki"]
    assert hit["author"] == "alice"
    assert not pulled.changed(bob.store)
    assert bob.vk("index", "--check").returncode == 0
    lint = json.loads(bob.vk("lint", "--format", "json").stdout)
    linted = {f["path"].removesuffix(".md") for f in lint["findings"]}
    assert linted == _notes(bob) and len(linted) == 2  # the teammate's note, from the cache's walk
    assert "VK402" not in {f["code"] for f in lint["findings"]}  # INDEX.md is current
    [theirs] = _notes(alice)
    related = bob.vk("related", theirs, "--format", "json")
    assert related.returncode == 0, related.stderr
    assert [r["path"].removesuffix(".md") for r in json.loads(related.stdout)["related"]] == [
        stem for stem in _notes(bob) if stem != theirs
    ]
