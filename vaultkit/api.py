"""vaultkit's small public API: load a vault, analyse its links, get the networkx graph, and
search a store's memory (one store or every store this user has) or a note's neighbours.

Example::

    from pathlib import Path
    from vaultkit.api import load_vault, build_graph, ghosts, orphans, search, related
    vault = load_vault(Path("examples/sessions/wiki"))
    print([g.link.target for g in ghosts(vault)], orphans(vault))
    graph = build_graph(vault)  # a networkx.MultiDiGraph keyed by vault paths
    found = search(Path("examples/sessions"), "idempotent", kinds=("wiki",), limit=3)
    print([(hit.path, hit.line, hit.title) for hit in found.hits], found.advice)
    print([n.path for n in related(Path("examples/sessions/wiki"), "Idempotent imports").related])

networkx is imported only when :func:`build_graph` is first called. Search results are typed
values (:class:`Found` of :class:`Hit`, :class:`Across` of :class:`ProjectHit`,
:class:`Neighbours` of :class:`Related`); titles and snippets come redacted, as the CLI shows them.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path

from vaultkit.base.isodate import since_date
from vaultkit.search.find import Filters, Hit
from vaultkit.search.index import Progress
from vaultkit.search.recall import Found, Neighbours, related_notes, search_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vaultkit.search.across import Across, ProjectHit
    from vaultkit.search.related import Related
    from vaultkit.vault.analysis import backlinks, dead_ends, degraded, ghosts, isolated, orphans
    from vaultkit.vault.load import Vault, load_vault
    from vaultkit.vault.model import Finding, Link, Note
    from vaultkit.vault.parse import parse_note
    from vaultkit.vault.resolve import resolve_target

# Imported on first use: a search over a warm index needs none of the vault engine, and
# ``vaultkit search`` is a whole process started per question.
_LAZY = {
    **dict.fromkeys(("Across", "ProjectHit"), "vaultkit.search.across"),
    "Related": "vaultkit.search.related",
    **dict.fromkeys(
        ("backlinks", "dead_ends", "degraded", "ghosts", "isolated", "orphans"),
        "vaultkit.vault.analysis",
    ),
    **dict.fromkeys(("Vault", "load_vault"), "vaultkit.vault.load"),
    **dict.fromkeys(("Finding", "Link", "Note"), "vaultkit.vault.model"),
    "parse_note": "vaultkit.vault.parse",
    "resolve_target": "vaultkit.vault.resolve",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Across",
    "Filters",
    "Finding",
    "Found",
    "Hit",
    "Link",
    "Neighbours",
    "Note",
    "ProjectHit",
    "Related",
    "Vault",
    "backlinks",
    "build_graph",
    "dead_ends",
    "degraded",
    "filters",
    "ghosts",
    "isolated",
    "load_vault",
    "orphans",
    "parse_note",
    "related",
    "resolve_target",
    "search",
    "search_everywhere",
]


def build_graph(vault: Vault) -> Any:
    """The vault as a ``networkx.MultiDiGraph`` (see :func:`vaultkit.vault.graph.build_graph`)."""
    from vaultkit.vault.graph import build_graph as _build

    return _build(vault)


def filters(
    *,
    kinds: Sequence[str] = (),
    since: str = "",
    tags: Sequence[str] = (),
    agent: str = "",
    author: str = "",
    limit: int = 10,
) -> Filters:
    """What narrows a search; ``since`` is checked as ``--since`` is (a VaultkitError if not a
    date)."""
    return Filters(tuple(kinds), since_date(since, "since"), tuple(tags), agent, limit, author)


def _safe(hit: Hit) -> Hit:
    from vaultkit.session.transcripts.redact import redact, strip_private

    def clean(text: str) -> str:
        return redact(strip_private(text))

    return hit.replace(title=clean(hit.title), snippet=clean(hit.snippet))


def search(
    folder: Path,
    query: str,
    *,
    update: bool | None = None,
    progress: Progress | None = None,
    **narrow: Any,
) -> Found:
    """Search the store or vault at ``folder`` (``narrow``: the keywords of :func:`filters`).
    Raises :class:`~vaultkit.errors.VaultkitError` for a malformed query or filter."""
    found = search_folder(folder, query, filters(**narrow), update=update, progress=progress)
    return found.replace(hits=tuple(_safe(h) for h in found.hits))


def search_everywhere(query: str, *, here: Path | None = None, **narrow: Any) -> Across:
    """Search every store this user has (the recorded projects' and the data folder's; ``here``,
    a store folder, first when given), each hit naming its project."""
    import os

    from vaultkit.base.seen import all_stores

    tops = all_stores()
    if here is not None and here.is_dir() and os.path.realpath(here) not in tops:
        tops = [os.path.realpath(here), *tops]
    from vaultkit.search.across import search_stores

    found = search_stores(tops, query, filters(**narrow))
    return found.replace(hits=tuple(p.replace(hit=_safe(p.hit)) for p in found.hits))


def related(vault: Path, note: str, limit: int = 10) -> Neighbours:
    """The notes of the vault at ``vault`` nearest to ``note`` (a path or its [[name]])."""
    return related_notes(vault, note, limit)
