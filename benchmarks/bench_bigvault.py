"""Benchmark: ``vaultkit graph`` and ``vaultkit lint`` of a big vault, whole process (issue 23).

Usage: ``.venv/bin/python -m benchmarks.bench_bigvault [--notes 16500] [--baseline DIR]``.
The vault is ``benchmarks.generate``'s ``big`` profile (16,500 notes, about 200 MB, a long tail of
notes up to 3 MB), generated once into the cache. Four runs, each a fresh ``python -m vaultkit``:
``graph VAULT`` cold (``VAULT/.vaultkit`` removed) and warm, then ``lint VAULT`` cold and warm.
Wall time; CPU from ``os.wait4`` (the process and its pool workers, which it waits for); peak RSS
as the largest sum of ``VmRSS`` over the process and all its descendants, sampled every 20 ms from
``/proc`` (Linux), so pool workers count while they run beside the parent. ``--baseline DIR`` runs
the vaultkit package in DIR (``git archive COMMIT vaultkit | tar -x -C DIR``) in the same rounds.
Targets: at most 600 MB for both, cold lint within 30 s, warm lint within 3 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from benchmarks.generate import ensure_vault

TARGET_MB = 600
TARGET_SECONDS = {"lint cold": 30.0, "lint warm": 3.0}
SAMPLE_SECONDS = 0.02


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(child) for child in children.read().split()]
    except OSError:
        return []


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss_kb(root: int) -> int:
    """The summed resident memory of ``root`` and all its descendants now."""
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _rss_kb(pid)
        todo.extend(_children(pid))
    return total


class PeakSampler(threading.Thread):
    """Samples a process tree's summed RSS until told to stop; ``peak_kb`` is the largest."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peak_kb, self.done = root, 0, threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            self.peak_kb = max(self.peak_kb, tree_rss_kb(self.root))
            self.done.wait(SAMPLE_SECONDS)


def measure(
    command: list[str], baseline: Path | None, cwd: Path
) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak tree RSS (MB) and the exit status of one process."""
    env = dict(os.environ)
    if baseline is not None:
        env["PYTHONPATH"] = str(baseline)
    started = time.perf_counter()
    # run from outside the repository: ``-m`` puts the working folder first on sys.path
    child = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL)
    sampler = PeakSampler(child.pid)
    sampler.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    sampler.done.set()
    sampler.join()
    cpu = usage.ru_utime + usage.ru_stime
    return (
        wall,
        cpu,
        max(sampler.peak_kb, usage.ru_maxrss) / 1024,
        os.waitstatus_to_exitcode(status),
    )


def _verdict(step: str, wall: float, rss: float) -> str:
    over = [f"over {TARGET_MB} MB"] if rss > TARGET_MB else []
    if step in TARGET_SECONDS and wall > TARGET_SECONDS[step]:
        over.append(f"over {TARGET_SECONDS[step]:g} s")
    return ", ".join(over) or "OK"


def run_round(vault: Path, name: str, where: Path | None) -> bool:
    ok = True
    for step in ("graph cold", "graph warm", "lint cold", "lint warm"):
        command, state = step.split()
        if state == "cold":
            shutil.rmtree(vault / ".vaultkit", ignore_errors=True)
        argv = [sys.executable, "-m", "vaultkit", command, str(vault)]
        if command == "graph":
            argv += ["-o", str(vault.parent / f"{vault.name}-graph.json")]
        else:
            argv += ["-q"]
        wall, cpu, rss, code = measure(argv, where, vault.parent)
        verdict = _verdict(step, wall, rss)
        ok = ok and (verdict == "OK" or name == "baseline")
        print(
            f"{step:10}  {name:9}  wall {wall:6.1f} s  cpu {cpu:6.1f} s  peak RSS {rss:6.0f} MB"
            f"  {verdict}  exit {code}  (load {os.getloadavg()[0]:.2f})",
            flush=True,
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=16_500)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--baseline", type=Path, default=None, help="also run vaultkit from DIR")
    args = parser.parse_args()
    vault = ensure_vault(args.notes, profile="big")
    contenders: list[tuple[str, Path | None]] = [("vaultkit", None)]
    if args.baseline is not None:
        contenders.append(("baseline", args.baseline.resolve()))
    ok = True
    for _ in range(args.runs):
        for name, where in contenders:
            ok = run_round(vault, name, where) and ok
    print(f"load average {os.getloadavg()[0]:.2f} (1 min; {os.cpu_count()} cores)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
