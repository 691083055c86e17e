"""Benchmark: ``vaultkit mv`` of a note with 100 backlinks in a 10k-note vault, warm cache.

Usage: ``.venv/bin/python benchmarks/bench_mv.py [--notes 10000] [--runs 5] [--json]``.
A generated vault (benchmarks/generate.py) gets a note ``Moving target`` that 100 other notes
link to (wikilink, subpath and display, embed, Markdown link: one each); the note cache is warmed
by one ``vaultkit stats``. Each round, side by side so machine noise hits them alike: ``python
-c pass``, ``vaultkit stats VAULT`` (a whole-process warm load, the baseline mv cannot beat),
``vaultkit mv`` (whole process) renaming the note back and forth, and the same move in process
(``vaultkit.curate.apply.move``, imports done). Target (issue 25): whole process within 1 s.

``--real [PATH]`` adds the real vault of issue 11, the English Obsidian Help vault
(obsidianmd/obsidian-help: PATH, ``$VAULTKIT_HELP_VAULT``, else cloned as
benchmarks/bench_recall.py does; never committed): its ``en/`` is copied, its most linked note
is moved (``vaultkit mv``, whole process, the note cache warmed by ``vaultkit stats`` first)
with the differential check (every link's target after the move is the one before, the moved
note's new path for links to it), and moved back in process, checked the same way.
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


def _targets(root: Path, moves: dict[str, str]) -> dict[str, list[str | None]]:
    """Each note's link targets in order, by the paths they have after ``moves``."""
    from vaultkit.vault.load import load_vault

    found: dict[str, list[str | None]] = {}
    for item in load_vault(root, cache=False).links:
        path = item.resolution.path
        found.setdefault(moves.get(item.source, item.source), []).append(
            None if path is None else moves.get(path, path)
        )
    return found


def _most_linked(root: Path) -> tuple[str, int]:
    from collections import Counter

    from vaultkit.vault.load import load_vault

    counts = Counter(
        i.resolution.path
        for i in load_vault(root, cache=False).links
        if i.resolution.path and i.resolution.path.endswith(".md") and i.source != i.resolution.path
    )
    path, count = counts.most_common(1)[0]
    return str(path), count


def _differential(before: dict[str, list[str | None]], root: Path) -> None:
    after = _targets(root, {})
    if after != before:
        bad = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        raise SystemExit(f"differential check failed in {len(bad)} note(s): {bad[:5]}")


def real_vault(source: Path, script: str) -> dict[str, object]:
    """The move of the help vault's most linked note with a warm note cache, checked
    differentially, and the move back in process (stale rows: the notes the first move
    rewrote), checked the same way."""
    from vaultkit.curate.apply import move

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "help"
        shutil.copytree(source / "en", root, ignore=shutil.ignore_patterns(".vaultkit"))
        old, backlinks = _most_linked(root)
        new = f"Moved/{Path(old).name}"
        before = _targets(root, {old: new})
        subprocess.run([script, "stats", str(root)], capture_output=True, check=False)
        took = _clock([script, "mv", "--vault", str(root), old, new])
        _differential(before, root)
        before = _targets(root, {new: old})
        start = time.perf_counter()
        move(root, new, old)
        back = time.perf_counter() - start
        _differential(before, root)
        notes = sum(1 for _ in root.rglob("*.md"))
    return {
        "vault": "obsidian-help/en",
        "notes": notes,
        "moved": old,
        "backlinks": backlinks,
        "links_checked": sum(len(v) for v in before.values()),
        "differential": "OK (both moves)",
        "mv_ms": took * 1000,
        "move_back_ms": back * 1000,
    }


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
    parser.add_argument("--real", nargs="?", const="", default=None, metavar="PATH")
    parser.add_argument("--only-real", action="store_true", help="skip the generated vault")
    args = parser.parse_args()
    script = str(Path(sys.executable).parent / "vaultkit")
    real = None
    if args.real is not None or args.only_real:
        from benchmarks.bench_recall import help_vault

        real = real_vault(help_vault(args.real or None), script)
        print(json.dumps(real, indent=2))
        if args.only_real:
            return
    _generated(args, script)


def _generated(args: argparse.Namespace, script: str) -> None:
    from vaultkit.curate.apply import move

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
