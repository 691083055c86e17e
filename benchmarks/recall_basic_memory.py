"""basic-memory's side of ``bench_recall``: run by a Python 3.12+ that has basic-memory installed.

Reads ``{"vaults": {lang: folder}, "queries": [[lang, text], ...], "depth": N}`` on stdin,
indexes each folder as a basic-memory project (``basic-memory project add``, its own
command), asks every query through its ``search_notes`` tool with ``search_type="text"`` (its
full-text mode, offline), in one process and one event loop, and prints
``{"results": [[path, ...], ...], "timing": {...}}``: each query's distinct note files, best
first. ``$HOME`` should be a scratch folder: basic-memory keeps its database and config there.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _bm(bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "basic-memory"), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )


def _index(bin_dir: Path, lang: str, folder: str) -> float:
    """Add the folder as a project; when its indexing fails (on a busy machine its own
    database is sometimes locked), index it again, as its message says, up to three times."""
    started = time.perf_counter()
    done = _bm(bin_dir, "project", "add", f"help-{lang}", folder)
    for _ in range(3):
        if done.returncode == 0:
            return time.perf_counter() - started
        done = _bm(bin_dir, "project", "index", f"help-{lang}")
    sys.exit(f"basic-memory could not index {folder}: {done.stderr or done.stdout}")


async def _ask(queries: list[list[str]], depth: int) -> tuple[list[list[str]], list[float]]:
    from basic_memory.mcp.tools.search import search_notes  # type: ignore[import-not-found]

    tool: Any = getattr(search_notes, "fn", search_notes)
    results: list[list[str]] = []
    seconds: list[float] = []
    for lang, text in queries:
        started = time.perf_counter()
        try:
            answer = await tool(
                query=text,
                project=f"help-{lang}",
                search_type="text",
                output_format="json",
                page_size=depth * 3,
            )
        except Exception as exc:  # a query it rejects: no result, as the user sees it
            print(f"{text!r}: {exc}", file=sys.stderr)
            answer = {"results": []}
        seconds.append(time.perf_counter() - started)
        paths: list[str] = []
        rows = answer.get("results", []) if isinstance(answer, dict) else []
        for row in rows:
            path = row.get("file_path") or ""
            if path and path not in paths:
                paths.append(path)
        results.append(paths[:depth])
    return results, seconds


def main() -> int:
    request = json.load(sys.stdin)
    os.environ.setdefault("BASIC_MEMORY_LOG_LEVEL", "WARNING")
    bin_dir = Path(sys.executable).parent
    indexing = {lang: _index(bin_dir, lang, folder) for lang, folder in request["vaults"].items()}
    started = time.perf_counter()
    import basic_memory.mcp.tools.search  # type: ignore[import-not-found]  # noqa: F401

    imported = time.perf_counter() - started
    results, seconds = asyncio.run(_ask(request["queries"], int(request["depth"])))
    timing = {
        "index_s": indexing,
        "import_s": imported,
        "query_median_ms": statistics.median(seconds[1:] or seconds) * 1000,
        "first_query_ms": seconds[0] * 1000 if seconds else 0.0,
    }
    json.dump({"results": results, "timing": timing}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
