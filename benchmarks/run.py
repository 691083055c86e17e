"""Run every benchmark side by side and print medians, min/max and ratios against the baselines.

Usage: ``.venv/bin/python -m benchmarks [--quick] [--runs N] [--sizes 1000,10000,100000]
[--real-vault PATH ...] [--only vaults|real-vaults|hooks|condense|cli]``.
Every timed run is a fresh child process (``benchmarks.task``), and the contenders of one
measure take turns run by run, so machine noise hits them alike; ratios are what to read.
Synthetic vaults are generated once into ``$VAULTKIT_BENCH_DIR`` (default /tmp/vaultkit-bench).
Results are also written as JSON to ``benchmarks/out/results.json`` (or ``--json PATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.generate import PROFILES, ensure_vault

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
EXAMPLE_VAULT = REPO / "examples" / "sessions" / "wiki"
FULL_SIZES = (1000, 10_000, 100_000)
QUICK_SIZES = (300,)
OBSIDIANTOOLS_MAX = 1000  # at 5-90 ms a note (2 busy cores), larger vaults take too long
COLD_REPEAT_MAX = 10_000  # larger vaults: one cold run, the one that also fills the cache
TASK_TIMEOUT_S = 3600
SECTIONS = ("vaults", "real-vaults", "hooks", "condense", "cli")


@dataclass(slots=True)
class Series:
    """The samples of one contender in one measure."""

    name: str
    seconds: list[float] = field(default_factory=list)
    cpu_s: list[float] = field(default_factory=list)  # whole-process contenders only
    peak_rss_mb: float = 0.0
    worker_peak_rss_mb: float = 0.0
    count: int = 0

    def add(self, result: dict[str, Any]) -> None:
        self.seconds.append(float(result["seconds"]))
        if "cpu_s" in result:
            self.cpu_s.append(float(result["cpu_s"]))
        self.peak_rss_mb = max(self.peak_rss_mb, float(result["peak_rss_mb"]))
        self.worker_peak_rss_mb = max(
            self.worker_peak_rss_mb, float(result.get("worker_peak_rss_mb", 0.0))
        )
        self.count = int(result["count"])

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def summary(self) -> dict[str, Any]:
        return {
            "runs": len(self.seconds),
            "median_s": self.median,
            "min_s": min(self.seconds),
            "max_s": max(self.seconds),
            "peak_rss_mb": round(self.peak_rss_mb, 1),
            "worker_peak_rss_mb": round(self.worker_peak_rss_mb, 1),
            "count": self.count,
        } | ({"median_cpu_s": statistics.median(self.cpu_s)} if self.cpu_s else {})


def _child_json(argv: list[str], what: str) -> dict[str, Any]:
    """Run ``python argv...`` in the repository; its stdout is one JSON object."""
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TASK_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_task(name: str, vault: Path) -> dict[str, Any]:
    """One fresh child process running one task once (a whole-process one: see ``WHOLE``)."""
    if name in WHOLE:
        return run_whole(name, vault)
    return _child_json(["-m", "benchmarks.task", name, str(vault)], f"task {name} on {vault}")


_OTOOLS_CODE = (
    "import sys; from pathlib import Path; from obsidiantools.api import Vault; "
    "Vault(Path(sys.argv[1])).connect()"
)
# Whole-process contenders, what a user waits for: start-up, imports, work, output, exit.
WHOLE: dict[str, Callable[[Path], list[str]]] = {
    "cli-graph": lambda vault: [str(BIN / "vaultkit"), "graph", str(vault)],
    "cli-lint": lambda vault: [str(BIN / "vaultkit"), "lint", str(vault)],
    "py-obsidiantools": lambda vault: [sys.executable, "-c", _OTOOLS_CODE, str(vault)],
}


# What a user's shell gives an installed tool: bytecode written and reused. This machine sets
# PYTHONDONTWRITEBYTECODE, which made every vaultkit process compile its modules from source
# while obsidiantools ran from the bytecode pip compiled; vaultkit's goes to a cache of its own.
WHOLE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
WHOLE_ENV["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "vaultkit-bench-pycache")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_whole(name: str, vault: Path) -> dict[str, Any]:
    """Run one whole-process contender once, timed from outside; ``cli-graph`` runs cold
    (the vault's derived state is deleted first, untimed). Output goes to /dev/null."""
    if name == "cli-graph":
        _drop_cache(vault)
    argv = WHOLE[name](vault)
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        argv, cwd=REPO, env=WHOLE_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode not in ((0, 1) if name == "cli-lint" else (0,)):  # 1: error findings
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr.decode()}")
    return {"task": name, "seconds": seconds, "cpu_s": cpu, "peak_rss_mb": 0.0, "count": 0}


