"""How good the week's session notes are: how many were written degraded, and why."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from vaultkit.base.leanmeta import meta_str, read_meta
from vaultkit.base.store import Store, read_problem
from vaultkit.session.notes.naming import parse_name

HEAD_BYTES = 8192
WEEK = timedelta(days=7)
BY_DESIGN = frozenset({"offline", "empty-transcript"})  # degraded because nothing could be asked


@dataclass(frozen=True, slots=True)
class WeekQuality:
    """The session wiki notes written in the week before ``since`` ended, and the degraded."""

    since: datetime
    notes: int = 0
    degraded: int = 0
    reasons: dict[str, int] = field(default_factory=dict)  # degraded_reason -> notes, most first

    @property
    def share(self) -> float:
        return self.degraded / self.notes if self.notes else 0.0

    @property
    def unexpected(self) -> int:
        """Degraded notes for a reason other than the offline backend or an empty transcript."""
        return sum(n for reason, n in self.reasons.items() if reason not in BY_DESIGN)


def _meta(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return {}
    return read_meta(head.replace("\r\n", "\n"))[0]


def week_quality(store: Store, now: datetime) -> WeekQuality:
    """The share of degraded session notes among those whose names date them in the 7 days
    up to ``now`` (naive local time), with their ``degraded_reason`` counts."""
    since = now - WEEK
    try:
        names = [
            p
            for p in store.wiki.iterdir()
            if p.suffix == ".md" and not (p.is_symlink() and read_problem(store, p))
        ]
    except OSError:
        return WeekQuality(since)
    notes = 0
    reasons: Counter[str] = Counter()
    for path in names:
        parsed = parse_name(path.name)
        if parsed is None or parsed.seed or not since <= parsed.when <= now:
            continue
        meta = _meta(path)
        if meta_str(meta, "type") not in ("", "session-wiki"):
            continue
        notes += 1
        if meta_str(meta, "quality").lower() == "degraded":
            reasons[meta_str(meta, "degraded_reason") or "unknown"] += 1
    return WeekQuality(since, notes, sum(reasons.values()), dict(reasons.most_common()))
