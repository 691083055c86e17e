"""Benchmark: what the shared-store checks (issue 22) cost SessionStart, against a baseline tree.

Usage: ``.venv/bin/python benchmarks/bench_trust.py BASELINE_TREE [--runs 30]``.
``BASELINE_TREE`` is another checkout of vaultkit (e.g. ``git worktree add /tmp/base main``).
Both trees' hook entry files (``vaultkit/vaultkit_hook.py``, run as ``python -I -S``, the command
``vaultkit hooks install`` writes) inject SessionStart ``startup`` from the same copy of
``examples/sessions`` in a throw-away git project, runs interleaved so that both see the same
machine load; ``python -I -S -c pass`` is timed in the same loop. In-process: the
``startup_text`` call alone, in this process, for this tree. Prints medians, ranges and ratios.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _project(root: Path) -> Path:
    project = root / "proj"
    shutil.copytree(HERE / "examples" / "sessions", project / "sessions")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    return project


def _timed(argv: list[str], stdin: bytes, cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, cwd=cwd, capture_output=True, check=True)
    elapsed = time.perf_counter() - started
    assert b"additionalContext" in done.stdout or argv[-1] == "pass", done.stdout[:200]
    return elapsed


def _row(name: str, samples: list[float], base: float) -> str:
    ms = [s * 1000 for s in samples]
    median = statistics.median(ms)
    return f"{name:<28} {median:7.1f} ms ({min(ms):.1f}-{max(ms):.1f})  {median / base:5.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("baseline", type=Path)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    entries = {
        "this tree": str(HERE / "vaultkit" / "vaultkit_hook.py"),
        "baseline": str(args.baseline.resolve() / "vaultkit" / "vaultkit_hook.py"),
    }
    with tempfile.TemporaryDirectory(prefix="vk-bench-trust-") as tmp:
        project = _project(Path(tmp))
        payload = json.dumps({"source": "startup", "cwd": str(project), "session_id": "b"})
        times: dict[str, list[float]] = {"python -I -S -c pass": [], **{k: [] for k in entries}}
        py = [sys.executable, "-I", "-S"]
        for _ in range(args.runs):
            times["python -I -S -c pass"].append(_timed([*py, "-c", "pass"], b"", project))
            for name, entry in entries.items():
                times[name].append(_timed([*py, entry, "SessionStart"], payload.encode(), project))
        base = statistics.median(times["python -I -S -c pass"]) * 1000
        for name, samples in times.items():
            print(_row(f"SessionStart, {name}" if name in entries else name, samples, base))
        this, old = (statistics.median(times[k]) for k in entries)
        print(f"this tree / baseline (whole process): {this / old:.2f}x")
        from vaultkit.base.config import Config
        from vaultkit.base.store import Store
        from vaultkit.continuity.startup import startup_text

        store, inner = Store(project / "sessions"), []
        for _ in range(args.runs):
            started = time.perf_counter()
            startup_text(store, Config(), project)
            inner.append(time.perf_counter() - started)
        print(f"startup_text in-process, this tree: {statistics.median(inner) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
