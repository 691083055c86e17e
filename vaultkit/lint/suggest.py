"""Ghost links get the closest existing note names as text ("did you mean …?"), never as a fix:
a near name is a hint for a person, not a rewrite a tool may make.

Worked out on the finished VK101 findings from the vault's note paths, so the cached and the
uncached lint give the same words. Bounded, since it runs on every lint, warm ones too: only
names sharing the ghost's first or last letter and of a near length are compared, each ghost
text once, and past ``MAX_COMPARISONS`` (in finding order, so always the same ones) no more
suggestions are made.
"""

from __future__ import annotations

import ast
import difflib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from vaultkit.vault.model import NOTE_SUFFIX, Finding, FindingFields

MARK = "no note named "
GHOST_CODES = ("VK101", "VK107")  # a ghost in the body, in a property
CUTOFF = 0.75
MAX_SUGGESTIONS = 3
MAX_COMPARISONS = 5_000  # names compared in one run, over all ghosts


def _target(message: str) -> str | None:
    """The ghost's text from a VK101 message (``… no note named 'X'``)."""
    _, mark, quoted = message.rpartition(MARK)
    if not mark:
        return None
    if len(quoted) >= 2 and quoted[0] == quoted[-1] and quoted[0] in "'\"" and "\\" not in quoted:
        return quoted[1:-1]  # repr() of a plain text: no escapes to undo (compiling is slow)
    try:
        value = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def note_names(paths: Iterable[str]) -> set[str]:
    """:func:`~vaultkit.lint.links.link_name` of every path, once each: inlined, as it runs
    over every note of the vault on every lint (half the time of 10,000 calls)."""
    cut = len(NOTE_SUFFIX)
    bases = [path.rpartition("/")[2] for path in paths]
    return {b[:-cut] if b.lower().endswith(NOTE_SUFFIX) else b for b in bases}


def _buckets(names: Iterable[str]) -> dict[str, list[str]]:
    """Names by their first and by their last letter (case ignored): a near name shares one of
    them unless the typo is at both ends, and comparing only those keeps suggestions cheap."""
    found: dict[str, list[str]] = {}
    for name in names:
        key = name.casefold()
        if key:
            found.setdefault("<" + key[0], []).append(name)
            found.setdefault(">" + key[-1], []).append(name)
    return found


def _candidates(target: str, buckets: dict[str, list[str]]) -> list[str]:
    key = target.casefold()
    if not key:
        return []
    return sorted({*buckets.get("<" + key[0], ()), *buckets.get(">" + key[-1], ())})


def closest(target: str, names: Sequence[str]) -> list[str]:
    """Up to ``MAX_SUGGESTIONS`` note names like ``target`` (letter case ignored), best first."""
    key = target.casefold()
    slack = max(2, len(key) // 4)
    near = {n.casefold(): n for n in names if abs(len(n) - len(key)) <= slack}
    found = difflib.get_close_matches(key, list(near), n=MAX_SUGGESTIONS, cutoff=CUTOFF)
    return [near[f] for f in found]


class _Counted:
    """The buckets as :func:`_near_names` reads them when only a few texts' names are wanted,
    from one pass over the names and without building a bucket: how many names each text
    would be compared with (those sharing its first or last letter: first + last - both),
    and the names themselves only for texts whose letters are the wanted ones'."""

    def __init__(self, names: Iterable[str], wanted: Iterable[str]) -> None:
        ends = {(key[0], key[-1]) for key in (t.casefold() for t in wanted) if key}
        firsts, lasts = {a for a, _ in ends}, {b for _, b in ends}
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.kept: list[tuple[str, str, str]] = []
        for name in names:
            key = name.casefold()
            if key:
                a, b = key[0], key[-1]
                self.pairs[a, b] += 1
                if a in firsts or b in lasts:
                    self.kept.append((a, b, name))
        self.first: Counter[str] = Counter()
        self.last: Counter[str] = Counter()
        for (a, b), count in self.pairs.items():
            self.first[a] += count
            self.last[b] += count

    def size(self, target: str) -> int:
        key = target.casefold()
        if not key:
            return 0
        a, b = key[0], key[-1]
        return self.first[a] + self.last[b] - self.pairs[a, b]

    def names(self, target: str) -> list[str]:
        """What ``_candidates`` gives for ``target``, one of the wanted texts."""
        key = target.casefold()
        if not key:
            return []
        a, b = key[0], key[-1]
        return sorted({n for x, y, n in self.kept if x == a or y == b})


def _near_names(
    findings: Iterable[FindingFields],
    candidates: Callable[[str], list[str]],
    wanted: set[str] | None = None,
    size: Callable[[str], int] | None = None,
) -> dict[str, list[str]]:
    """Each ghost text of ``findings`` to its near names among its ``candidates``, in finding
    order while the budget lasts (a text first met after it ran out gets none). ``wanted``:
    only these texts' names are worked out (the budget counts the others' candidates all the
    same, by ``size`` when given), and reading stops once all of them are answered: what
    comes later cannot change their answer."""
    memo: dict[str, list[str]] = {}
    seen: set[str] = set()
    budget = MAX_COMPARISONS
    for f in findings:
        if budget <= 0 or (wanted is not None and wanted.issubset(memo)):
            break
        target = _target(f.message) if f.code in GHOST_CODES else None
        if target is not None and target not in seen:
            seen.add(target)
            if wanted is None or target in wanted or size is None:
                names = candidates(target)
                budget -= len(names)
                if wanted is None or target in wanted:
                    memo[target] = closest(target, names)
            else:
                budget -= size(target)
    return memo


def _suggested(f: Finding, memo: dict[str, list[str]]) -> Finding:
    target = _target(f.message) if f.code in GHOST_CODES else None
    near = memo.get(target, []) if target is not None else []
    if not near:
        return f
    said = " or ".join(repr(n) for n in near)
    return Finding(f.path, f.line, f.col, f.code, f.severity, f"{f.message}; did you mean {said}?")


def with_suggestions(findings: Iterable[Finding], notes: Iterable[str]) -> list[Finding]:
    """``findings`` with "did you mean" appended to each VK101 that has near note names."""
    found = list(findings)
    buckets = _buckets(note_names(notes))
    memo = _near_names(found, lambda target: _candidates(target, buckets))
    return [_suggested(f, memo) for f in found]


def suggest_some(
    findings: Iterable[Finding], ghosts: Iterable[FindingFields], notes: Iterable[str]
) -> list[Finding]:
    """``findings`` (some of a run's) with the hints :func:`with_suggestions` gives them over
    the whole run: ``ghosts`` is every ghost finding of that run in order (read only as far as
    the budget or the texts of ``findings`` need; no note names are read when none is a ghost)."""
    found = list(findings)
    wanted = {t for f in found if f.code in GHOST_CODES for t in (_target(f.message),) if t}
    if not wanted:
        return found
    counted = _Counted(note_names(notes), wanted)
    memo = _near_names(ghosts, counted.names, wanted, counted.size)
    return [_suggested(f, memo) for f in found]
