"""Benchmark: recall on Obsidian's help vault (English, Korean, Chinese, Japanese), keywords and
questions, for vaultkit, ripgrep ranked by match count and basic-memory's full-text search, in
the same run; plus vaultkit's in-process query time and whole-process ``vaultkit search``
against ``python -c pass``.

Usage: ``.venv/bin/python -m benchmarks.bench_recall [--help-vault PATH] [--langs en,ko,zh,ja]
[--runs 15] [--basic-memory-python PATH] [--json PATH]
[--queries all|main|held-out|fresh|fresh2|fresh3|fresh4]``.
``--help-vault`` (or ``$VAULTKIT_HELP_VAULT``) is a checkout of ``obsidianmd/obsidian-help``
(its ``en/``, ``ko/``, ... folders); without it the benchmark clones the repository into
``$VAULTKIT_BENCH_DIR``. The vault is never copied into this repository: each language's notes
are copied into a temporary folder, so no tool writes into the checkout. Queries and right
notes: ``recall_queries.py``, and the held-out questions no ranking change was tuned on:
``recall_heldout.py`` and, each written after the one before it had been read,
``recall_fresh.py``, ``recall_fresh2.py``, ``recall_fresh3.py`` and ``recall_fresh4.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.generate import cache_root
from benchmarks.recall_fresh import FRESH
from benchmarks.recall_fresh import cases as fresh_cases
from benchmarks.recall_fresh2 import FRESH2
from benchmarks.recall_fresh2 import cases as fresh2_cases
from benchmarks.recall_fresh3 import FRESH3
from benchmarks.recall_fresh3 import cases as fresh3_cases
from benchmarks.recall_fresh4 import FRESH4
from benchmarks.recall_fresh4 import cases as fresh4_cases
from benchmarks.recall_heldout import HELDOUT
from benchmarks.recall_heldout import cases as heldout_cases
from benchmarks.recall_queries import FORMS, LANGUAGES, Case, cases

BIN = Path(sys.executable).parent
REPO_URL = "https://github.com/obsidianmd/obsidian-help"
DEPTH = 10  # results looked at per query (MRR counts a right note up to this rank)
_PERMALINK = re.compile(r"^permalink:\s*(\S.*?)\s*$", re.MULTILINE)
_WORD = re.compile(r"\w+")

Ranked = list[str]  # vault-relative paths, best first
Tool = Callable[[str], Ranked]


def help_vault(arg: str | None) -> Path:
    """The checkout of the help vault: the argument, ``$VAULTKIT_HELP_VAULT``, or a clone."""
    given = arg or os.environ.get("VAULTKIT_HELP_VAULT")
    if given:
        root = Path(given).expanduser()
        if not (root / "en").is_dir():
            sys.exit(f"{root}: no en/ folder; pass a checkout of {REPO_URL}")
        return root
    root = cache_root() / "obsidian-help"
    if not (root / "en").is_dir():
        clone = ["git", "clone", "--depth", "1", REPO_URL, str(root)]
        if subprocess.run(clone, check=False).returncode != 0:
            sys.exit(f"could not clone {REPO_URL}; clone it and pass --help-vault PATH")
    return root


def copy_notes(source: Path, target: Path) -> int:
    """Copy every ``.md`` file below ``source`` into ``target``; the number copied."""
    count = 0
    for path in source.rglob("*.md"):
        if any(part.startswith(".") for part in path.relative_to(source).parts):
            continue
        dest = target / path.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
        count += 1
    return count


def permalinks(vault: Path) -> dict[str, str]:
    """permalink -> vault-relative path of each note that has one."""
    found: dict[str, str] = {}
    for path in sorted(vault.rglob("*.md")):
        head = path.read_text(encoding="utf-8", errors="replace")[:2000]
        match = _PERMALINK.search(head)
        if match:
            found.setdefault(match.group(1).strip("'\""), path.relative_to(vault).as_posix())
    return found


# --- the contenders ---------------------------------------------------------------------------


def vaultkit_tool(vault: Path) -> tuple[Tool, Callable[[], None]]:
    """vaultkit's search over an index built once (``search`` as the CLI calls it)."""
    from vaultkit.errors import VaultkitError
    from vaultkit.search.corpus import vault_corpus
    from vaultkit.search.find import Filters, search
    from vaultkit.search.index import opened
    from vaultkit.search.query import parse_query

    context = opened(vault_corpus(vault), update=True)
    conn, _ = context.__enter__()

    def run(text: str) -> Ranked:
        try:
            return [h.path for h in search(conn, parse_query(text), Filters(limit=DEPTH))]
        except VaultkitError:
            return []

    def close() -> None:
        context.__exit__(None, None, None)

    return run, close


