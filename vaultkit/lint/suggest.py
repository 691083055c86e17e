"""Ghost links get the closest existing note names as text ("did you mean …?"), never as a fix:
a near name is a hint for a person, not a rewrite a tool may make.

Worked out on the finished VK101 findings from the vault's note paths, so the cached and the
uncached lint give the same words. Bounded: names whose length is far from the ghost's are not
compared, each ghost text is compared once, and past ``MAX_COMPARISONS`` no more suggestions
are made (a vault with thousands of ghosts still lints in seconds).
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterable, Sequence

from vaultkit.lint.links import link_name
from vaultkit.vault.model import Finding

MARK = "no note named "
CUTOFF = 0.75
MAX_SUGGESTIONS = 3
MAX_COMPARISONS = 2_000_000


def _target(message: str) -> str | None:
    """The ghost's text from a VK101 message (``… no note named 'X'``)."""
    _, mark, quoted = message.rpartition(MARK)
    if not mark:
        return None
    try:
        value = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def closest(target: str, names: Sequence[str]) -> list[str]:
    """Up to ``MAX_SUGGESTIONS`` note names like ``target`` (letter case ignored), best first."""
    key = target.casefold()
    slack = max(2, len(key) // 4)
    near = {n.casefold(): n for n in names if abs(len(n) - len(key)) <= slack}
    found = difflib.get_close_matches(key, list(near), n=MAX_SUGGESTIONS, cutoff=CUTOFF)
    return [near[f] for f in found]


def with_suggestions(findings: Iterable[Finding], notes: Iterable[str]) -> list[Finding]:
    """``findings`` with "did you mean" appended to each VK101 that has near note names."""
    names = sorted({link_name(p) for p in notes})
    memo: dict[str, list[str]] = {}
    budget = MAX_COMPARISONS
    out: list[Finding] = []
    for f in findings:
        target = _target(f.message) if f.code == "VK101" else None
        if target is not None and target not in memo and budget > 0:
            budget -= len(names)
            memo[target] = closest(target, names)
        near = memo.get(target, []) if target is not None else []
        if near:
            said = " or ".join(repr(n) for n in near)
            f = Finding(
                f.path, f.line, f.col, f.code, f.severity, f"{f.message}; did you mean {said}?"
            )
        out.append(f)
    return out
