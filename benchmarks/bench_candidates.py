"""Benchmark: which existing notes the distillation prompt offers (issue 26).

Usage: ``.venv/bin/python -m benchmarks.bench_candidates [--notes 10000] [--sessions 200]
[--baseline DIR]``.
A seeded store: ``--notes`` wiki notes, 15 % of them concept and decision notes in folders
(``concepts/<area>/``, ``decisions/``), 40 % of those with aliases, the rest session notes at the
wiki root; a vocabulary of 1,500 words (90 real, the rest made up). Each generated session is
about one concept, written the ways people write: its exact name, lower case with the plural
changed, an alias, or its words apart in a sentence; amid filler and passing mentions of five
other concepts.
For each session: is the concept's note among the candidates offered (vaultkit's selection, and
side by side the old list: the newest 80 names at the wiki root), at which place, and what the
selection costs in process; then whole processes (``python -c`` running one selection) beside
``python -c pass``. Then the cost of a selection by what changed in the wiki since the last one
(``--rounds`` of each, in turn): nothing, one session note added (not by the worker), one
concept note edited in place (a heading appended), one session note removed; in process and as
a whole process. Then the worker's own path (``worker_*``): each session's note written as the
worker writes it (``pipeline._write``), then the next selection, in child processes of this
tree's vaultkit and, with ``--baseline DIR`` (``git archive COMMIT vaultkit | tar -x -C DIR``),
of DIR's, on copies of the store, in turn. Targets: the note offered for >= 95 % of sessions,
<= 100 ms a session.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC
from pathlib import Path

from vaultkit.base.store import Store

AREAS = ("billing", "imports", "storage", "network", "auth", "ui", "build", "search", "sync")
_TECH = (
    "idempotency key cache ledger schema migration retry backoff queue worker lock token session"
    " fingerprint currency rounding cents importer export parser dialect encoding batch index"
    " snapshot replica shard checkpoint journal vacuum rollback savepoint cursor pagination"
    " webhook signature sandbox gateway quota budget report category rule precedence alias"
    " tenant audit trail throttle limiter heartbeat lease election consensus vector clock"
    " bloom filter compaction tombstone manifest bundle plugin hook adapter registry codec"
    " stream buffer backpressure deadline timeout circuit breaker fallback canary rollout"
    " feature flag secret rotation keyring certificate pinning proxy tunnel socket handshake"
)
_SYLLABLE_TEXT = "ka lo mi ne ru sa ti vo ze bri dan fel gor hin jul kes lam mor nix pel"
_SYLLABLES = _SYLLABLE_TEXT.split()


def _vocabulary(size: int = 1500) -> list[str]:
    """Real technical words, then made-up ones: a project's vocabulary of ``size`` words."""
    words = dict.fromkeys(_TECH.split())
    rng = random.Random(7)
    while len(words) < size:
        words["".join(rng.choices(_SYLLABLES, k=rng.choice((2, 3))))] = None
    return list(words)


TECH = _vocabulary()
_FILLER = (
    "the we it then so and but a to of in on for with this that is was be can will just now"
    " change function test run file line value output error fix call return update check add"
    " remove look read write make works failing passes again first next after before here"
)
FILLER = _FILLER.split()


def _title(rng: random.Random, words: int) -> str:
    return " ".join(rng.sample(TECH, words)).capitalize()


def _alias(rng: random.Random, name: str) -> str:
    words = name.lower().split()
    return "".join(w[0] for w in words).upper() if rng.random() < 0.5 else " ".join(words[::-1])