def side_by_side(names: Sequence[str], vault: Path, runs: int) -> dict[str, Series]:
    """``runs`` rounds; in each round every contender runs once, in turn. A whole-process
    contender first runs once untimed, so its bytecode is written as an installed tool's is."""
    series = {name: Series(name) for name in names}
    for name in names:
        if name in WHOLE:
            run_whole(name, vault)
    for _ in range(runs):
        for name in names:
            series[name].add(run_task(name, vault))
    return series


def _fmt(series: Series) -> str:
    s = series.summary()
    head = (
        f"{series.name:<16} median {s['median_s']:8.3f} s  min {s['min_s']:8.3f}  "
        f"max {s['max_s']:8.3f}"
    )
    if series.cpu_s:
        return head + f"  CPU {s['median_cpu_s']:7.3f} s   (whole process)"
    return (
        head
        + f"  peak RSS {s['peak_rss_mb']:7.1f} MB"
        + (f" (workers {s['worker_peak_rss_mb']:.0f} MB)" if s["worker_peak_rss_mb"] else "")
    )


def _ratio(label: str, top: Series, bottom: Series, target: str) -> dict[str, Any]:
    value = top.median / bottom.median
    print(f"  ratio {label:<44} {value:7.2f}x   target {target}")
    return {"label": label, "ratio": value, "target": target}


def _drop_cache(vault: Path) -> None:
    shutil.rmtree(vault / ".vaultkit", ignore_errors=True)


def bench_cold(vault: Path, runs: int, with_otools: bool) -> dict[str, Any]:
    """Cold graph build: vaultkit without cache vs the regex pipeline and obsidiantools, in
    process (the work only) and as whole processes (``vaultkit graph`` vs a script that
    imports obsidiantools and connects), all in the same rounds."""
    names = ["walk", "regex", "vk-cold", "cli-graph"]
    names += ["obsidiantools", "py-obsidiantools"] if with_otools else []
    series = side_by_side(names, vault, runs)
    for item in series.values():
        print("  " + _fmt(item))
    vk = series["vk-cold"]
    ratios = [_ratio("cold graph build / bare regex pipeline", vk, series["regex"], "<= 3x")]
    if with_otools:
        for label, ours, theirs in (
            ("in process", vk, series["obsidiantools"]),
            ("whole process", series["cli-graph"], series["py-obsidiantools"]),
        ):
            value = theirs.median / ours.median
            print(f"  speed-up vs obsidiantools, {label:<25}{value:7.2f}x   target >= 20x")
            ratios.append(
                {
                    "label": f"obsidiantools / vaultkit cold, {label}",
                    "ratio": value,
                    "target": ">= 20x",
                }
            )
    return {"series": {k: v.summary() for k, v in series.items()}, "ratios": ratios}


def bench_first_run(vault: Path) -> dict[str, Any]:
    """One cold build that also fills the cache (what a first `vaultkit lint` pays)."""
    _drop_cache(vault)
    first = Series("vk-first")
    first.add(run_task("vk-graph", vault))
    print("  " + _fmt(first) + "   (single run: cold build + cache write)")
    return first.summary()


def bench_warm(vault: Path, runs: int) -> dict[str, Any]:
    """Warm lint (nothing changed) vs a bare stat walk; one note edited then lint."""
    run_task("vk-lint", vault)  # make sure the cache is current
    series = side_by_side(["walk", "vk-lint", "cli-lint", "vk-edit-lint"], vault, runs)
    for item in series.values():
        print("  " + _fmt(item))
    warm, edit = series["vk-lint"], series["vk-edit-lint"]
    ratios = [
        _ratio("warm lint / bare stat walk", warm, series["walk"], "<= 3x and < 2 s"),
        _ratio("one note edited, lint / warm lint", edit, warm, "<= 1.2x"),
    ]
    whole = series["cli-lint"].median
    print(f"  warm `vaultkit lint`, whole process{'':<17}{whole:7.3f} s   target <= 0.150 s")
    return {"series": {k: v.summary() for k, v in series.items()}, "ratios": ratios}