def ripgrep_tool(vault: Path) -> Tool:
    """ripgrep: every word of the query as a fixed, case-insensitive pattern; files ranked by
    their number of matches (what an agent's grep gives it)."""
    rg = shutil.which("rg")
    if rg is None:
        sys.exit("rg not found: install ripgrep (apt-get install ripgrep)")

    def run(text: str) -> Ranked:
        words = _WORD.findall(text)
        if not words:
            return []
        argv = [rg, "--count-matches", "-i", "-F", "--glob", "*.md"]
        for word in words:
            argv += ["-e", word]
        out = subprocess.run([*argv, "."], cwd=vault, capture_output=True, text=True, check=False)
        counts = []
        for line in out.stdout.splitlines():
            path, _, count = line.rpartition(":")
            counts.append((-int(count), path.removeprefix("./")))
        return [path for _, path in sorted(counts)[:DEPTH]]

    return run


BM_SCRIPT = Path(__file__).resolve().parent / "recall_basic_memory.py"


def basic_memory_runs(python: str, vaults: dict[str, Path], queries: list[Case]) -> dict[str, Any]:
    """basic-memory's answers, from a child process of its own Python (it needs 3.12), with a
    scratch ``$HOME`` (where it keeps its database)."""
    request = {
        "vaults": {lang: str(path) for lang, path in vaults.items()},
        "queries": [[c.lang, c.text] for c in queries],
        "depth": DEPTH,
    }
    with tempfile.TemporaryDirectory(prefix="vk-basic-memory-") as home:
        env = {**os.environ, "HOME": home, "BASIC_MEMORY_LOG_LEVEL": "WARNING"}
        done = subprocess.run(
            [python, str(BM_SCRIPT)],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            check=False,
            timeout=7200,
            env=env,
        )
    if done.returncode != 0:
        return {"error": (done.stderr or done.stdout).strip()[-2000:]}
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# --- scoring ----------------------------------------------------------------------------------


def rank_of(ranked: Ranked, right: set[str]) -> int:
    """The 1-based rank of the first right note in ``ranked``; 0 when none is there."""
    return next((i for i, path in enumerate(ranked[:DEPTH], 1) if path in right), 0)


def scores(ranks: list[tuple[int, int]]) -> dict[str, float]:
    """P@1, P@5 (a right note in the top five), MRR and the queries with no result, from
    ``(rank, result count)`` pairs."""
    n = len(ranks) or 1
    return {
        "queries": len(ranks),
        "p1": sum(r == 1 for r, _ in ranks) / n,
        "p5": sum(1 <= r <= 5 for r, _ in ranks) / n,
        "mrr": sum(1 / r for r, _ in ranks if r) / n,
        "empty": sum(count == 0 for _, count in ranks),
    }


def evaluate(
    answers: dict[str, list[Ranked]], queries: list[Case], maps: dict[str, dict[str, str]]
) -> dict[str, Any]:
    """Each tool's scores per ``language/form`` (and ``all/form``), and its misses."""
    table: dict[str, Any] = {}
    for tool, lists in answers.items():
        per: dict[tuple[str, str], list[tuple[int, int]]] = {}
        misses: list[dict[str, object]] = []
        for case, ranked in zip(queries, lists, strict=True):
            right = {maps[case.lang][p] for p in case.right if p in maps[case.lang]}
            rank = rank_of(ranked, right)
            per.setdefault((case.lang, case.form), []).append((rank, len(ranked)))
            per.setdefault(("all", case.form), []).append((rank, len(ranked)))
            if rank != 1:
                miss = {"lang": case.lang, "form": case.form, "query": case.text}
                misses.append({**miss, "rank": rank, "top": ranked[:3]})
        table[tool] = {f"{lang}/{form}": scores(r) for (lang, form), r in per.items()}
        table[tool]["misses"] = misses
    return table


# --- timing -----------------------------------------------------------------------------------


def _stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "min_ms": ordered[0] * 1000,
        "max_ms": ordered[-1] * 1000,
        "p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] * 1000,
    }


def in_process(tool: Tool, queries: list[Case], runs: int) -> dict[str, dict[str, float]]:
    """Per form: the time of one query, every query asked ``runs`` times."""
    samples: dict[str, list[float]] = {
        form: [] for form in (*FORMS, HELDOUT, FRESH, FRESH2, FRESH3, FRESH4)
    }
    for _ in range(runs):
        for case in queries:
            started = time.perf_counter()
            tool(case.text)
            samples[case.form].append(time.perf_counter() - started)
    return {form: _stats(values) for form, values in samples.items() if values}


