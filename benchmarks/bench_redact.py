"""Benchmark: redaction's recall on the credential corpus, its false positives on ordinary session
text, and its speed (in process, and a whole child process beside a bare ``python -c pass``).

Usage: ``.venv/bin/python -m benchmarks.bench_redact [--show] [--runs 5]``. Ordinary text is the
repository's own prose (``*.md`` outside ``tests/``), the example store's transcripts, and the
package's Python source (what tool output shows); ``--show`` prints every line it changed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.secretcorpus import load
from vaultkit.session.transcripts.redact import redact

REPO = Path(__file__).resolve().parent.parent
_TAG = re.compile(r"</?private>", re.IGNORECASE)  # stripping what is marked private is wanted


def ordinary_files() -> dict[str, list[Path]]:
    skip = {".venv", "node_modules", "tests", ".git"}
    prose = [p for p in REPO.rglob("*.md") if not skip & set(p.relative_to(REPO).parts)]
    sessions = sorted((REPO / "examples").rglob("*.jsonl"))
    code = sorted((REPO / "vaultkit").rglob("*.py"))
    return {"prose (*.md)": sorted(prose), "example transcripts": sessions, "source (*.py)": code}


def recall() -> tuple[int, int, list[str]]:
    forms = load()
    missed = [
        f.name for f in forms if f.secret in redact(f.text) or "[REDACTED:" not in redact(f.text)
    ]
    return len(forms), len(forms) - len(missed), missed


def false_positives(files: list[Path], show: bool) -> tuple[int, int]:
    lines = changed = 0
    for path in files:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            lines += 1
            plain = _TAG.sub("<tag>", line)
            if redact(plain) != plain:
                changed += 1
                if show:
                    print(f"  {path.relative_to(REPO)}: {line[:120]}")
    return lines, changed


def _chunks(text: str, lines: int = 40) -> list[str]:
    """The text cut as the condenser feeds it: one message (about 40 lines) at a time."""
    rows = text.splitlines()
    return ["\n".join(rows[i : i + lines]) for i in range(0, len(rows), lines)]


def speed(text: str, runs: int) -> float:
    """Median MB/s of redacting ``text`` message by message in process."""
    chunks = _chunks(text)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for chunk in chunks:
            redact(chunk)
        times.append(time.perf_counter() - start)
    return len(text.encode("utf-8")) / 1e6 / statistics.median(times)


def whole_process(runs: int) -> tuple[float, float]:
    """Median seconds of a child that imports redaction and redacts every ordinary file, beside
    a bare ``python -c pass``, run by turns."""
    child = [sys.executable, "-m", "benchmarks.bench_redact", "--child"]
    bare = [sys.executable, "-c", "pass"]
    mine: list[float] = []
    base: list[float] = []
    for _ in range(runs):
        for command, out in ((child, mine), (bare, base)):
            start = time.perf_counter()
            subprocess.run(command, cwd=REPO, check=True, capture_output=True)
            out.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(base)


def _all_text() -> str:
    files = [p for group in ordinary_files().values() for p in group]
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)
    return _TAG.sub("<tag>", text)  # so no private span hides text from the timing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print every ordinary line changed")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        for chunk in _chunks(_all_text()):
            redact(chunk)
        return
    size, caught, missed = recall()
    print(f"credential corpus: {size} forms, {caught} redacted (recall {caught / size:.1%})")
    for name in missed:
        print(f"  missed: {name}")
    total_lines = total_changed = 0
    for label, files in ordinary_files().items():
        lines, changed = false_positives(files, args.show)
        total_lines, total_changed = total_lines + lines, total_changed + changed
        print(
            f"{label}: {len(files)} files, {lines} lines, {changed} changed ({changed / lines:.2%})"
        )
    print(
        f"false positives: {total_changed} of {total_lines} lines "
        f"({total_changed / total_lines:.2%})"
    )
    text = _all_text()
    print(f"in process: {speed(text, args.runs):.1f} MB/s over {len(text) / 1e6:.1f} MB")
    child, bare = whole_process(args.runs)
    print(
        f"whole process: {child * 1000:.0f} ms vs bare python {bare * 1000:.0f} ms "
        f"({child / bare:.1f}x)"
    )


if __name__ == "__main__":
    main()
