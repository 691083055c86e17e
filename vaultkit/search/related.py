"""The notes nearest to one note in the link graph, ranked, each with the reasons it is near.

Near means: a link either way (the strongest tie), shared tags, linking to the same notes
(bibliographic coupling) and being linked together from the same note (co-citation). Shared
things count less the more common they are (a tag on half the vault says little), and INDEX.md,
which links everything, is no evidence of anything.
"""

from __future__ import annotations

import math
from collections import defaultdict

from vaultkit.base.record import Record
from vaultkit.errors import VaultkitError
from vaultkit.vault.analysis import is_root_index
from vaultkit.vault.resolve import resolve_target
from vaultkit.vault.value import Vault

DIRECT = 3.0
TAG = 2.0
COUPLING = 1.5
COCITATION = 1.0
NAMED_PER_REASON = 3


class Related(Record):
    """One near note: its path, its score and why (plain sentences, most telling first)."""

    path: str
    score: float
    reasons: tuple[str, ...]

    def as_json(self) -> dict[str, object]:
        return {"path": self.path, "score": round(self.score, 4), "reasons": list(self.reasons)}


def find_note(vault: Vault, name: str) -> str:
    """The vault path of ``name``: an exact path, or a name resolved as ``[[name]]`` would be."""
    wanted = name.strip()
    if not wanted:
        raise VaultkitError("no note given", hint="vaultkit related 'Note name'")
    if vault.note(wanted) is not None:
        return wanted
    found = resolve_target(vault.index, "", wanted).path
    if found is None or vault.note(found) is None:
        raise VaultkitError(
            f"{wanted}: no note of that name in {vault.root}",
            hint=f'find it with: vaultkit search "{wanted}"',
        )
    return found


def _edges(vault: Vault) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Outgoing and incoming note-to-note links, without self-links and INDEX.md's links."""
    out: dict[str, set[str]] = defaultdict(set)
    into: dict[str, set[str]] = defaultdict(set)
    for item in vault.links:
        target = item.resolution.path
        if target is None or target == item.source or is_root_index(item.source):
            continue
        if vault.note(target) is None:
            continue
        out[item.source].add(target)
        into[target].add(item.source)
    return out, into


def _rarity(count: int) -> float:
    return 1.0 / math.log2(1 + max(count, 1))


class _Tally:
    """Scores and reasons being gathered (local to one ``related`` call)."""

    def __init__(self) -> None:
        self.score: dict[str, float] = defaultdict(float)
        self.named: dict[tuple[str, str], list[str]] = defaultdict(list)

    def add(self, path: str, points: float, reason: str, name: str = "") -> None:
        self.score[path] += points
        names = self.named[(path, reason)]
        if name and name not in names:
            names.append(name)

    def reasons(self, path: str) -> tuple[str, ...]:
        found = [(reason, names) for (p, reason), names in self.named.items() if p == path]
        return tuple(_sentence(reason, names) for reason, names in found)


def _sentence(reason: str, names: list[str]) -> str:
    if not names:
        return reason
    shown = ", ".join(names[:NAMED_PER_REASON])
    more = len(names) - NAMED_PER_REASON
    return f"{reason} {shown}" + (f" and {more} more" if more > 0 else "")


def _name(path: str) -> str:
    stem = path.rsplit("/", 1)[-1]
    return "[[" + (stem[:-3] if stem.lower().endswith(".md") else stem) + "]]"


def related(vault: Vault, path: str, limit: int = 10) -> list[Related]:
    """The ``limit`` notes nearest to ``path`` (a vault path), best first."""
    out, into = _edges(vault)
    tally = _Tally()
    for other in out[path]:
        tally.add(other, DIRECT, "linked from this note")
    for other in into[path]:
        tally.add(other, DIRECT, "links to this note")
    _shared_tags(vault, path, tally)
    for target in out[path]:
        for other in into[target] - {path}:
            tally.add(other, COUPLING * _rarity(len(into[target])), "also links to", _name(target))
    for source in into[path]:
        for other in out[source] - {path}:
            tally.add(
                other, COCITATION * _rarity(len(out[source])), "linked with it from", _name(source)
            )
    tally.score.pop(path, None)
    ranked = sorted(tally.score.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [Related(p, s, tally.reasons(p)) for p, s in ranked]


def _shared_tags(vault: Vault, path: str, tally: _Tally) -> None:
    note = vault.note(path)
    if note is None or not note.tags:
        return
    holders: dict[str, list[str]] = defaultdict(list)
    for holder in vault.notes:
        for tag in holder.tags:
            holders[tag].append(holder.path)
    for tag in note.tags:
        for other in holders[tag]:
            if other != path:
                tally.add(other, TAG * _rarity(len(holders[tag])), "shares tag", "#" + tag)