def _timed_process(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, env=env, capture_output=True, check=False, timeout=600)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def whole_process(vaults: dict[str, Path], queries: list[Case], runs: int) -> dict[str, Any]:
    """``vaultkit search QUESTION VAULT`` (index current) against ``python -c pass``, in turns."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    asked = {c.lang: c for c in reversed(queries) if c.form == "question"}
    contenders = {"python -c pass": [sys.executable, "-c", "pass"]}
    for lang, case in sorted(asked.items()):
        contenders[f"vaultkit search ({lang} question)"] = [
            str(BIN / "vaultkit"),
            "search",
            "-q",
            case.text,
            str(vaults[lang]),
        ]
    for argv in contenders.values():  # warm: bytecode written, index current
        _timed_process(argv, env)
    walls: dict[str, list[float]] = {name: [] for name in contenders}
    cpus: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(runs):
        for name, argv in contenders.items():
            wall, cpu = _timed_process(argv, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    out: dict[str, Any] = {
        name: {**_stats(walls[name]), "cpu_median_ms": statistics.median(cpus[name]) * 1000}
        for name in contenders
    }
    base = out["python -c pass"]["median_ms"]
    out["target_ms"] = 3 * base + 50
    return out


# --- the run ----------------------------------------------------------------------------------


def _print_table(table: dict[str, Any], langs: tuple[str, ...]) -> None:
    print("| tool | language | form | P@1 | P@5 | MRR | no result |")
    print("|---|---|---|---|---|---|---|")
    for tool, rows in table.items():
        if "error" in rows:
            print(f"| {tool} | - | - | {rows['error'][:120]} | | | |")
            continue
        for lang in (*langs, "all"):
            for form in (*FORMS, HELDOUT, FRESH, FRESH2, FRESH3, FRESH4):
                row = rows.get(f"{lang}/{form}")
                if row is None:
                    continue
                print(
                    f"| {tool} | {lang} | {form} | {row['p1']:.2f} | {row['p5']:.2f}"
                    f" | {row['mrr']:.2f} | {row['empty']} of {row['queries']} |"
                )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--help-vault", help="checkout of obsidianmd/obsidian-help")
    parser.add_argument("--langs", default=",".join(LANGUAGES))
    parser.add_argument("--runs", type=int, default=15, help="rounds of each timing")
    parser.add_argument("--basic-memory-python", help="a Python 3.12+ with basic-memory installed")
    parser.add_argument("--json", help="where to write the results (default benchmarks/out/)")
    parser.add_argument(
        "--queries",
        choices=("all", "main", "held-out", "fresh", "fresh2", "fresh3", "fresh4"),
        default="all",
        help="one set (recall_queries, _heldout, _fresh .. _fresh4) or all (default)",
    )
    args = parser.parse_args(argv)
    langs = tuple(lang for lang in args.langs.split(",") if lang)
    root = help_vault(args.help_vault)
    queries = cases(langs) if args.queries in ("all", "main") else []
    if args.queries in ("all", "held-out"):
        queries += heldout_cases(langs)
    if args.queries in ("all", "fresh"):
        queries += fresh_cases(langs)
    if args.queries in ("all", "fresh2"):
        queries += fresh2_cases(langs)
    if args.queries in ("all", "fresh3"):
        queries += fresh3_cases(langs)
    if args.queries in ("all", "fresh4"):
        queries += fresh4_cases(langs)
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="vk-recall-") as tmp:
        vaults = {lang: Path(tmp) / lang for lang in langs}
        notes = {lang: copy_notes(root / lang, vaults[lang]) for lang in langs}
        maps = {lang: permalinks(vaults[lang]) for lang in langs}
        result = _measure(args, langs, queries, vaults, maps)
    result.update(notes=notes, load=os.getloadavg()[0], seconds=round(time.time() - started))
    _print_table(result["scores"], langs)
    print(json.dumps({k: result[k] for k in ("timing", "notes", "load")}, indent=1))
    out = Path(args.json) if args.json else Path(__file__).parent / "out" / "recall.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


def _measure(
    args: argparse.Namespace,
    langs: tuple[str, ...],
    queries: list[Case],
    vaults: dict[str, Path],
    maps: dict[str, dict[str, str]],
) -> dict[str, Any]:
    tools = {lang: vaultkit_tool(vaults[lang]) for lang in langs}
    rgs = {lang: ripgrep_tool(vaults[lang]) for lang in langs}
    answers: dict[str, list[Ranked]] = {
        "vaultkit": [tools[c.lang][0](c.text) for c in queries],
        "ripgrep": [rgs[c.lang](c.text) for c in queries],
    }
    timing: dict[str, Any] = {}
    for lang in langs:
        asked = [c for c in queries if c.lang == lang]
        timing[f"in-process {lang}"] = in_process(tools[lang][0], asked, args.runs)
    for _, close in tools.values():
        close()
    timing["whole-process"] = whole_process(vaults, queries, args.runs)
    if args.basic_memory_python:
        bm = basic_memory_runs(args.basic_memory_python, vaults, queries)
        if "error" in bm:
            print(f"basic-memory failed: {bm['error']}", file=sys.stderr)
        else:
            answers["basic-memory"] = bm["results"]
            timing["basic-memory"] = bm.get("timing", {})
    table = evaluate(answers, queries, maps)
    if args.basic_memory_python and "basic-memory" not in answers:
        table["basic-memory"] = {"error": bm["error"]}
    return {"scores": table, "timing": timing}


if __name__ == "__main__":
    sys.exit(main())
