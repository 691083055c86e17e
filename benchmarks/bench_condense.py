"""Benchmark: condense a synthetic Claude Code transcript; report MB/s and peak RSS.

Usage: ``.venv/bin/python benchmarks/bench_condense.py [--size-mb 300] [--budget 60000]``.
The transcript is generated in a temp folder under /tmp and removed afterwards; the condensing
runs in a fresh child process so that its peak RSS is measured alone.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_MB_S = 30.0
TARGET_RSS_MB = 200.0


def _line(obj: dict[str, object]) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def _round(n: int) -> str:
    """One user→assistant round with the line types a real session has (~60 KB)."""
    base = {"sessionId": "bench", "cwd": "/home/u/proj", "gitBranch": "main", "version": "2.1.0"}
    mid = f"msg_{n:09d}"
    big = "def f(x):\n    return x * 2  # 한국어 주석\n" * 900
    rows: list[dict[str, object]] = [
        {**base, "type": "user", "message": {"role": "user", "content": f"Step {n}: fix tests"}},
        {
            **base,
            "type": "assistant",
            "message": {
                "id": mid,
                "role": "assistant",
                "content": [{"type": "thinking", "thinking": "hmm " * 200}],
            },
        },
        {
            **base,
            "type": "assistant",
            "message": {
                "id": mid,
                "role": "assistant",
                "content": [{"type": "text", "text": f"I will edit app.py for step {n}. " * 8}],
            },
        },
        {
            **base,
            "type": "assistant",
            "message": {
                "id": mid,
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"t{n}",
                        "name": "Edit",
                        "input": {
                            "file_path": "/home/u/proj/src/app.py",
                            "old_string": big[:3000],
                            "new_string": big[:3000],
                        },
                    }
                ],
            },
        },
        {
            **base,
            "type": "user",
            "toolUseResult": {"file": big[:2000]},
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": f"t{n}", "content": big}],
            },
        },
        {
            **base,
            "type": "attachment",
            "attachment": {"type": "hook_additional_context", "content": "injected " * 300},
        },
        {"type": "file-history-snapshot", "messageId": mid, "snapshot": {"files": big[:8000]}},
        {**base, "type": "system", "subtype": "info", "content": "note " * 50},
    ]
    return "".join(_line(r) for r in rows)


def generate(path: Path, size_mb: int) -> int:
    target = size_mb * 1024 * 1024
    written = 0
    n = 0
    with path.open("w", encoding="utf-8") as handle:
        while written < target:
            chunk = "".join(_round(n + i) for i in range(16))
            handle.write(chunk)
            written += len(chunk.encode("utf-8"))
            n += 16
    return path.stat().st_size


def measure(path: Path, budget: int) -> dict[str, float]:
    from vaultkit.session.transcripts.condense import condense

    start = time.perf_counter()
    digest = condense(path, budget)
    seconds = time.perf_counter() - start
    size_mb = path.stat().st_size / (1024 * 1024)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "size_mb": round(size_mb, 1),
        "seconds": round(seconds, 2),
        "mb_per_s": round(size_mb / seconds, 1),
        "peak_rss_mb": round(peak_kb / 1024, 1),
        "condensed_chars": len(digest.text),
        "turns": digest.turns,
        "lines": digest.lines,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size-mb", type=int, default=300)
    parser.add_argument("--budget", type=int, default=60_000)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure, args.budget)))
        return 0
    with tempfile.TemporaryDirectory(prefix="vaultkit-bench-", dir="/tmp") as tmp:
        path = Path(tmp) / "transcript.jsonl"
        generate(path, args.size_mb)
        child = [sys.executable, os.path.abspath(__file__), "--measure", str(path)]
        out = subprocess.run(
            [*child, "--budget", str(args.budget)], capture_output=True, text=True, check=True
        )
    result = json.loads(out.stdout)
    ok = result["mb_per_s"] >= TARGET_MB_S and result["peak_rss_mb"] <= TARGET_RSS_MB
    for key, value in result.items():
        print(f"{key:>16}: {value}")
    print(
        f"{'verdict':>16}: {'ok' if ok else 'below target'} "
        f"(targets: >= {TARGET_MB_S} MB/s, <= {TARGET_RSS_MB} MB peak RSS)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
