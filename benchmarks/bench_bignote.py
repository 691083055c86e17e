"""Benchmark: ``vaultkit lint`` of one huge note, whole process: wall time, CPU and peak RSS.

Usage: ``.venv/bin/python -m benchmarks.bench_bignote [--size-mb 50] [--baseline DIR]``.
Two vaults, each a huge ``Big.md`` and a small ``Other.md``: *sparse* (prose, a link every 25
lines, as tests/vault/test_big_note.py writes it) and *dense* (a link on every line, about 1.6
million in 50 MB, every one resolving). Each runs ``python -m vaultkit lint --no-cache VAULT`` as a
fresh process; its CPU comes from ``os.wait4``, its peak RSS from its own ``VmHWM`` (Linux).
``--baseline DIR`` runs the vaultkit package in DIR (``git archive COMMIT vaultkit | tar -x -C
DIR``) in the same rounds. Target (issue 11): at most 300 MB RSS and seconds for a 50 MB note.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("alpha", "beta", "gamma", "delta", "notes", "about", "the", "thing", "we", "logged")
TARGET_MB = 300


def _sparse_line(rng: random.Random, i: int) -> str:
    line = " ".join(rng.choice(WORDS) for _ in range(14))
    return line + (" see [[Other]]\n" if i % 25 == 0 else "\n")


def _dense_line(rng: random.Random, i: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(4))
    return words + (" [[Other]]\n" if i % 2 else " [[Big]]\n")


def write_note(folder: Path, size: int, dense: bool) -> int:
    """Write the vault; returns how many links ``Big.md`` has."""
    rng = random.Random(5)
    make = _dense_line if dense else _sparse_line
    chunks, written, links, i = ["# Big\n\n"], 0, 0, 0
    while written < size:
        line = make(rng, i) + ("\n" if i % 8 == 7 else "")
        links += line.count("[[")
        chunks.append(line)
        written += len(line)
        i += 1
    folder.mkdir(parents=True)
    (folder / "Big.md").write_text("".join(chunks), encoding="utf-8")
    (folder / "Other.md").write_text("[[Big]]\n", encoding="utf-8")
    return links


# ``python -m vaultkit ARGS`` that writes its own peak RSS (VmHWM, kB) to argv[1] on the way out:
# Linux carries the forking process's peak into a child's getrusage figure, and this process
# held the note it wrote.
PEAK = """
import runpy, sys
out, sys.argv = sys.argv[1], ["vaultkit", *sys.argv[2:]]
try:
    runpy.run_module("vaultkit", run_name="__main__", alter_sys=True)
finally:
    with open("/proc/self/status") as status, open(out, "w") as peak:
        peak.write(next(line for line in status if line.startswith("VmHWM:")))
"""


def measure(vault: Path, baseline: Path | None) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS (MB) and the exit status of one lint process."""
    env = dict(os.environ)
    if baseline is not None:
        env["PYTHONPATH"] = str(baseline)
    peak = vault.parent / "peak.txt"
    command = [sys.executable, "-c", PEAK, str(peak), "lint", "--no-cache", "-q", str(vault)]
    started = time.perf_counter()
    # run from the vault's parent: ``-m`` puts the working folder first on sys.path, before
    # PYTHONPATH, so a run from the repository would take its vaultkit for the baseline's
    child = subprocess.Popen(command, env=env, cwd=vault.parent, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    rss = int(peak.read_text().split()[1]) / 1024
    return wall, usage.ru_utime + usage.ru_stime, rss, child.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=50)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--baseline", type=Path, default=None, help="also run vaultkit from DIR")
    args = parser.parse_args()
    contenders: list[tuple[str, Path | None]] = [("vaultkit", None)]
    if args.baseline is not None:
        contenders.append(("baseline", args.baseline.resolve()))
    ok = True
    with tempfile.TemporaryDirectory(prefix="vk-bignote-") as tmp:
        for shape in ("sparse", "dense"):
            vault = Path(tmp) / shape
            links = write_note(vault, args.size_mb * 1_000_000, dense=shape == "dense")
            for _ in range(args.runs):
                for name, where in contenders:
                    wall, cpu, rss, code = measure(vault, where)
                    within = rss <= TARGET_MB
                    ok = ok and (within or name == "baseline")
                    print(
                        f"{shape:6} {args.size_mb} MB, {links:>9,} links  {name:9}"
                        f"  wall {wall:6.1f} s  cpu {cpu:6.1f} s  peak RSS {rss:6.0f} MB"
                        f"  {'OK' if within else 'OVER ' + str(TARGET_MB) + ' MB'}  exit {code}"
                    )
    print(f"load average {os.getloadavg()[0]:.2f} (1 min; {os.cpu_count()} cores)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
