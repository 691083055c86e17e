"""Benchmark: two clones recording sessions and pulling each other's: how often does git stop?

Usage: ``.venv/bin/python benchmarks/bench_git_merge.py [--rounds 20] [--keep 3] [--json]``.
Each strategy gets a bare origin and two clones (alice, bob) in a temporary folder. In every
round both record a session before pulling (vaultkit's own writer for the two notes, then
INDEX.md regenerated and retention applied, as the worker does), alice pushes, bob pulls (a
merge) and pushes, alice pulls; every third round bob's session re-distils one of alice's earlier
sessions instead (its INDEX.md line changes on one side while the other adds a line). A pull that
stops on a conflict is counted, then resolved as a user would (the index regenerated, committed)
so the rounds go on. After each merge, INDEX.md is compared with what regeneration gives
(``stale``: out of order or a line twice, until the next vaultkit run fixes it). Bob's sessions
end after alice's in even rounds and before them in odd ones, so a union's "ours, then theirs"
order is wrong half the time. Every round runs each strategy in turn, so load hits them alike.

Strategies:

- ``none``: no attribute (what a store had before issue 21).
- ``union``: the store's own ``sessions/.gitattributes`` (``wiki/INDEX.md merge=union``), which
  vaultkit writes and the team commits: no per-clone setup.
- ``driver``: a merge driver (union of the generated lines, deduplicated per note, sorted newest
  first) registered in both clones' ``.git/config``, as ``hooks install`` would have to.
- ``driver-one``: the same driver registered in alice's clone only: a teammate who cloned the
  project but has not run ``vaultkit hooks install`` (or a CI checkout) merges without it.

Timings: ``git pull`` is a whole process, timed from outside; ``regenerate`` is
``regenerate_index`` in process (the work the next vaultkit run does after a union merge).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from vaultkit.base import gitattributes
from vaultkit.base.store import Store
from vaultkit.session.notes.retention import apply_retention
from vaultkit.session.notes.write import NoteMeta, write_session_notes
from vaultkit.vault.indexer import regenerate_index

STRATEGIES = ("none", "union", "driver", "driver-one")
DRIVER_ATTRS = "wiki/INDEX.md merge=vaultkit-index\n"
# The driver a `hooks install` would register: %O %A %B are base, ours (result), theirs.
DRIVER = """\
import re, sys
base, ours, theirs = sys.argv[1:4]
START, END = "<!-- vaultkit:index:start", "<!-- vaultkit:index:end"
def parts(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    s = next((i for i, l in enumerate(lines) if l.startswith(START)), None)
    e = next((i for i, l in enumerate(lines) if l.startswith(END)), None)
    if s is None or e is None:
        return lines, [], []
    return lines[: s + 1], lines[s + 1 : e], lines[e:]
above, mine, below = parts(ours)
_, other, _ = parts(theirs)
_, old, _ = parts(base)
link = lambda line: re.match(r"- \\[\\[([^\\]]+)\\]\\]", line).group(1)
changed = {link(l) for l in other if l not in old} | {link(l) for l in mine if l not in old}
keep = {}
for line in mine + other:
    name = link(line)
    if name in keep and line in old and name in changed:
        continue  # the changed line wins over the base's
    if name not in keep or keep[name] in old:
        keep[name] = line
body = sorted(keep.values(), key=link, reverse=True)
open(ours, "w", encoding="utf-8").write("\\n".join(above + body + below) + "\\n")
"""
BASE_TIME = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


@dataclass
class Tally:
    """What one strategy's rounds gave."""

    strategy: str
    pulls: int = 0
    conflicts: int = 0
    stale: int = 0
    setup_steps: int = 0  # per clone, by hand or by `hooks install`, before merges work
    pull_ms: list[float] = field(default_factory=list)
    regenerate_ms: list[float] = field(default_factory=list)


def _env(home: Path, name: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", XDG_CONFIG_HOME=str(home / ".config"))
    env.update(GIT_AUTHOR_NAME=name, GIT_COMMITTER_NAME=name)
    env.update(GIT_AUTHOR_EMAIL=f"{name}@example.invalid", GIT_COMMITTER_EMAIL="x@example.invalid")
    return env


@dataclass(frozen=True)
class Clone:
    name: str
    repo: Path
    env: dict[str, str]

    @property
    def store(self) -> Store:
        return Store(self.repo / "sessions")

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["git", *args], cwd=self.repo, env=self.env, capture_output=True, text=True
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"{self.name}: git {' '.join(args)}: {done.stdout}{done.stderr}")
        return done


def _team(folder: Path, strategy: str, driver: Path) -> tuple[Clone, Clone, int]:
    origin = folder / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    clones = []
    for name in ("alice", "bob"):
        home = folder / f"home-{name}"
        home.mkdir()
        env = _env(home, name)
        argv = ["git", "clone", "-q", str(origin), str(folder / name)]
        subprocess.run(argv, env=env, check=True, stderr=subprocess.DEVNULL)  # "empty repository"
        clones.append(Clone(name, folder / name, env))
    alice, bob = clones
    alice.git("checkout", "-q", "-b", "main")
    alice.store.root.mkdir(parents=True)
    attrs = {"union": gitattributes.block(), "driver": DRIVER_ATTRS, "driver-one": DRIVER_ATTRS}
    if strategy in attrs:
        (alice.store.root / ".gitattributes").write_text(attrs[strategy], encoding="utf-8")
    (alice.repo / "README.md").write_text("# proj\n", encoding="utf-8")
    alice.git("add", "-A")
    alice.git("commit", "-qm", "start")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    steps = 0
    for clone in (alice, bob) if strategy == "driver" else (alice,) * (strategy == "driver-one"):
        command = f"{sys.executable} {driver} %O %A %B"
        clone.git("config", "merge.vaultkit-index.driver", command)
        steps = 1
    return alice, bob, steps


def _session(clone: Clone, session_id: str, when: datetime, keep: int, word: str) -> None:
    """The worker's writes for one session: two notes, INDEX.md, retention."""
    meta = NoteMeta(session_id, "proj", when, f"raw/{session_id}.jsonl", "main", author=clone.name)
    write_session_notes(clone.store, meta, f"{word} work", f"Did {word}.", f"About {word}.")
    regenerate_index(clone.store.wiki)
    apply_retention(clone.store, keep)
    clone.git("add", "-A")
    clone.git("commit", "-qm", f"{clone.name}: {word}")


def _pull(clone: Clone, tally: Tally) -> None:
    started = time.perf_counter()
    done = clone.git("pull", "-q", "--no-rebase", "--no-edit", "origin", "main", check=False)
    tally.pull_ms.append((time.perf_counter() - started) * 1000)
    tally.pulls += 1
    if done.returncode != 0:
        tally.conflicts += 1
        regenerate_index(clone.store.wiki)  # what a user would do: regenerate, then commit
        clone.git("add", "-A")
        clone.git("commit", "-qm", "resolve INDEX.md", "--no-edit")
        return
    if regenerate_index(clone.store.wiki, check=True).changed:
        tally.stale += 1
    started = time.perf_counter()
    regenerate_index(clone.store.wiki)  # what the next vaultkit run does (and timed here)
    tally.regenerate_ms.append((time.perf_counter() - started) * 1000)


@dataclass(frozen=True)
class Team:
    """One strategy's origin and clones, and what its rounds gave so far."""

    alice: Clone
    bob: Clone
    tally: Tally


def make_team(strategy: str, folder: Path) -> Team:
    driver = folder / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    alice, bob, steps = _team(folder, strategy, driver)
    return Team(alice, bob, Tally(strategy, setup_steps=steps))


def play_round(team: Team, n: int, keep: int) -> None:
    """Both record a session, alice pushes, bob pulls (a merge) and pushes, alice pulls; then
    the next vaultkit run in each clone regenerates INDEX.md and the result is committed."""
    alice, bob, tally = team.alice, team.bob, team.tally
    when = BASE_TIME + timedelta(hours=2 * n)
    _session(alice, f"a{n:07d}-0000-4000-8000-{n:012d}", when, keep, f"alpha{n}")
    if n % 3 == 2:  # bob re-distils alice's previous session: its line changes on his side
        b_id = f"a{n - 1:07d}-0000-4000-8000-{n - 1:012d}"
        b_when = BASE_TIME + timedelta(hours=2 * (n - 1))
    else:  # bob's session ended after alice's, or (odd rounds) before it
        b_id = f"b{n:07d}-0000-4000-8000-{n:012d}"
        b_when = when + timedelta(minutes=-30 if n % 2 else 30)
    _session(bob, b_id, b_when, keep, f"bravo{n}")
    alice.git("push", "-q", "origin", "main")
    _pull(bob, tally)
    bob.git("push", "-q", "origin", "main")
    _pull(alice, tally)
    for clone in (alice, bob):
        if clone.git("status", "--porcelain").stdout:
            clone.git("add", "-A")
            clone.git("commit", "-qm", "vaultkit: INDEX.md regenerated")


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--keep", type=int, default=3, help="retention: summaries kept")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args(argv)
    if shutil.which("git") is None:
        print("git is not on PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="vk-bench-git-") as tmp:
        teams = []
        for strategy in STRATEGIES:
            (Path(tmp) / strategy).mkdir()
            teams.append(make_team(strategy, Path(tmp) / strategy))
        for n in range(args.rounds):  # side by side: each round runs every strategy in turn
            for team in teams:
                play_round(team, n, args.keep)
    tallies = [team.tally for team in teams]
    if args.json:
        print(json.dumps([t.__dict__ for t in tallies], indent=2))
        return 0
    print(f"{args.rounds} rounds, 2 merging pulls each, retention keeps {args.keep}")
    print("strategy     setup/clone  conflicts/pulls  stale-after-merge  pull ms  regen ms")
    for t in tallies:
        print(
            f"{t.strategy:<12} {t.setup_steps:>11}  {t.conflicts:>6}/{t.pulls:<8} "
            f"{t.stale:>17}  {_median(t.pull_ms):>7.1f}  {_median(t.regenerate_ms):>8.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
