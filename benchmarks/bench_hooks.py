"""Benchmark: whole-process time of the SessionEnd and SessionStart hooks vs ``python -c pass``.

Usage: ``.venv/bin/python benchmarks/bench_hooks.py [--runs 15] [--entry script|module]``.
Each run starts a real hook process with a real payload on stdin in a throw-away git project
under /tmp (with a ``vaultkit.toml``); the hook queues a job and spawns the detached worker
(offline backend, so no LLM). The clock stops when the hook process exits; the worker is waited
for, untimed, before the next run so that it does not steal CPU from the measurement; then
SessionStart (``startup``) injects from the notes, wiki notes and INDEX.md written so far.
``--entry script`` (the default) runs the installed ``vaultkit-hook`` script, the command that
``vaultkit hooks install`` writes into Claude Code's settings; ``module`` runs
``python -m vaultkit.hookentry`` (adds runpy). Target (issue 7): SessionEnd and SessionStart
medians each ≤ 3x ``python -c pass`` (Claude Code gives all SessionEnd hooks 1.5 s together).
``stdlib_floor`` is Python plus the standard-library modules the store and job model used to
import (dataclasses, datetime, json, pathlib): the hooks now start below it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_RATIO = 3.0
Rows = dict[str, list[tuple[float, float]]]
BIN = Path(sys.executable).parent


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one process, start to exit."""
    cpu, started = _cpu(), time.perf_counter()
    subprocess.run(argv, input=stdin, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - started, _cpu() - cpu


def _wait_for_workers(store: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    queue = store / ".vaultkit" / "queue"
    while time.monotonic() < deadline:
        if not any(queue.glob("*.json")):
            return
        time.sleep(0.05)
    raise SystemExit(f"workers did not drain {queue} within {timeout}s")


def _project(root: Path) -> tuple[Path, Path]:
    project = root / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "sessions").mkdir()
    (project / "sessions" / "vaultkit.toml").write_text('[distill]\nbackend = "offline"\n')
    transcript = root / "transcript.jsonl"
    line = {"type": "user", "message": {"role": "user", "content": "fix the parser"}}
    transcript.write_text(json.dumps(line) + "\n")
    return project, transcript


def _stats(samples: list[tuple[float, float]]) -> dict[str, float]:
    wall = [w for w, _ in samples]
    return {
        "median_ms": statistics.median(wall) * 1000,
        "min_ms": min(wall) * 1000,
        "max_ms": max(wall) * 1000,
        "cpu_median_ms": statistics.median(c for _, c in samples) * 1000,
    }


def _payload(session_id: str, transcript: Path, project: Path) -> bytes:
    data = {
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "SessionEnd",
        "reason": "prompt_input_exit",
    }
    return json.dumps(data).encode()


FLOOR = "import dataclasses, datetime, json, pathlib"  # stdlib the store and job model need


def _hook_argv(entry: str, event: str) -> list[str]:
    if entry == "script":
        return [str(BIN / "vaultkit-hook"), event]
    return [sys.executable, "-m", "vaultkit.hookentry", event]


def _start_payload(project: Path) -> bytes:
    data = {"session_id": "bench-start", "cwd": str(project), "source": "startup"}
    return json.dumps(data).encode()


def _measure(runs: int, entry: str, project: Path, transcript: Path, env: dict[str, str]) -> Rows:
    rows: Rows = {"python_c_pass": [], "stdlib_floor": [], "session_end": [], "session_start": []}
    for n in range(runs):  # interleaved, so every row sees the same machine load
        rows["python_c_pass"].append(_timed([sys.executable, "-c", "pass"], b"", project, env))
        rows["stdlib_floor"].append(_timed([sys.executable, "-c", FLOOR], b"", project, env))
        payload = _payload(f"bench-{n:04d}", transcript, project)
        rows["session_end"].append(_timed(_hook_argv(entry, "SessionEnd"), payload, project, env))
        _wait_for_workers(project / "sessions")
        start = _hook_argv(entry, "SessionStart")
        rows["session_start"].append(_timed(start, _start_payload(project), project, env))
    return rows


def run(runs: int, entry: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in ("VAULTKIT_CHILD", "CLAUDE_WIKI_CHILD")}
    env["VAULTKIT_SETTLE_SECONDS"] = "0.05"
    with tempfile.TemporaryDirectory(prefix="vaultkit-bench-") as tmp:
        # An installed package has its bytecode compiled; give the runs a cache outside the repo.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        project, transcript = _project(Path(tmp))
        for _ in range(2):  # warm-up: fill the bytecode cache, not timed
            _timed([sys.executable, "-c", "pass"], b"", project, env)
            _timed(_hook_argv(entry, "NoSuchEvent"), b"{}", project, env)
        rows = _measure(runs, entry, project, transcript, env)
    stats = {label: _stats(samples) for label, samples in rows.items()}
    base = stats["python_c_pass"]
    return {
        "runs": runs,
        "entry": entry,
        **stats,
        "ratio_median": stats["session_end"]["median_ms"] / base["median_ms"],
        "ratio_cpu": stats["session_end"]["cpu_median_ms"] / max(base["cpu_median_ms"], 1e-3),
        "start_ratio_median": stats["session_start"]["median_ms"] / base["median_ms"],
        "start_ratio_cpu": stats["session_start"]["cpu_median_ms"]
        / max(base["cpu_median_ms"], 1e-3),
        "load_average": os.getloadavg()[0],
        "target_ratio": TARGET_RATIO,
    }


def _print(result: dict[str, object]) -> None:
    base = result["python_c_pass"]
    assert isinstance(base, dict)
    for label in ("python_c_pass", "stdlib_floor", "session_end", "session_start"):
        row = result[label]
        assert isinstance(row, dict)
        print(
            f"{label:14} median {row['median_ms']:6.1f} ms  min {row['min_ms']:6.1f} ms  "
            f"max {row['max_ms']:6.1f} ms  cpu {row['cpu_median_ms']:6.1f} ms  "
            f"({row['median_ms'] / base['median_ms']:.2f}x wall, "
            f"{row['cpu_median_ms'] / max(base['cpu_median_ms'], 1e-3):.2f}x cpu)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--entry", choices=("module", "script"), default="script")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args()
    result = run(max(5, args.runs), args.entry)
    _print(result)
    ok = True
    for label, key in (("SessionEnd", "ratio_median"), ("SessionStart", "start_ratio_median")):
        ratio = float(str(result[key]))
        ok = ok and ratio <= TARGET_RATIO
        verdict = "OK" if ratio <= TARGET_RATIO else "OVER TARGET"
        print(f"{label} / python -c pass (median wall): {ratio:.2f}x, target <= 3x: {verdict}")
    print(f"load average {float(str(result['load_average'])):.2f} (1 min, at the end)")
    if args.json:
        print(json.dumps(result, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
