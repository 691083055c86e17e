"""Benchmark: ``vaultkit lint`` of one changed note in a 10k-note vault, warm cache (issue 23).

Usage: ``.venv/bin/python -m benchmarks.bench_onefile [--notes 10000] [--runs 5]
[--baseline DIR] [--json PATH]``.
A generated vault (benchmarks/generate.py) gets a note ``Onefile target`` that ``BACKLINKS``
other notes link to (wikilink, subpath with display text, embed, Markdown link: one each). Each
round, every row a fresh ``python -m vaultkit`` process after an untimed ``vaultkit lint VAULT``
(so the caches are current before the change): ``python -c pass``; ``lint VAULT`` with nothing
changed (warm full lint); (a) the note edited in place, then ``lint VAULT/NOTE``; (b) the note
deleted, then ``lint --files-from - VAULT`` given its path; (c) the note renamed (old path
gone, new path present), then ``lint --files-from - VAULT`` given both paths. The change is
undone after each row (untimed). Wall time, CPU (user + system) and peak RSS from ``os.wait4``;
the load average beside. ``--baseline DIR`` runs the vaultkit package in DIR (``git archive
COMMIT vaultkit | tar -x -C DIR``) in the same rounds, turn by turn, on a vault of its own.
Target: (a)-(c) within 300 ms whole process.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.run import WHOLE_ENV

REPO = Path(__file__).resolve().parent.parent
BACKLINKS = 40
TARGET = "Onefile target.md"
RENAMED = "Onefile renamed.md"
FORMS = ("[[{n}]]", "[[{n}#Intro|the target]]", "![[{n}]]", "[t]({q}.md)")
ROWS = ("python -c pass", "lint VAULT (warm)", "(a) edited", "(b) deleted", "(c) renamed")
TARGET_MS = 300.0


@dataclass(frozen=True, slots=True)
class Sample:
    """One process: wall and CPU seconds, peak RSS in MB, exit status, what it wrote on stderr."""

    wall: float
    cpu: float
    rss_mb: float
    code: int
    stderr: str


@dataclass(slots=True)
class Row:
    """The samples of one row of one contender."""

    samples: list[Sample] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        return {
            "median_ms": statistics.median(s.wall for s in self.samples) * 1000,
            "min_ms": min(s.wall for s in self.samples) * 1000,
            "max_ms": max(s.wall for s in self.samples) * 1000,
            "median_cpu_ms": statistics.median(s.cpu for s in self.samples) * 1000,
            "peak_rss_mb": max(s.rss_mb for s in self.samples),
        }


def prepare(root: Path, notes: int) -> None:
    """The generated vault plus the target note and its backlinks. The vault is written by a
    child process: a child's peak RSS reads no lower than its parent's at the fork."""
    argv = [sys.executable, "-m", "benchmarks.generate", "--notes", str(notes), "--out", str(root)]
    subprocess.run(argv, cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    (root / TARGET).write_text("# Onefile target\n\n## Intro\n\nSee [[Nowhere]].\n", "utf-8")
    stem = TARGET[:-3]
    sources: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        sources += (os.path.join(folder, n) for n in files if n.endswith(".md") and n != TARGET)
    sources.sort()
    for number, path in enumerate(sources[:BACKLINKS]):
        form = FORMS[number % len(FORMS)].format(n=stem, q=stem.replace(" ", "%20"))
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"\nSee {form}.\n")


def measure(argv: Sequence[str], env: dict[str, str], stdin: str = "") -> Sample:
    """Run one process to its end, timed from outside; its standard output is thrown away."""
    started = time.perf_counter()
    child = subprocess.Popen(
        list(argv),
        env=env,
        cwd=tempfile.gettempdir(),  # ``-m`` puts the working folder first on sys.path
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stderr is not None
    child.stdin.write(stdin)
    child.stdin.close()
    err = child.stderr.read()  # a few lines: no pipe fills up
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    child.stderr.close()
    cpu = usage.ru_utime + usage.ru_stime
    return Sample(wall, cpu, usage.ru_maxrss / 1024, child.returncode, err)


@dataclass(frozen=True, slots=True)
class Contender:
    """Which vaultkit runs (None: this tree's) on which vault."""

    name: str
    where: Path | None
    vault: Path

    def env(self) -> dict[str, str]:
        env = dict(WHOLE_ENV)
        if self.where is not None:
            env["PYTHONPATH"] = str(self.where)
        else:
            env["PYTHONPATH"] = str(REPO)
        return env

    def lint(self, *words: str) -> list[str]:
        return [sys.executable, "-m", "vaultkit", "lint", *words]


def _checked(sample: Sample, row: str, at_least: int) -> Sample:
    """The sample, after checking the run reported what the change left to report."""
    if sample.code not in (0, 1):
        raise SystemExit(f"{row} failed ({sample.code}):\n{sample.stderr}")
    summary = sample.stderr.strip().rpartition("\n")[2]
    found = int(summary.split()[0]) if summary[:1].isdigit() else 0
    if found < at_least:
        raise SystemExit(f"{row}: {found} finding(s), expected at least {at_least}:\n{summary}")
    return sample


Step = tuple[str, Callable[[], object], list[str], str, int, Callable[[], object]]


def one_round(who: Contender, rows: dict[str, Row]) -> None:
    """Every row once for one contender, each after an untimed lint that makes the cache current."""
    env, vault = who.env(), who.vault
    note, moved = vault / TARGET, vault / RENAMED
    text = note.read_bytes()
    steps: list[Step] = [
        ("python -c pass", lambda: None, [sys.executable, "-c", "pass"], "", 0, lambda: None),
        ("lint VAULT (warm)", lambda: None, who.lint(str(vault)), "", 0, lambda: None),
        ("(a) edited", lambda: _append(note), who.lint(str(note)), "", 0, lambda: None),
        (
            "(b) deleted",
            note.unlink,
            who.lint("--files-from", "-", str(vault)),
            f"{note}\n",
            BACKLINKS,  # each backlink is a ghost now
            lambda: note.write_bytes(text),
        ),
        (
            "(c) renamed",
            lambda: note.rename(moved),
            who.lint("--files-from", "-", str(vault)),
            f"{note}\n{moved}\n",
            BACKLINKS,
            lambda: moved.rename(note),
        ),
    ]
    for row, change, argv, stdin, at_least, undo in steps:
        _checked(measure(who.lint(str(vault), "-q"), env), "warm-up lint", 0)
        change()
        rows[row].samples.append(_checked(measure(argv, env, stdin), row, at_least))
        undo()


def _append(note: Path) -> None:
    with note.open("a", encoding="utf-8") as handle:
        handle.write(f"\nEdited at {time.time_ns()}, see [[Onefile target#Intro]].\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None, help="also run vaultkit from DIR")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-onefile-") as tmp:
        contenders = [Contender("vaultkit", None, Path(tmp) / "vault")]
        if args.baseline is not None:
            contenders.append(Contender("baseline", args.baseline.resolve(), Path(tmp) / "base"))
        for who in contenders:
            prepare(who.vault, args.notes)
        load = [os.getloadavg()[0]]
        results = {who.name: {row: Row() for row in ROWS} for who in contenders}
        for _ in range(args.runs):
            for who in contenders:
                one_round(who, results[who.name])
        load.append(os.getloadavg()[0])
    return report(args, results, load)


def report(args: argparse.Namespace, results: dict[str, dict[str, Row]], load: list[float]) -> int:
    """Print the medians (and write them as JSON when asked)."""
    summary = {
        name: {row: series.summary() for row, series in rows.items()}
        for name, rows in results.items()
    }
    print(f"{args.notes} notes, {args.runs} rounds, load average {load[0]:.2f} -> {load[1]:.2f}")
    for name, rows in summary.items():
        for row, got in rows.items():
            mark = ""
            if row.startswith("("):
                mark = "  met" if got["median_ms"] <= TARGET_MS else "  over 300 ms"
            print(
                f"{name:9} {row:18} median {got['median_ms']:7.1f} ms  "
                f"(min {got['min_ms']:6.1f}, max {got['max_ms']:6.1f})  "
                f"CPU {got['median_cpu_ms']:6.1f} ms  peak RSS {got['peak_rss_mb']:5.1f} MB{mark}"
            )
    if args.json is not None:
        data = {"notes": args.notes, "runs": args.runs, "load": load, "rows": summary}
        args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
