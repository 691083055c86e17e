"""The one table of numbers a load strategy is chosen by (:mod:`vaultkit.vault.strategy`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Every number a load strategy is chosen by; the figures behind each are measured in
    benchmarks/README.md ("Load strategies"). Tests replace :data:`TABLE` to force one."""

    # From here a load goes through the note cache: a warm lint of the 173-note help vault
    # 3-6 ms from the caches against 350 ms uncached; a first run pays 10-25 % more to fill it.
    cache_min_notes: int = 50
    # From here a process pool parses on every core: below it a pool costs more than it saves.
    pool_min_files: int = 300
    pool_chunk_files: int = 250  # at most; smaller batches keep every worker busy
    # A body this long is planned and walked window by window, its links packed: a 50 MB note
    # of 1.6 million links holds 21 bytes a link instead of 144.
    big_body_lines: int = 50_000
    window_lines: int = 10_000
    pack_min_links: int = 50_000  # a cached note with this many links is read back packed


TABLE = Thresholds()
