"""Benchmark: each load strategy forced on the same vaults, whole process beside in process.

Usage: ``python -m benchmarks.bench_strategy [--sizes 150,200,1000] [--runs 7]
[--strategies serial,pool] [--profile real] [--json PATH]``.

Each contender is the installed ``vaultkit graph VAULT`` (JSON to /dev/null, the vault's
``.vaultkit/`` deleted first, untimed: a cold first run, what a user waits for) with
``VAULTKIT_LOAD_STRATEGY`` forcing one reader, and ``benchmarks.task vk-cold`` (the load and
the networkx graph, in process, imports excluded) under the same variable. In each round every
strategy runs once, in turn, so noise on this shared machine hits them alike; read the ratios
against ``serial``. A pool that cannot run here (beside other threads) falls back to serial,
which the ratio then shows as about 1.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.generate import ensure_vault
from benchmarks.run import BIN, REPO, WHOLE_ENV, _children_cpu, _drop_cache

FORCE_ENV = "VAULTKIT_LOAD_STRATEGY"  # vaultkit.vault.strategy.FORCE_ENV (not imported here)


def whole(vault: Path, reader: str) -> tuple[float, float]:
    """One cold ``vaultkit graph`` with ``reader`` forced: wall and CPU seconds (children
    included: the pool's workers and the split's child are the process's own)."""
    _drop_cache(vault)
    env = {**WHOLE_ENV, FORCE_ENV: reader}
    argv = [str(BIN / "vaultkit"), "graph", str(vault)]
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, check=False)
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} with {FORCE_ENV}={reader} failed")
    return seconds, cpu


def in_process(vault: Path, reader: str) -> float:
    """One ``vk-cold`` task (load without cache + networkx graph) with ``reader`` forced."""
    env = {**os.environ, FORCE_ENV: reader}
    argv = [sys.executable, "-m", "benchmarks.task", "vk-cold", str(vault)]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"vk-cold with {FORCE_ENV}={reader} failed:\n{done.stderr}")
    return float(json.loads(done.stdout)["seconds"])


def _median(values: list[float]) -> float:
    return statistics.median(values)


def bench(vault: Path, readers: list[str], runs: int) -> dict[str, dict[str, float]]:
    """Medians of ``runs`` rounds for each reader on ``vault``."""
    seen: dict[str, dict[str, list[float]]] = {
        r: {"wall": [], "cpu": [], "in": []} for r in readers
    }
    for reader in readers:  # bytecode written once, untimed, as an installed tool has it
        whole(vault, reader)
    for _ in range(runs):
        for reader in readers:
            wall, cpu = whole(vault, reader)
            seen[reader]["wall"].append(wall)
            seen[reader]["cpu"].append(cpu)
            seen[reader]["in"].append(in_process(vault, reader))
    return {r: {k: _median(v) for k, v in got.items()} for r, got in seen.items()}


def _print(label: str, result: dict[str, dict[str, float]]) -> None:
    base = result.get("serial")
    for reader, got in result.items():
        ratio = ""
        if base is not None and reader != "serial":
            ratio = (
                f"  vs serial: whole {got['wall'] / base['wall']:.2f}x,"
                f" in process {got['in'] / base['in']:.2f}x"
            )
        print(
            f"{label:<10} {reader:<7} whole {got['wall']:.3f} s (CPU {got['cpu']:.3f} s)"
            f"  in process {got['in']:.3f} s{ratio}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="150,200,1000")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--strategies", default="serial,pool")
    parser.add_argument("--profile", default="real", choices=("plain", "real"))
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    readers = [s for s in args.strategies.split(",") if s]
    load = os.getloadavg()[0]
    results: dict[str, Any] = {"load_start": load}
    for size in (int(s) for s in args.sizes.split(",") if s):
        vault = ensure_vault(size, profile=args.profile)
        label = f"{args.profile}-{size}"
        results[label] = bench(vault, readers, args.runs)
        _print(label, results[label])
    results["load_end"] = os.getloadavg()[0]
    print(f"load average {load:.1f} at the start, {results['load_end']:.1f} at the end")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
