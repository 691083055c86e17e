"""The calls the CLI and the MCP server make: search a folder's memory, and a note's neighbours."""

from __future__ import annotations

from pathlib import Path

from vaultkit.base.record import Record
from vaultkit.search.corpus import corpus_for
from vaultkit.search.find import Filters, Hit, search
from vaultkit.search.index import Progress, Refresh, opened
from vaultkit.search.query import parse_query

TYPE_CHECKING = False
if TYPE_CHECKING:  # the graph side (vault.resolve, vault.analysis) only when ``related`` runs
    from vaultkit.search.related import Related


class Found(Record):
    """A search's hits, what refreshing the index took, and, when the hits are none or hold
    only some of the query's words, why and what to try (``advice``)."""

    query: str
    hits: tuple[Hit, ...]
    refresh: Refresh
    advice: tuple[str, ...] = ()
    note: str = ""  # said on stderr (the CLI) or in the answer (MCP): how it was searched

    def as_json(self) -> dict[str, object]:
        return {
            "query": self.query,
            "results": [hit.as_json() for hit in self.hits],
            "indexed": self.refresh.total,
            "reindexed": self.refresh.updated,
            "advice": list(self.advice),
            **({"note": self.note} if self.note else {}),
        }


def search_folder(
    folder: Path,
    text: str,
    filters: Filters,
    *,
    update: bool | None = None,
    progress: Progress | None = None,
) -> Found:
    """Search the store or vault at ``folder``; raises :class:`~vaultkit.errors.VaultkitError`
    for a malformed query. ``update``: True re-reads changed files first, False trusts the
    index, None (auto) re-reads them unless the index is large (see ``index.opened``)."""
    from vaultkit.search.advice import advise

    query = parse_query(text)  # a bad query fails before any indexing work
    corpus = corpus_for(folder)
    with opened(corpus, update=update, progress=progress) as (conn, refresh):
        hits = tuple(search(conn, query, filters))
        advice = advise(conn, query, filters, hits)
    note = ""
    if refresh.in_memory and corpus.root.is_dir():  # a read-only vault or store
        note = (
            f"{corpus.state_dir} is not writable, so its search index was built in memory"
            " for this search (make the store writable to keep it)"
        )
    return Found(text, hits, refresh, advice, note)


class Neighbours(Record):
    """The note asked about (as a vault path) and the notes nearest to it."""

    note: str
    related: tuple[Related, ...]

    def as_json(self) -> dict[str, object]:
        return {"note": self.note, "related": [r.as_json() for r in self.related]}


def related_notes(vault: Path, name: str, limit: int = 10) -> Neighbours:
    """The notes of the vault at ``vault`` nearest to the note ``name`` (path or link text)."""
    from vaultkit.search.related import find_note, related
    from vaultkit.vault.load import load_vault  # the engine only when this runs

    loaded = load_vault(vault)
    path = find_note(loaded, name)
    return Neighbours(path, tuple(related(loaded, path, limit)))