def write_store(root: Path, notes: int, seed: int = 26) -> tuple[Store, list[tuple[str, str]]]:
    """A store of ``notes`` wiki notes; returns it and its concepts as (wiki path, name)."""
    rng = random.Random(seed)
    store = Store(root / "sessions")
    store.wiki.mkdir(parents=True)
    concepts: list[tuple[str, str]] = []
    seen: set[str] = set()
    while len(concepts) < notes * 15 // 100:
        name = _title(rng, rng.choice((2, 2, 3)))
        if name.lower() in seen:
            continue
        seen.add(name.lower())
        folder = "decisions" if rng.random() < 0.2 else f"concepts/{rng.choice(AREAS)}"
        path = f"{folder}/{name}.md"
        aliases = [_alias(rng, name)] if rng.random() < 0.4 else []
        front = f"---\naliases: [{', '.join(aliases)}]\ntags: [concept]\n---\n" if aliases else ""
        body = " ".join(rng.choices(TECH + FILLER, k=120))
        (store.wiki / path).parent.mkdir(parents=True, exist_ok=True)
        (store.wiki / path).write_text(f"{front}# {name}\n\n{body}\n", encoding="utf-8")
        concepts.append((path, name))
    for n in range(notes - len(concepts)):
        day = f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}_{n % 24:02d}{n % 60:02d}"
        title = _title(rng, rng.choice((3, 4, 5)))
        linked = rng.sample(concepts, 3)
        links = " ".join(f"[[{name}]]" for _, name in linked)
        body = " ".join(rng.choices(TECH + FILLER * 3, k=200))
        text = f"---\ntype: session-wiki\n---\n# {title}\n\n{body}\n\nSee {links}.\n"
        (store.wiki / f"{day}_{n:08x}_{title}.md").write_text(text, encoding="utf-8")
    return store, concepts


def _mention(rng: random.Random, name: str, aliases: list[str]) -> tuple[str, str]:
    """One way of writing about the concept ``name``, and which way it was."""
    way = rng.choices(("exact", "inflected", "alias", "apart"), weights=(40, 20, 20, 20))[0]
    words = name.lower().split()
    if way == "alias" and aliases:
        return aliases[0], way
    if way == "inflected":
        last = words[-1][:-1] if words[-1].endswith("s") else words[-1] + "s"
        return " ".join([*words[:-1], last]), way
    if way == "apart":
        return f"{words[-1]} ... when the {' and '.join(words[:-1])} part", way
    return name, "exact"


def session_text(rng: random.Random, concept: str, aliases: list[str], others: list[str]) -> str:
    """A condensed transcript about ``concept`` (about 20,000 characters)."""
    parts = []
    ways = []
    for turn in range(24):
        words = rng.choices(FILLER * 4 + TECH, k=120)
        if turn % 5 == 0:
            mention, way = _mention(rng, concept, aliases)
            words.insert(rng.randrange(len(words)), mention)
            ways.append(way)
        if turn % 4 == 1 and others:
            words.insert(rng.randrange(len(words)), others.pop())
        who = "User" if turn % 2 == 0 else "Assistant"
        parts.append(f"## {who}\n{' '.join(words)}\n")
    return "\n".join(parts)


def old_list(store: Store) -> list[str]:
    """The list before issue 26: the newest 80 names at the wiki root."""
    names = [p.name for p in store.wiki.glob("*.md") if p.name != "INDEX.md"]
    return sorted(names, reverse=True)[:80]


