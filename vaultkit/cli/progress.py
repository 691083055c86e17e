"""A tiny progress bar on stderr, shown only when stderr is a terminal and not ``--quiet``."""

from __future__ import annotations

import sys
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

WIDTH = 30
MIN_TOTAL = 200  # small vaults load faster than a bar can be read


def bar(done: int, total: int, width: int = WIDTH) -> str:
    """``[#####.....]  50/100`` (carriage return first, so it redraws in place)."""
    filled = width * done // total if total else width
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"


def progress_for(quiet: bool, stream: TextIO | None = None) -> Callable[[int, int], None] | None:
    """A ``progress(done, total)`` callback for ``load_vault``, or None when no bar is wanted."""
    out = stream or sys.stderr
    if quiet or not out.isatty():
        return None

    def report(done: int, total: int) -> None:
        if total < MIN_TOTAL:
            return
        if done == total or done % max(1, total // 100) == 0:
            out.write(bar(done, total))
            if done == total:
                out.write("\r" + " " * (WIDTH + 24) + "\r")
            out.flush()

    return report
