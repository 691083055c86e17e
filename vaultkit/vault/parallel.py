"""Read, hash and parse a large batch of note files across a process pool, one worker per core.

Each worker returns its chunk's results as one marshalled list of plain rows
(:func:`vaultkit.vault.records.chunk_rows`): pickling slotted dataclasses costs both sides
several times more than marshal does. :func:`vaultkit.vault.strategy.choose` decides when.
"""

from __future__ import annotations

import gc
import marshal
from collections.abc import Iterator, Sequence
from itertools import repeat

from vaultkit.vault.records import Job, Parsed, ParsedRow, Progress, chunk_rows, unpack_rows


def _read_chunk(root: str, jobs: Sequence[Job]) -> bytes:
    gc.enable()  # a forked worker inherits the parent's paused collector; parsing needs it
    return marshal.dumps(chunk_rows(root, jobs))


def _unpack_chunk(blob: bytes) -> list[Parsed]:
    rows: list[ParsedRow] = marshal.loads(blob)
    return unpack_rows(rows)


def _chunks(jobs: Sequence[Job], size: int) -> list[Sequence[Job]]:
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def _chunk_size(jobs: int, workers: int, most: int) -> int:
    return max(10, min(most, jobs // (workers * 4)))


def pool_read(
    root: str,
    jobs: Sequence[Job],
    workers: int,
    chunk_files: int,
    progress: Progress | None = None,
) -> Iterator[Parsed]:
    """Results for every job, in job order, from a pool of ``workers`` processes taking at
    most ``chunk_files`` files a chunk; ``progress(done, len(jobs))`` as each chunk arrives."""
    from concurrent.futures import ProcessPoolExecutor  # only large loads pay for this import

    done = 0
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # map() lets go of each chunk's results once yielded: the parent never holds them all
        chunks = _chunks(jobs, _chunk_size(len(jobs), workers, chunk_files))
        for blob in pool.map(_read_chunk, repeat(root), chunks):
            rows = _unpack_chunk(blob)
            yield from rows
            done += len(rows)
            if progress is not None:
                progress(done, len(jobs))