def measure(
    notes: int, sessions: int, seed: int, rounds: int = 9, baseline: Path | None = None
) -> dict[str, object]:
    from vaultkit.base.leanmeta import read_meta
    from vaultkit.session.distill.candidates import select

    work = Path(tempfile.mkdtemp(prefix="vaultkit-bench-candidates-"))
    try:
        store, concepts = write_store(work, notes, seed)
        select(store, "warm up", "", 1500)  # the alias catalogue, as after the first session
        rng = random.Random(seed + 1)
        hits = old_hits = 0
        places: list[int] = []
        costs: list[float] = []
        cpus: list[float] = []
        by_way: dict[str, list[int]] = {}
        for _ in range(sessions):
            path, name = rng.choice(concepts)
            text = (store.wiki / path).read_text(encoding="utf-8")
            raw = read_meta(text)[0].get("aliases")
            aliases = [str(a) for a in raw] if isinstance(raw, list) else []
            others = [n for _, n in rng.sample(concepts, 5) if n != name]
            transcript = session_text(rng, name, aliases, others)
            way = ",".join(sorted(set(_ways(transcript, name, aliases))))
            start, cpu = time.perf_counter(), time.process_time()
            offered = select(store, transcript, "", 1500)
            costs.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            found = [c.path for c in offered]
            ok = path in found
            hits += ok
            by_way.setdefault(way, []).append(ok)
            if ok:
                places.append(found.index(path) + 1)
            old_hits += path.rsplit("/", 1)[-1] in old_list(store)
        after_add = _each_after_a_note(store, concepts, sessions, seed)
        worker = _worker_rows(store, work, sessions, rounds, baseline)
        whole = _whole_process(store, work, rounds=7)
        changes = _after_changes(store, concepts, work, rounds)
        return {
            "notes": notes,
            "concepts": len(concepts),
            "sessions": sessions,
            "offered_share": hits / sessions,
            "old_list_share": old_hits / sessions,
            "median_place": statistics.median(places) if places else None,
            "by_way": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by_way.items())},
            "cost_ms_median": 1000 * statistics.median(costs),
            "cost_ms_p95": 1000 * sorted(costs)[int(0.95 * (len(costs) - 1))],
            "cost_ms_max": 1000 * max(costs),
            "cpu_ms_median": 1000 * statistics.median(cpus),
            "load_average": os.getloadavg()[0],
            **after_add,
            **worker,
            **whole,
            **changes,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _each_after_a_note(
    store: Store, concepts: list[tuple[str, str]], sessions: int, seed: int
) -> dict[str, object]:
    """The sessions again as the worker meets them: each selection right after the previous
    session's note was written (the catalogue updated by one note every time)."""
    from vaultkit.session.distill.candidates import select

    rng = random.Random(seed + 1)
    cpus: list[float] = []
    walls: list[float] = []
    for n in range(sessions):
        _, name = rng.choice(concepts)
        others = [o for _, o in rng.sample(concepts, 5) if o != name]
        transcript = session_text(rng, name, [], others)
        _change(store, concepts, "added", 10_000 + n)
        start, cpu = time.perf_counter(), time.process_time()
        select(store, transcript, "", 1500)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return {
        "each_after_note_cpu_ms_median": 1000 * statistics.median(cpus),
        "each_after_note_cpu_ms_p95": 1000 * sorted(cpus)[int(0.95 * (len(cpus) - 1))],
        "each_after_note_wall_ms_median": 1000 * statistics.median(walls),
    }


def worker_cycles(root: Path, start: int, count: int, seed: int) -> dict[str, list[float]]:
    """``count`` sessions as the worker meets them, in this process's vaultkit: the previous
    session's note written the worker's way (``pipeline._write``: links settled against the
    store, the notes written, the catalogue told where the tree does that), then the next
    session's selection. Wall and CPU of each write and each selection, in seconds."""
    from datetime import datetime

    from vaultkit.base.config import Config
    from vaultkit.session.distill import pipeline
    from vaultkit.session.distill.candidates import select
    from vaultkit.session.notes.write import NoteMeta

    store = Store(root / "sessions")
    concepts = [
        (p.relative_to(store.wiki).as_posix(), p.stem) for p in store.wiki.glob("*/**/*.md")
    ]
    concepts.sort()
    times: dict[str, list[float]] = {k: [] for k in ("write", "write_cpu", "select", "select_cpu")}
    if start == 0:
        select(store, "warm up", "", 1500)  # the catalogue, as after the first session
    for n in range(start, start + count):
        rng = random.Random(seed * 1_000_003 + n)
        sid = f"{0xA0000000 + n:08x}-bench"
        meta = NoteMeta(sid, "bench", datetime(2027, 2, 1 + n % 28, tzinfo=UTC), "raw", None)
        title = _title(rng, 4)
        body = " ".join(rng.choices(TECH + FILLER * 3, k=200))
        began, cpu = time.perf_counter(), time.process_time()
        pipeline._write(store, meta, title, ("## Done\n- it", body), pipeline._settling(Config()))
        times["write"].append(time.perf_counter() - began)
        times["write_cpu"].append(time.process_time() - cpu)
        _, name = rng.choice(concepts)
        others = [o for _, o in rng.sample(concepts, 5) if o != name]
        transcript = session_text(rng, name, [], others)
        began, cpu = time.perf_counter(), time.process_time()
        select(store, transcript, "", 1500)
        times["select"].append(time.perf_counter() - began)
        times["select_cpu"].append(time.process_time() - cpu)
    return times


