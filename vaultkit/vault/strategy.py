"""How a vault is read: the one function that picks a strategy, from the one threshold table.

The strategies, each measured in ``benchmarks/README.md`` ("Load strategies"):

- **serial**: this process reads and parses every file, in order.
- **pool** (:mod:`vaultkit.vault.parallel`): a process pool, one worker per core.
- **cache** (:mod:`vaultkit.vault.cache` with :mod:`vaultkit.vault.relink`): a warm load reads
  only the files whose stat changed and re-resolves only the links a change can affect.
- **packed links** (``model.PackedLinks``): a body of ``big_body_lines`` or more is planned
  window by window and its links packed; a cached note with ``pack_min_links`` links is read
  back packed. This one is decided per note, by the parser, from the same table.

``VAULTKIT_LOAD_STRATEGY=serial|pool`` forces the reader (tests and benchmarks compare them on
the same vaults); a pool is still never forked beside other threads.

A third reader, one forked child sharing a cold load of 100-299 notes through a pipe of chunk
tickets, was removed: forced on the same vaults it bought no whole-process gain of 10 % (it
cost 13-19 % more CPU), see benchmarks/README.md ("Load strategies").
"""

from __future__ import annotations

import marshal
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from vaultkit.errors import VaultkitError
from vaultkit.vault import thresholds
from vaultkit.vault.records import (
    Job,
    Parsed,
    Progress,
    Read,
    note_from_record,
    parse_here,
    read_one,
)

Reader = Literal["serial", "pool"]
READERS: tuple[Reader, ...] = ("serial", "pool")
FORCE_ENV = "VAULTKIT_LOAD_STRATEGY"


@dataclass(frozen=True, slots=True)
class Plan:
    """What :func:`choose` picked: whether the note cache is used, the reader, its processes."""

    cache: bool
    reader: Reader
    workers: int = 1


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def may_fork() -> bool:
    """Forking copies only the calling thread: beside other threads (``vaultkit watch``) the
    child could inherit a lock some other thread held."""
    return threading.active_count() == 1


def _forced() -> Reader | None:
    value = os.environ.get(FORCE_ENV, "")
    for reader in READERS:
        if value == reader:
            return reader
    if value:
        raise VaultkitError(
            f"{FORCE_ENV}={value!r} is not a load strategy ({', '.join(READERS)})",
            hint=f"unset {FORCE_ENV}, or set it to one of {', '.join(READERS)}",
        )
    return None


def _reader(files: int, forced: Reader | None) -> tuple[Reader, int]:
    count = cores()
    wanted = files >= thresholds.TABLE.pool_min_files and count >= 2
    if forced == "pool" or (forced is None and wanted):
        return ("pool", max(2, count)) if may_fork() else ("serial", 1)
    return "serial", 1


def choose(files: int, *, cache: bool | None = None, cache_exists: bool = False) -> Plan:
    """The strategy for reading ``files`` note files, from the threshold table
    (:data:`vaultkit.vault.thresholds.TABLE`) or :data:`FORCE_ENV`: whether the note cache is
    used (``cache``; None: from ``cache_min_notes`` notes, or when its file exists) and the
    reader with its processes."""
    wanted = files >= thresholds.TABLE.cache_min_notes or cache_exists
    return Plan(wanted if cache is None else cache, *_reader(files, _forced()))


def read_all(
    root: str, jobs: Sequence[Job], progress: Progress | None = None, *, workers: int | None = None
) -> Iterator[Parsed]:
    """Results for every job, in job order, by the reader :func:`choose` picks (``workers``:
    a pool of that many, or serial for 1). ``progress(done, len(jobs))`` as results arrive."""
    if workers is None:
        plan = choose(len(jobs))
    else:
        plan = Plan(False, "pool" if workers > 1 else "serial", workers)
    if plan.reader == "pool":
        from vaultkit.vault.parallel import pool_read

        yield from pool_read(root, jobs, plan.workers, thresholds.TABLE.pool_chunk_files, progress)
    else:
        for done, job in enumerate(jobs, start=1):
            yield read_one(root, job)
            if progress is not None:
                progress(done, len(jobs))


def parse_all(root: str, paths: Sequence[str], progress: Progress | None = None) -> Iterator[Read]:
    """Every note at ``paths`` parsed (no digest, no cache record), in order. In this process
    the note is kept as parsed: a record's copy and its marshalled bytes would hold a huge
    note's links two more times over."""
    if choose(len(paths)).reader == "serial":
        for done, path in enumerate(paths, start=1):
            yield parse_here(root, path)
            if progress is not None:
                progress(done, len(paths))
        return
    for parsed in read_all(root, [(p, None) for p in paths], progress):
        if parsed.error is not None or parsed.record is None:
            yield parsed.path, None, parsed.error or "unknown error"
        else:
            yield parsed.path, note_from_record(marshal.loads(parsed.record)), None
