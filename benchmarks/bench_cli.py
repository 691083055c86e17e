"""Benchmark: whole-process start-up of the ``vaultkit`` command vs ``python -c pass``.

Usage: ``.venv/bin/python benchmarks/bench_cli.py [--runs 20] [--json]``.
Each run starts the installed ``vaultkit`` script (what a user types) as a fresh process and
stops the clock when it exits, so interpreter start-up is included. The rows take turns run by
run, so machine noise hits them alike: ``python -c pass``, ``vaultkit --help``,
``vaultkit --version``, ``vaultkit lint examples/sessions/wiki`` with a warm lint cache,
``vaultkit search schema examples/sessions`` with a current search index,
``vaultkit graph examples/sessions/wiki`` (JSON to a pipe), and the same lint cold (the first
run after deleting the cache; a vault under 200 notes then takes the uncached path, which is
also what it gets by default until a cache exists). They run on a copy of ``examples/`` in a
temporary folder (same command line, repository left alone).
In-process rows time ``lint_run.run`` inside one process: the first call (imports included),
then warm and cold calls with everything imported (the work alone).
``--baseline DIR`` also measures, in the same rounds, the vaultkit package found in DIR (e.g. an
older commit: ``git archive COMMIT vaultkit | tar -x -C DIR``) through ``PYTHONPATH``, with its own
copy of examples/ and its own lint cache; its rows are suffixed ``@baseline``.
Targets (issue 14): ``vaultkit --help`` within 3x ``python -c pass``; warm lint within 150 ms;
(issue 13) ``vaultkit search`` within 3x ``python -c pass`` + 50 ms.
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
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HELP_TARGET_RATIO = 3.0
LINT_TARGET_MS = 150.0
SEARCH_TARGET_RATIO, SEARCH_TARGET_EXTRA_MS = 3.0, 50.0
VAULT = "examples/sessions/wiki"
STORE = "examples/sessions"
QUERY = "schema"
# lint_cold last: it deletes the state folder (lint cache and search index) before it runs.
ROWS = ("python_c_pass", "help", "version", "lint_warm", "search", "graph", "lint_cold")
BASELINE = "@baseline"

IN_PROCESS = """
import contextlib, io, json, shutil, sys, time
from pathlib import Path
t0 = time.perf_counter()
from vaultkit.cli.lint_run import LintArgs, run
args = LintArgs(paths=(Path(sys.argv[1]),), quiet=True)
state, runs = Path(sys.argv[2]), int(sys.argv[3])
def timed():
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        run(args)
    return time.perf_counter() - started
timed()  # the first call imports the lint engine
first_total = time.perf_counter() - t0
warm = [timed() for _ in range(runs)]
cold = []
for _ in range(runs):
    shutil.rmtree(state, ignore_errors=True)
    cold.append(timed())