def _worker_rows(
    store: Store, work: Path, sessions: int, rounds: int, baseline: Path | None
) -> dict[str, object]:
    """``worker_cycles`` in child processes, this tree's vaultkit and ``baseline``'s (each on
    its own copy of the store), in turn: ``rounds`` children each, ``sessions`` in all."""
    here = str(Path(__file__).resolve().parent.parent)
    trees = {"worker": here} | (
        {"baseline_worker": f"{baseline}{os.pathsep}{here}"} if baseline else {}
    )
    roots = {}
    for label in trees:
        roots[label] = work / label
        shutil.copytree(store.root, roots[label] / "sessions", symlinks=True)
        # built again in the copy by its own tree (a stamp names the original's folders)
        (roots[label] / "sessions" / ".vaultkit" / "candidates.sqlite").unlink()
    got: dict[str, dict[str, list[float]]] = {label: {} for label in trees}
    per = max(1, sessions // rounds)
    for r in range(rounds):
        for label, path in trees.items():
            argv = [
                sys.executable,
                "-m",
                "benchmarks.bench_candidates",
                "--worker-child",
                str(roots[label]),
                "--start",
                str(r * per),
                "--sessions",
                str(per),
            ]
            env = {**os.environ, "PYTHONPATH": path}
            out = subprocess.run(
                argv, check=True, capture_output=True, text=True, env=env, cwd=work
            )
            child = json.loads(out.stdout)
            assert child.pop("tree")[0].startswith(path.split(os.pathsep)[0]), label
            for key, values in child.items():
                got[label].setdefault(key, []).extend(values)
    result: dict[str, object] = {}
    for label, times in got.items():
        for key, values in times.items():
            result[f"{label}_{key}_ms_median"] = 1000 * statistics.median(values)
        result[f"{label}_select_cpu_ms_p95"] = (
            1000 * sorted(times["select_cpu"])[int(0.95 * (len(times["select_cpu"]) - 1))]
        )
    result["worker_load_average"] = os.getloadavg()[0]
    return result


def _ways(transcript: str, name: str, aliases: list[str]) -> list[str]:
    low = transcript.lower()
    ways = []
    if name in transcript:
        ways.append("exact")
    elif name.lower() in low:
        ways.append("lower")
    if any(a.lower() in low for a in aliases):
        ways.append("alias")
    return ways or ["apart/inflected"]


SCRIPT = (
    "import sys; from pathlib import Path; from vaultkit.base.store import Store;"
    " from vaultkit.session.distill.candidates import select;"
    " select(Store(Path(sys.argv[1])), Path(sys.argv[2]).read_text(), '', 1500)"
)


def _whole_process(store: Store, work: Path, rounds: int) -> dict[str, object]:
    transcript = work / "transcript.md"
    transcript.write_text(session_text(random.Random(3), "Cache ledger", [], []), encoding="utf-8")
    mine: list[float] = []
    base: list[float] = []
    for _ in range(rounds):  # in turn, so noise hits both alike
        for argv, into in (
            ([sys.executable, "-c", SCRIPT, str(store.root), str(transcript)], mine),
            ([sys.executable, "-c", "pass"], base),
        ):
            start = time.perf_counter()
            subprocess.run(argv, check=True)
            into.append(time.perf_counter() - start)
    return {
        "whole_process_ms": 1000 * statistics.median(mine),
        "python_pass_ms": 1000 * statistics.median(base),
        "whole_process_ratio": statistics.median(mine) / statistics.median(base),
    }


CHANGES = ("unchanged", "added", "edited", "removed")


def _change(store: Store, concepts: list[tuple[str, str]], case: str, n: int) -> None:
    """Change the wiki as ``case`` says (the ``n``-th change of the run)."""
    rng = random.Random(n)
    if case == "added":
        title = _title(rng, 4)
        name = f"2027-01-{1 + n % 28:02d}_{n % 24:02d}00_{0xF0000000 + n:08x}_{title}.md"
        body = " ".join(rng.choices(TECH + FILLER * 3, k=200))
        text = f"---\ntype: session-wiki\n---\n# {title}\n\n{body}\n"
        (store.wiki / name).write_text(text, encoding="utf-8")
    elif case == "edited":
        path = store.wiki / rng.choice(concepts)[0]
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\n## {_title(rng, 2)}\n\nmore on this\n")
    elif case == "removed":
        roots = sorted(p for p in store.wiki.glob("2*.md"))
        rng.choice(roots).unlink()


def _after_changes(
    store: Store, concepts: list[tuple[str, str]], work: Path, rounds: int
) -> dict[str, object]:
    """The cost of one selection after each kind of change, in process and as a process."""
    from vaultkit.session.distill.candidates import select

    transcript = session_text(random.Random(5), concepts[0][1], [], [])
    (work / "changed.md").write_text(transcript, encoding="utf-8")
    cpu: dict[str, list[float]] = {case: [] for case in CHANGES}
    wall: dict[str, list[float]] = {case: [] for case in CHANGES}
    whole: dict[str, list[float]] = {case: [] for case in ("pass", *CHANGES)}
    argv = [sys.executable, "-c", SCRIPT, str(store.root), str(work / "changed.md")]
    n = 0
    for _ in range(rounds):  # the kinds in turn, so noise hits all alike
        for case in CHANGES:
            n += 1
            _change(store, concepts, case, n)
            start, began = time.perf_counter(), time.process_time()
            select(store, transcript, "", 1500)
            wall[case].append(time.perf_counter() - start)
            cpu[case].append(time.process_time() - began)
        for case in ("pass", *CHANGES):
            n += 1
            if case != "pass":
                _change(store, concepts, case, n)
            start = time.perf_counter()
            subprocess.run(argv if case != "pass" else [sys.executable, "-c", "pass"], check=True)
            whole[case].append(time.perf_counter() - start)
    result: dict[str, object] = {}
    for case in CHANGES:
        result[f"{case}_cpu_ms_median"] = 1000 * statistics.median(cpu[case])
        result[f"{case}_wall_ms_median"] = 1000 * statistics.median(wall[case])
        result[f"{case}_whole_process_ms"] = 1000 * statistics.median(whole[case])
    result["changes_python_pass_ms"] = 1000 * statistics.median(whole["pass"])
    result["changes_load_average"] = os.getloadavg()[0]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--rounds", type=int, default=9, help="selections after each change")
    parser.add_argument("--baseline", type=Path, default=None, help="also the worker row of DIR")
    parser.add_argument("--worker-child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker_child is not None:
        import vaultkit

        times = worker_cycles(args.worker_child, args.start, args.sessions, args.seed)
        print(json.dumps({"tree": [os.path.dirname(os.path.dirname(vaultkit.__file__))], **times}))
        return 0
    baseline = args.baseline.resolve() if args.baseline is not None else None
    result = measure(args.notes, args.sessions, args.seed, args.rounds, baseline)
    for key, value in result.items():
        print(f"{key}: {round(value, 3) if isinstance(value, float) else value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
