"""Search every store this user has (``--all-projects``): each store's own index, the hits
merged by rank, each naming its project.

Scores from two stores are not comparable: each store's BM25 weighs a word by how rare it is
in that store, so a small store where every note mentions the word scores its best note low
and a large store where the word is rare scores a passing mention high. The merge therefore
uses reciprocal-rank fusion: a hit ranked ``r`` (1 = best) in its own store counts
``1 / (RRF_K + r)``. Hits of equal rank are ordered by their score over their store's best
score (how close each is to its own store's top hit), then by the order the stores were
given in, then by their place in their store, so the merge is stable and repeatable.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from vaultkit.base.record import Record
from vaultkit.errors import VaultkitError
from vaultkit.search.find import Filters, Hit
from vaultkit.search.query import parse_query
from vaultkit.search.recall import search_folder

RRF_K = 60  # the usual reciprocal-rank constant: damps the gap between rank 1 and rank 2


class ProjectHit(Record):
    """A hit and the project whose store holds it (``path`` stays relative to that store)."""

    project: str
    hit: Hit

    def as_json(self) -> dict[str, object]:
        return {"project": self.project, **self.hit.as_json()}


class Across(Record):
    """The merged hits, how many stores were searched, and the ones that could not be."""

    query: str
    hits: tuple[ProjectHit, ...]
    stores: int
    skipped: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "query": self.query,
            "results": [h.as_json() for h in self.hits],
            "stores": self.stores,
        }
        if self.skipped:
            out["skipped"] = list(self.skipped)
        return out


_Key = tuple[float, float, int, int]


def _ranked(store: int, project: str, hits: Sequence[Hit]) -> list[tuple[_Key, ProjectHit]]:
    """Each hit of one store (best first) with its merge key: smaller sorts first."""
    best = max((abs(h.score) for h in hits), default=0.0) or 1.0
    return [
        ((-1.0 / (RRF_K + rank), -h.score / best, store, rank), ProjectHit(project, h))
        for rank, h in enumerate(hits, start=1)
    ]


def fuse(per_store: Sequence[tuple[str, Sequence[Hit]]], limit: int) -> tuple[ProjectHit, ...]:
    """Merge each store's hits (best first) by reciprocal rank; at most ``limit``."""
    keyed = [k for i, (proj, hits) in enumerate(per_store) for k in _ranked(i, proj, hits)]
    keyed.sort(key=lambda pair: pair[0])
    return tuple(p for _, p in keyed[: max(limit, 0)])


def search_stores(tops: Sequence[str], text: str, filters: Filters) -> Across:
    """Search each store in ``tops``; a malformed query fails at once, an unreadable store is
    listed in ``skipped`` with why."""
    parse_query(text)  # a malformed query fails before any store is opened
    per_store: list[tuple[str, Sequence[Hit]]] = []
    skipped: list[str] = []
    for top in tops:
        try:
            found = search_folder(Path(top), text, filters, update=None)
        except VaultkitError as exc:
            skipped.append(f"{top}: {exc.message}")
            continue
        except OSError as exc:
            skipped.append(f"{top}: {exc}")
            continue
        per_store.append((os.path.dirname(top), found.hits))
    return Across(text, fuse(per_store, filters.limit), len(tops), tuple(skipped))