def bench_big_cold(vault: Path) -> dict[str, Any]:
    """One cold run (which also fills the cache) beside one regex and one walk run."""
    _drop_cache(vault)
    series = {name: Series(name) for name in ("walk", "regex", "vk-first")}
    for name in ("walk", "regex"):
        series[name].add(run_task(name, vault))
    series["vk-first"].add(run_task("vk-graph", vault))
    for item in series.values():
        print("  " + _fmt(item) + "   (1 run: too slow to repeat on this machine)")
    ratio = _ratio(
        "cold build + cache write / bare regex", series["vk-first"], series["regex"], "<= 3x"
    )
    return {"series": {k: v.summary() for k, v in series.items()}, "ratios": [ratio]}


def bench_vault(notes: int, args: argparse.Namespace, runs: int) -> dict[str, Any]:
    vault = ensure_vault(notes, profile=args.profile)
    print(f"\n== {vault.name} ({vault})")
    result: dict[str, Any] = {}
    if notes > args.cold_repeat_max:
        result["cold_once"] = bench_big_cold(vault)
    else:
        otools = notes <= args.obsidiantools_max and not args.skip_obsidiantools
        _drop_cache(vault)
        result["cold"] = bench_cold(vault, runs, otools and _has_obsidiantools())
        result["first"] = bench_first_run(vault)
    result["warm"] = bench_warm(vault, runs)
    return result


def vault_label(vault: Path) -> str:
    """How a real vault is named in the output: relative to the repository when inside it."""
    resolved = vault.resolve()
    return str(resolved.relative_to(REPO)) if resolved.is_relative_to(REPO) else str(vault)


def count_markdown(vault: Path) -> int:
    """The number of ``.md`` files outside dot-folders (the notes a tool has to parse)."""
    count = 0
    for _folder, dirs, files in os.walk(vault):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        count += sum(name.endswith(".md") for name in files)
    return count


def graph_counts(vault: Path, with_otools: bool) -> dict[str, Any]:
    """Nodes and edges each contender's graph has (one untimed child process, a sanity check)."""
    code = "import json,sys; from benchmarks import baselines; from pathlib import Path; "
    code += "print(json.dumps(baselines.graph_sizes(Path(sys.argv[1]), sys.argv[2] == '1')))"
    argv = ["-c", code, str(vault), "1" if with_otools else "0"]
    counts = _child_json(argv, f"counting the graphs of {vault}")
    for name, sizes in counts.items():
        detail = ", ".join(f"{key} {value:,}" for key, value in sizes.items())
        print(f"  {name:<14} {detail}")
    return counts


def bench_real_vault(vault: Path, args: argparse.Namespace, runs: int) -> dict[str, Any]:
    """A real vault: vaultkit cold vs the regex pipeline, and obsidiantools when small enough."""
    notes = count_markdown(vault)
    print(f"\n== real vault: {vault_label(vault)} ({notes:,} notes)")
    otools = not args.skip_obsidiantools and _has_obsidiantools()
    if otools and notes > args.obsidiantools_max:
        print(f"  (obsidiantools skipped: {notes:,} notes > --obsidiantools-max)")
        otools = False
    result = bench_cold(vault, runs, otools)
    result["notes"] = notes
    result["graphs"] = graph_counts(vault, otools)
    if args.real_vault_warm:
        result["warm"] = bench_real_warm(vault, runs)
    return result


def bench_real_warm(vault: Path, runs: int) -> dict[str, Any]:
    """Warm lint of a real vault (nothing changed), in process and whole process; it leaves
    the caches in the vault's state folder (no note is edited)."""
    run_task("vk-lint", vault)  # fill the caches
    series = side_by_side(["walk", "vk-lint", "cli-lint"], vault, runs)
    for item in series.values():
        print("  " + _fmt(item))
    whole = series["cli-lint"].median
    print(f"  warm `vaultkit lint`, whole process{'':<17}{whole:7.3f} s   target <= 0.150 s")
    return {"series": {k: v.summary() for k, v in series.items()}}


