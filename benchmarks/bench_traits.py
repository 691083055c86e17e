"""Benchmark: parse CPU per note for notes heavy in one trait of real vaults, against plain notes.

Usage: ``.venv/bin/python -m benchmarks.bench_traits [--notes 300] [--runs 5] [--vault PATH]``.
For each trait of ``benchmarks.generate.TRAITS`` (callouts, tables, nested lists, HTML, footnotes,
math) it writes notes whose sections are that trait half the time, then parses every note's bytes
in this process with :func:`vaultkit.vault.parse.parse_note` (no file reading, no resolution) and
reports the median CPU per note of ``--runs`` passes, the ratio to plain notes (target: within 2x),
the share of body lines the fast path modelled and the count of regions left to markdown-it.
``--vault`` adds a real vault's notes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import generate
from vaultkit.vault.fastparse import body_plan
from vaultkit.vault.parse import parse_note

TARGET_RATIO = 2.0


def trait_notes(trait: str, notes: int, seed: int = generate.DEFAULT_SEED) -> list[bytes]:
    """The bytes of ``notes`` generated notes heavy in ``trait`` ("plain": the plain profile)."""
    plan = generate.plan_vault(notes, seed)
    rng = random.Random(seed + 1)
    section = generate.trait_section(trait)
    texts = (generate.note_text(rng, plan, n, section=section) for n in range(notes))
    return [text.encode() for text in texts]


def fast_share(datas: Sequence[bytes]) -> tuple[float, int]:
    """The share of body lines that the fast path models (the rest go to markdown-it), and
    how many regions (or whole bodies) go to markdown-it."""
    fast = total = regions = 0
    for data in datas:
        lines = data.decode().split("\n")
        start = lines.index("---", 1) + 1 if lines[0] == "---" else 0
        plan = body_plan(lines, start)
        total += len(lines) - start
        regions += plan is None
        for low, high, blocks in plan or ():
            fast += high - low if blocks is not None else 0
            regions += blocks is None
    return (fast / total if total else 0.0), regions


def cpu_per_note(datas: Sequence[bytes], runs: int) -> float:
    """Median over ``runs`` passes of the CPU seconds one note's parse takes."""
    samples = []
    for _ in range(runs):
        started = time.process_time()
        for number, data in enumerate(datas):
            parse_note(f"n{number}.md", data)
        samples.append((time.process_time() - started) / len(datas))
    return statistics.median(samples)


def vault_notes(root: Path) -> list[bytes]:
    """Every ``.md`` file's bytes outside dot-folders."""
    files = (
        p for p in sorted(root.rglob("*.md")) if not any(part.startswith(".") for part in p.parts)
    )
    return [p.read_bytes() for p in files]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vault", type=Path, action="append", default=[])
    args = parser.parse_args(argv)
    sets = {trait: trait_notes(trait, args.notes) for trait in ("plain", *generate.TRAITS)}
    sets |= {f"vault {path.name}": vault_notes(path) for path in args.vault}
    cpu_per_note(sets["plain"], 1)  # warm the imports and the parser
    base = cpu_per_note(sets["plain"], args.runs)
    print(f"{'notes':<16} {'CPU/note':>10} {'vs plain':>9} {'fast lines':>11} {'md regions':>10}")
    for name, datas in sets.items():
        cost = base if name == "plain" else cpu_per_note(datas, args.runs)
        share, regions = fast_share(datas)
        print(
            f"{name:<16} {cost * 1000:8.3f} ms {cost / base:8.2f}x {share:10.0%} {regions:10d}"
            + ("" if name.startswith("vault") or cost / base <= TARGET_RATIO else "  over 2x")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
