"""The existing notes a distillation prompt offers for linking: the most related first.

Every folder of the wiki counts (concept and decision notes live in sub-folders). A note comes
first when its name or one of its aliases is written in the condensed transcript; then the search
index's best wiki hits for the transcript's most frequent content words (titles and headings
weigh most there); then the newest session notes. The list is cut by a budget in tokens (about
four characters each), and each note comes with its aliases so the LLM can link
``[[Note|alias]]``.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.notes.links import vault_files
from vaultkit.session.notes.naming import parse_name, short_id

QUERY_TERMS = 24  # content words of the transcript asked of the search index
SEARCH_HITS = 40
CHARS_PER_TOKEN = 4
_WORD = re.compile(r"[^\W_]+")
# Words too common in coding sessions to say what one is about (English; others pass through).
_STOP_WORDS = """the and for with that this from have has had are was were will would could should
can not but all any its you your our their there here what when where which who why how into onto
than then them they these those been being also just only some such more most very use used using
make made like need needs want let lets get got now new one two file files run ran test tests code
line lines add added see yes okay please thanks sure done does did doing work works working change
changes changed user assistant tool tools output note notes session sessions write wrote read set
look check way each other about after before again"""
STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True, slots=True)
class Candidate:
    """One note offered: its wiki path, the name a link should use, and its aliases."""

    path: str  # below wiki/, e.g. "concepts/Idempotency keys.md"
    link: str  # what goes between [[ ]]: the file name, or the path when the name is shared
    aliases: tuple[str, ...] = ()

    def line(self) -> str:
        """The prompt line: ``- [[link]]`` and, with aliases, how to link through one."""
        if not self.aliases:
            return f"- [[{self.link}]]"
        shown = ", ".join(f"[[{self.link}|{alias}]]" for alias in self.aliases)
        return f"- [[{self.link}]] (also written {shown})"


def _key(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1][:-3]


def _title_words(path: str) -> str:
    """What a note's name says: a session note's title part, any other note's file name."""
    name = path.rsplit("/", 1)[-1]
    parsed = parse_name(name) if "/" not in path else None
    return parsed.title if parsed is not None else name[:-3]


def query_terms(text: str, most: int = QUERY_TERMS) -> list[str]:
    """The transcript's most frequent content words (no stop words, no numbers)."""
    counts = Counter(
        w
        for w in _WORD.findall(text.casefold())
        if len(w) > 2 and w not in STOP and not w.isdigit()
    )
    return [word for word, _ in counts.most_common(most)]


def _named(paths: Iterable[str], transcript: str, words: set[str]) -> list[tuple[int, str]]:
    """Notes whose name is written in the transcript, as (words in the name, path)."""
    found = []
    for path in paths:
        key = _key(_title_words(path))
        parts = key.split()
        if not parts or not all(p in words for p in parts):
            continue
        if len(parts) == 1 and (len(key) < 4 or key in STOP):
            continue
        if f" {key} " in transcript:
            found.append((len(parts), path))
    return found


def _searched(store: Store, terms: list[str]) -> list[str]:
    """The search index's best wiki notes for ``terms`` (paths below wiki/), best first."""
    if not terms:
        return []
    from vaultkit.search.find import Filters
    from vaultkit.search.recall import search_folder

    try:
        found = search_folder(
            store.root,
            " OR ".join(terms),
            Filters(kinds=("wiki",), limit=SEARCH_HITS),
            update=False,
        )
    except (VaultkitError, OSError):
        return []
    return [hit.path[len("wiki/") :] for hit in found.hits if hit.path.startswith("wiki/")]


def _aliases(wiki: Path, path: str) -> tuple[str, ...]:
    from vaultkit.session.notes.write import read_frontmatter

    raw = read_frontmatter(wiki / path).get("aliases") or ()
    names = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    kept = [" ".join(str(n).split()) for n in names if isinstance(n, str | int | float)]
    return tuple(
        a for a in dict.fromkeys(kept) if a and "[" not in a and "]" not in a and "|" not in a
    )


def _is_own(path: str, own: str | None) -> bool:
    if own is None or "/" in path:
        return False
    parsed = parse_name(path)
    return parsed is not None and parsed.session == own


def _newest(wiki: Path, notes: list[str]) -> list[str]:
    """``notes`` newest first: by modification time, then by name (a session note's starts
    with its date)."""
    stamped = []
    for path in notes:
        try:
            stamped.append((os.stat(wiki / path).st_mtime_ns, path))
        except OSError:
            continue
    return [path for _, path in sorted(stamped, reverse=True)]


def _link_names(notes: list[str]) -> Mapping[str, str]:
    counts = Counter(_stem(p).casefold() for p in notes)
    return {p: _stem(p) if counts[_stem(p).casefold()] == 1 else p[:-3] for p in notes}


def select(store: Store, transcript: str, exclude_session: str, budget: int) -> list[Candidate]:
    """The notes to offer, most related first, within ``budget`` tokens of prompt lines."""
    files = vault_files(str(store.wiki))
    notes = [p for p in files if p.lower().endswith(".md") and p != "INDEX.md"]
    own = short_id(exclude_session) if exclude_session else None
    notes = [p for p in notes if not _is_own(p, own)]
    known = set(notes)
    text = f" {_key(transcript)} "
    words = set(text.split())
    named = [p for _, p in sorted(_named(notes, text, words), key=lambda n: (-n[0], n[1]))]
    searched = [p for p in _searched(store, query_terms(transcript)) if p in known]
    newest = _newest(store.wiki, [p for p in notes if p not in named])
    links = _link_names(notes)
    chosen: list[Candidate] = []
    spent = 0
    for path in dict.fromkeys([*named, *searched, *newest]):
        candidate = Candidate(path, links[path], _aliases(store.wiki, path))
        cost = len(candidate.line()) // CHARS_PER_TOKEN + 1
        if spent + cost > budget:
            if spent + 8 > budget:
                break
            continue
        chosen.append(candidate)
        spent += cost
    return chosen
