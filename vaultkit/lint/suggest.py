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
from collections.abc import Iterable, Sequence

from vaultkit.lint.links import link_name
from vaultkit.vault.model import Finding

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


def _near_names(
    findings: Iterable[Finding], buckets: dict[str, list[str]], wanted: set[str] | None = None
) -> dict[str, list[str]]:
    """Each ghost text of ``findings`` to its near names, in finding order while the budget
    lasts (a text first met after it ran out gets none). ``wanted``: only these texts' names
    are worked out (the budget counts the others' candidates all the same), and reading stops
    once all of them are answered: what comes later cannot change their answer."""
    memo: dict[str, list[str]] = {}
    seen: set[str] = set()
    budget = MAX_COMPARISONS
    for f in findings:
        if budget <= 0 or (wanted is not None and wanted.issubset(memo)):
            break
        target = _target(f.message) if f.code in GHOST_CODES else None
        if target is not None and target not in seen:
            seen.add(target)
            names = _candidates(target, buckets)
            budget -= len(names)
            if wanted is None or target in wanted:
                memo[target] = closest(target, names)
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
    memo = _near_names(found, _buckets({link_name(p) for p in notes}))
    return [_suggested(f, memo) for f in found]


def suggest_some(
    findings: Iterable[Finding], ghosts: Iterable[Finding], notes: Iterable[str]
) -> list[Finding]:
    """``findings`` (some of a run's) with the hints :func:`with_suggestions` gives them over
    the whole run: ``ghosts`` is every ghost finding of that run in order (read only as far as
    the budget or the texts of ``findings`` need; no note names are read when none is a ghost)."""
    found = list(findings)
    wanted = {t for f in found if f.code in GHOST_CODES for t in (_target(f.message),) if t}
    if not wanted:
        return found
    memo = _near_names(ghosts, _buckets({link_name(p) for p in notes}), wanted)
    return [_suggested(f, memo) for f in found]
