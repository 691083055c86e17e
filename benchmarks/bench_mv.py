"""Benchmark: ``vaultkit mv`` of a note with 100 backlinks in a 10k-note vault, warm cache.

Usage: ``.venv/bin/python benchmarks/bench_mv.py [--notes 10000] [--runs 5] [--json]``.
A generated vault (benchmarks/generate.py) gets a note ``Moving target`` that 100 other notes
link to (wikilink, subpath and display, embed, Markdown link: one each); the note cache is warmed
by one ``vaultkit stats``. Each round, side by side so machine noise hits them alike: ``python
-c pass``, ``vaultkit stats VAULT`` (a whole-process warm load, the baseline mv cannot beat),
``vaultkit mv`` (whole process) renaming the note back and forth, and the same move in process
(``vaultkit.curate.apply.move``, imports done). Target (issue 25): whole process within 1 s.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import write_vault

BACKLINKS = 100
FORMS = ("[[{n}]]", "[[{n}#Intro|the target]]", "![[{n}]]", "[t]({q}.md)")


def _prepare(root: Path, notes: int) -> None:
    write_vault(root, notes)
    (root / "Moving target.md").write_text("# Moving target\n\n## Intro\n", encoding="utf-8")
    sources = sorted(p for p in root.rglob("*.md") if p.name != "Moving target.md")
    for number, path in enumerate(sources[:BACKLINKS]):
        form = FORMS[number % len(FORMS)].format(n="Moving target", q="Moving%20target")
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\nSee {form}.\n")


def _clock(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from vaultkit.curate.apply import move

    script = str(Path(sys.executable).parent / "vaultkit")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "vault"
        _prepare(root, args.notes)
        subprocess.run([script, "stats", str(root)], capture_output=True, check=False)
        rows: dict[str, list[float]] = {k: [] for k in ("python -c pass", "stats", "mv", "move()")}
        names = ["Moving target.md", "Moved target.md"]
        for _ in range(args.runs):
            rows["python -c pass"].append(_clock([sys.executable, "-c", "pass"]))
            rows["stats"].append(_clock([script, "stats", str(root)]))
            rows["mv"].append(_clock([script, "mv", "--vault", str(root), *names]))
            names.reverse()
            start = time.perf_counter()
            outcome = move(root, *names)
            rows["move()"].append(time.perf_counter() - start)
            assert len(outcome.rewrites) == BACKLINKS, len(outcome.rewrites)
            names.reverse()
        shutil.rmtree(root)
    medians = {k: statistics.median(v) * 1000 for k, v in rows.items()}
    if args.json:
        print(json.dumps({"notes": args.notes, "median_ms": medians}, indent=2))
        return
    base = medians["stats"]
    for name, ms in medians.items():
        print(f"{name:16} {ms:8.1f} ms  ({ms / base:.2f}x warm stats)")


if __name__ == "__main__":
    main()
