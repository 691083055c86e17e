"""Benchmark: ``vaultkit mcp`` from spawn to its ``initialize`` reply, beside ``python -c pass``.

Usage: ``.venv/bin/python benchmarks/bench_mcp.py [--runs 10] [--baseline DIR] [--json]``.
Each run starts a fresh process on a copy of ``examples/``, writes ``initialize`` to its stdin
and stops the clock when the reply line arrives (``initialize``); the ``first_search`` row goes on
to ``notifications/initialized`` and one ``search`` call, so it includes loading the search
engine and opening the index. Rows take turns run by run, so machine noise hits them alike.
``--baseline DIR`` also measures the vaultkit package found in DIR (an older commit:
``git archive COMMIT vaultkit | tar -x -C DIR``) run as ``python -m vaultkit mcp`` with
``PYTHONPATH=DIR``; its rows are suffixed ``@baseline``. Target (issue 20): ``initialize`` within
0.5 s of start.
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
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_S = 0.5
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}
SEARCH = {
    "jsonrpc": "2.0",
    "id": 2,
    "method": "tools/call",
    "params": {"name": "search", "arguments": {"query": "schema", "limit": 3}},
}


def _line(message: dict[str, object]) -> bytes:
    return (json.dumps(message) + "\n").encode()


def timed(command: list[str], cwd: Path, env: dict[str, str], search: bool) -> float:
    """Seconds from spawn to the ``initialize`` reply (or to the first search's reply)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(_line(INIT))
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    assert reply.get("id") == 1 and "result" in reply, reply
    if search:
        proc.stdin.write(_line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        proc.stdin.write(_line(SEARCH))
        proc.stdin.flush()
        while json.loads(proc.stdout.readline()).get("id") != 2:
            pass
    elapsed = time.perf_counter() - started
    proc.stdin.close()
    proc.wait(timeout=30)
    return elapsed


def bare(_cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--baseline", type=Path, help="a folder holding an older vaultkit/")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="vaultkit-bench-mcp-"))
    try:
        project = scratch / "project"
        shutil.copytree(REPO / "examples", project)
        (project / ".git").mkdir()
        env = dict(os.environ)
        vaultkit = [str(Path(sys.executable).parent / "vaultkit"), "mcp"]
        rows: dict[str, Callable[[], float]] = {
            "python_c_pass": lambda: bare(project, env),
            "initialize": lambda: timed(vaultkit, project, env, False),
            "first_search": lambda: timed(vaultkit, project, env, True),
        }
        if args.baseline is not None:
            old = {**env, "PYTHONPATH": str(args.baseline.resolve())}
            older = [sys.executable, "-m", "vaultkit", "mcp"]
            rows["initialize@baseline"] = lambda: timed(older, project, old, False)
            rows["first_search@baseline"] = lambda: timed(older, project, old, True)
        times: dict[str, list[float]] = {name: [] for name in rows}
        for run in rows.values():  # one warm-up each: bytecode, page cache, search index
            run()
        for _ in range(args.runs):
            for name, run in rows.items():
                times[name].append(run())
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    medians = {name: statistics.median(values) for name, values in times.items()}
    if args.json:
        print(json.dumps({"median_s": medians, "runs": args.runs}, indent=2))
        return 0
    bare_s = medians["python_c_pass"]
    print(f"{'row':<24}{'median ms':>10}{'min ms':>9}{'max ms':>9}{'x pass':>8}")
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        ratio = medians[name] / bare_s
        print(
            f"{name:<24}{statistics.median(ms):>10.0f}{min(ms):>9.0f}{max(ms):>9.0f}{ratio:>8.1f}"
        )
    verdict = "met" if medians["initialize"] <= TARGET_S else "NOT met"
    print(f"target: initialize within {TARGET_S * 1000:.0f} ms of start: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
