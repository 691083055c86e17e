"""One timed benchmark task, run in a fresh child process: ``python -m benchmarks.task NAME VAULT``.

Prints one JSON object: ``seconds`` (the work only; imports are done before the clock starts),
``peak_rss_mb`` of the process, ``worker_peak_rss_mb`` (the largest pool worker) and ``count``
(what the task produced, as a sanity check).
"""

from __future__ import annotations

import importlib
import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import baselines

EDIT_MARK = "<!-- bench edit -->"


def _vk_cold(root: Path) -> int:
    from vaultkit.vault.graph import build_graph
    from vaultkit.vault.load import load_vault

    return int(build_graph(load_vault(root, cache=False)).number_of_edges())


def _vk_graph(root: Path) -> int:
    from vaultkit.vault.graph import build_graph
    from vaultkit.vault.load import load_vault

    return int(build_graph(load_vault(root)).number_of_edges())


def _vk_lint(root: Path) -> int:
    """What ``vaultkit lint`` runs (minus printing): settings, then the cached lint."""
    from vaultkit.lint.cache.run import lint_vault
    from vaultkit.lint.runner import lint_target

    return len(lint_vault(lint_target(root)).findings)


def _edited_note(root: Path) -> Path:
    return next(p for p in sorted(root.glob("*.md")) if p.name != "INDEX.md")


def edit_one_note(root: Path) -> Path:
    """Change one note's body (toggling a trailing comment line) so its size and mtime change."""
    note = _edited_note(root)
    text = note.read_text(encoding="utf-8")
    if text.endswith(EDIT_MARK + "\n"):
        text = text[: -len(EDIT_MARK) - 1]
    else:
        text += EDIT_MARK + "\n"
    note.write_text(text, encoding="utf-8")
    return note


def _prepare_modules(name: str) -> None:
    """Import what the task needs before the clock starts (import time is not the work)."""
    if name.startswith("vk"):
        import vaultkit.lint.cache.run
        import vaultkit.lint.runner
        import vaultkit.vault.graph
        import vaultkit.vault.load
        import vaultkit.vault.parse  # noqa: F401  (imported on the first parse otherwise)
    elif name == "regex":
        import networkx  # noqa: F401
    elif name == "obsidiantools":
        importlib.import_module("obsidiantools.api")


TASKS: dict[str, Callable[[Path], Any]] = {
    "walk": baselines.stat_walk,
    "regex": lambda root: baselines.regex_graph(root).number_of_edges(),
    "obsidiantools": lambda root: baselines.obsidiantools_graph(root).number_of_edges(),
    "vk-cold": _vk_cold,
    "vk-graph": _vk_graph,
    "vk-lint": _vk_lint,
    "vk-edit-lint": _vk_lint,
}


def run_task(name: str, root: Path) -> dict[str, Any]:
    """Run one task once and measure it."""
    _prepare_modules(name)
    if name == "vk-edit-lint":
        edit_one_note(root)
    started = time.perf_counter()
    count = TASKS[name](root)
    seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "task": name,
        "seconds": seconds,
        "peak_rss_mb": own,
        "worker_peak_rss_mb": workers,
        "count": count,
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in TASKS:
        print(f"usage: python -m benchmarks.task {{{','.join(TASKS)}}} VAULT", file=sys.stderr)
        return 2
    print(json.dumps(run_task(argv[0], Path(argv[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
