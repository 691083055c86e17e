"""Pause the cyclic garbage collector while millions of acyclic values are built."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic collection inside the block (restored afterwards if it was on).

    Building a large vault makes millions of small tuples, dicts and slotted values; each
    generation threshold crossed starts a collection that walks all of them, though none is in a
    cycle and reference counting frees them as usual. A warm 10k load went from 4.4 s to 2.2 s
    (a warm ``vaultkit stats`` of 10k notes, whole process: 23 % of its CPU, benchmarks/README.md
    "What each speed trick buys").
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
