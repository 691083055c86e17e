"""Search every store this user has (``--all-projects``): each store's own index, the hits
merged by score, each naming its project."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultkit.errors import VaultkitError
from vaultkit.search.find import Filters, Hit
from vaultkit.search.query import parse_query
from vaultkit.search.recall import search_folder


@dataclass(frozen=True, slots=True)
class ProjectHit:
    """A hit and the project whose store holds it (``path`` stays relative to that store)."""

    project: str
    hit: Hit

    def as_json(self) -> dict[str, object]:
        return {"project": self.project, **self.hit.as_json()}


@dataclass(frozen=True, slots=True)
class Across:
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


def search_stores(tops: Sequence[str], text: str, filters: Filters) -> Across:
    """Search each store in ``tops``; a malformed query fails at once, an unreadable store is
    listed in ``skipped`` with why."""
    parse_query(text)  # a malformed query fails before any store is opened
    merged: list[ProjectHit] = []
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
        project = os.path.dirname(top)
        merged.extend(ProjectHit(project, h) for h in found.hits)
    merged.sort(key=lambda p: -p.hit.score)  # higher is better
    limit = filters.limit
    return Across(text, tuple(merged[:limit]), len(tops), tuple(skipped))