def _has_obsidiantools() -> bool:
    probe = [sys.executable, "-c", "import obsidiantools.api"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def run_script(argv: list[str]) -> dict[str, Any]:
    """Run another benchmark script of this folder and pass its output through."""
    script = REPO / "benchmarks" / argv[0]
    if not script.is_file():
        print(f"  ({argv[0]} not found; skipped)")
        return {"skipped": True}
    done = subprocess.run(
        [sys.executable, str(script), *argv[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TASK_TIMEOUT_S,
        check=False,
    )
    print("  " + done.stdout.strip().replace("\n", "\n  "))
    if done.returncode != 0:
        print("  " + done.stderr.strip().replace("\n", "\n  "))
    return {"exit_code": done.returncode, "output": done.stdout}


def _vault_dir(text: str) -> Path:
    path = Path(text).expanduser()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a folder: {text}")
    return path


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, 2 runs: a smoke run")
    parser.add_argument("--runs", type=int, default=None, help="runs per measure (default 5)")
    parser.add_argument(
        "--sizes", default=None, help="comma-separated note counts ('' for no synthetic vault)"
    )
    parser.add_argument(
        "--profile",
        choices=PROFILES,
        default="plain",
        help="synthetic vaults: plain notes, or real-like ones (callouts, tables, HTML, ...)",
    )
    parser.add_argument("--skip-obsidiantools", action="store_true")
    parser.add_argument("--skip-real-vault", action="store_true")
    parser.add_argument(
        "--real-vault",
        type=_vault_dir,
        action="append",
        default=None,
        metavar="PATH",
        help="a local vault to measure cold against obsidiantools and regex (repeatable; "
        "default: the bundled examples wiki)",
    )
    parser.add_argument(
        "--real-vault-warm",
        action="store_true",
        help="also time a warm lint of each --real-vault (leaves its caches in the vault)",
    )
    parser.add_argument(
        "--obsidiantools-max",
        type=int,
        default=OBSIDIANTOOLS_MAX,
        help="largest vault, in notes, obsidiantools runs on, synthetic or real (default "
        f"{OBSIDIANTOOLS_MAX})",
    )
    parser.add_argument("--cold-repeat-max", type=int, default=COLD_REPEAT_MAX)
    parser.add_argument("--skip-scripts", action="store_true", help="no hooks/condense/cli scripts")
    parser.add_argument(
        "--only",
        choices=SECTIONS,
        default=None,
        help="run this section alone (e.g. --only cli: CLI start-up, a few seconds)",
    )
    parser.add_argument("--condense-mb", type=int, default=None, help="transcript size")
    parser.add_argument("--json", type=Path, default=REPO / "benchmarks" / "out" / "results.json")
    return parser.parse_args(argv)


def _wanted(args: argparse.Namespace, section: str) -> bool:
    if args.only is not None:
        return bool(args.only == section)
    if section == "real-vaults":
        return not args.skip_real_vault
    return section == "vaults" or not args.skip_scripts


def _scripts(args: argparse.Namespace, runs: int) -> dict[str, Any]:
    """The benchmark scripts of this folder that ``args`` asks for, one result each."""
    results: dict[str, Any] = {}
    if _wanted(args, "hooks"):
        print("\n== hooks")
        results["hooks"] = run_script(["bench_hooks.py", "--runs", str(max(runs, 5))])
    if _wanted(args, "condense"):
        print("\n== condense")
        size = args.condense_mb or (5 if args.quick else 300)
        results["condense"] = run_script(["bench_condense.py", "--size-mb", str(size)])
    if _wanted(args, "cli"):
        print("\n== cli start-up")
        results["cli"] = run_script(["bench_cli.py", "--runs", str(runs * 4)])
    return results


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    runs = args.runs or (2 if args.quick else 5)
    sizes = (
        tuple(int(s) for s in args.sizes.split(",") if s.strip())
        if args.sizes is not None
        else QUICK_SIZES
        if args.quick
        else FULL_SIZES
    )
    started = time.time()
    print(f"vaultkit benchmarks: {runs} runs per measure, load average {os.getloadavg()[0]:.2f}")
    results: dict[str, Any] = {"runs": runs, "cpus": os.cpu_count(), "vaults": {}}
    for notes in sizes if _wanted(args, "vaults") else ():
        key = str(notes) if args.profile == "plain" else f"{args.profile}-{notes}"
        results["vaults"][key] = bench_vault(notes, args, runs)
    if _wanted(args, "real-vaults"):
        real = args.real_vault or ([EXAMPLE_VAULT] if EXAMPLE_VAULT.is_dir() else [])
        results["real_vaults"] = {
            vault_label(vault): bench_real_vault(vault, args, runs) for vault in real
        }
    results |= _scripts(args, runs)
    results["elapsed_s"] = time.time() - started
    results["load_average_end"] = os.getloadavg()[0]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\nresults: {args.json} ({results['elapsed_s']:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