print(json.dumps({"first_call_s": first_total, "warm_s": warm, "cold_s": cold}))
"""

FILL_CACHE = (
    "import sys; from pathlib import Path; from vaultkit.lint.cache.run import lint_vault; "
    "lint_vault(Path(sys.argv[1]).resolve(), cache=True)"
)


def _timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    return time.perf_counter() - started


def _stats(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18] if len(ms) > 1 else ms[0]
    return {"median_ms": statistics.median(ms), "p95_ms": p95, "min_ms": ms[0], "max_ms": ms[-1]}


@dataclass(frozen=True, slots=True)
class Side:
    """One vaultkit package under test: its environment and its own copy of examples/."""

    suffix: str  # appended to the row names ("" for this checkout)
    env: dict[str, str]
    work: Path
    state: Path  # the copy's derived-state folder (the lint cache)


def _side(tmp: Path, suffix: str, env: dict[str, str]) -> Side:
    """A copy of examples/ (no derived state) in its own folder of ``tmp``."""
    work = tmp / f"work{suffix or '-current'}"
    ignore = shutil.ignore_patterns(".vaultkit")
    shutil.copytree(REPO / "examples", work / "examples", ignore=ignore)
    return Side(suffix, env, work, work / "examples" / "sessions" / ".vaultkit")


def _argv(kind: str) -> list[str]:
    vaultkit = str(BIN / "vaultkit")
    return {
        "python_c_pass": [sys.executable, "-c", "pass"],
        "help": [vaultkit, "--help"],
        "version": [vaultkit, "--version"],
        "lint_warm": [vaultkit, "lint", VAULT],
        "lint_cold": [vaultkit, "lint", VAULT],
        "search": [vaultkit, "search", QUERY, STORE],
        "graph": [vaultkit, "graph", VAULT],
    }[kind]


def _measure(runs: int, sides: list[Side]) -> dict[str, list[float]]:
    first = sides[0]
    rows: dict[str, list[float]] = {"python_c_pass": []}
    rows |= {kind + side.suffix: [] for side in sides for kind in ROWS[1:]}
    fill = [sys.executable, "-c", FILL_CACHE, VAULT]
    for _ in range(runs):  # interleaved, so every row sees the same machine load
        for side in sides:  # untimed: each package writes its own lint cache and search index
            subprocess.run(fill, cwd=side.work, env=side.env, check=True, capture_output=True)
            _timed(_argv("search"), side.work, side.env)
        rows["python_c_pass"].append(_timed(_argv("python_c_pass"), first.work, first.env))
        for side in sides:
            for kind in ROWS[1:]:
                if kind == "lint_cold":
                    shutil.rmtree(side.state, ignore_errors=True)
                rows[kind + side.suffix].append(_timed(_argv(kind), side.work, side.env))
    return rows


def _in_process(runs: int, work: Path, state: Path, env: dict[str, str]) -> dict[str, object]:
    subprocess.run([sys.executable, "-c", FILL_CACHE, VAULT], cwd=work, env=env, check=True)
    argv = [sys.executable, "-c", IN_PROCESS, VAULT, str(state), str(runs)]
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, check=True)
    raw = json.loads(done.stdout)
    return {
        "first_call_ms": raw["first_call_s"] * 1000,
        "warm": _stats(raw["warm_s"]),
        "cold": _stats(raw["cold_s"]),
    }


def run(runs: int, baseline: Path | None = None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "VAULTKIT_HOME")}
    with tempfile.TemporaryDirectory(prefix="vaultkit-bench-cli-") as tmp:
        # An installed package has its bytecode compiled; give the runs a cache outside the repo.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        sides = [_side(Path(tmp), "", env)]
        if baseline is not None:
            sides.append(_side(Path(tmp), BASELINE, {**env, "PYTHONPATH": str(baseline)}))
        for side in sides:  # warm-up: fill the bytecode cache, not timed
            for kind in ROWS:
                _timed(_argv(kind), side.work, side.env)
        load_start = os.getloadavg()[0]
        samples = _measure(runs, sides)
        in_process = _in_process(runs, sides[0].work, sides[0].state, env)
    stats = {row: _stats(seconds) for row, seconds in samples.items()}
    base = stats["python_c_pass"]["median_ms"]
    return {
        "runs": runs,
        "baseline": str(baseline) if baseline else None,
        "rows": stats,
        "ratios": {row: stats[row]["median_ms"] / base for row in stats},
        "in_process_lint": in_process,
        "load_average_start": load_start,
        "load_average_end": os.getloadavg()[0],
    }


def _print(result: dict[str, object]) -> None:
    rows, ratios = result["rows"], result["ratios"]
    assert isinstance(rows, dict) and isinstance(ratios, dict)
    for row, s in rows.items():
        print(
            f"{row:23} median {s['median_ms']:6.1f} ms  p95 {s['p95_ms']:6.1f}  "
            f"min-max {s['min_ms']:6.1f}-{s['max_ms']:6.1f} ms  ({ratios[row]:.2f}x pass)"
        )
    inproc = result["in_process_lint"]
    assert isinstance(inproc, dict)
    print(
        f"in-process lint: first call (imports + work) {inproc['first_call_ms']:.1f} ms; "
        f"warm median {inproc['warm']['median_ms']:.1f} ms "
        f"(p95 {inproc['warm']['p95_ms']:.1f}); cold median {inproc['cold']['median_ms']:.1f} ms "
        f"(p95 {inproc['cold']['p95_ms']:.1f})"
    )


def _verdicts(result: dict[str, object]) -> bool:
    rows, ratios = result["rows"], result["ratios"]
    assert isinstance(rows, dict) and isinstance(ratios, dict)
    help_ok = bool(ratios["help"] <= HELP_TARGET_RATIO)
    lint_ms = rows["lint_warm"]["median_ms"]
    lint_ok = bool(lint_ms <= LINT_TARGET_MS)
    print(
        f"vaultkit --help / python -c pass (median wall): {ratios['help']:.2f}x, "
        f"target <= {HELP_TARGET_RATIO:g}x: {'OK' if help_ok else 'OVER TARGET'}"
    )
    print(
        f"vaultkit lint {VAULT}, warm (median wall): {lint_ms:.1f} ms, "
        f"target <= {LINT_TARGET_MS:g} ms: {'OK' if lint_ok else 'OVER TARGET'}"
    )
    search_ms = rows["search"]["median_ms"]
    search_limit = SEARCH_TARGET_RATIO * rows["python_c_pass"]["median_ms"] + SEARCH_TARGET_EXTRA_MS
    search_ok = bool(search_ms <= search_limit)
    print(
        f"vaultkit search {QUERY} {STORE} (median wall): {search_ms:.1f} ms, target <= "
        f"{search_limit:.1f} ms: {'OK' if search_ok else 'OVER TARGET'}"
    )
    print(
        f"load average {result['load_average_start']:.2f} at the start, "
        f"{result['load_average_end']:.2f} at the end (1 min; {os.cpu_count()} cores)"
    )
    return help_ok and lint_ok and search_ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="also measure the vaultkit package in DIR"
    )
    args = parser.parse_args()
    baseline = args.baseline.resolve() if args.baseline else None
    if baseline is not None and not (baseline / "vaultkit" / "cli").is_dir():
        parser.error(f"{args.baseline}: no vaultkit/cli package inside")
    result = run(max(1, args.runs), baseline)
    _print(result)
    ok = _verdicts(result)
    if args.json:
        print(json.dumps(result, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
