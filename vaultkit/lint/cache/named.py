"""``vaultkit lint NOTE…``: the findings of the named notes and of the links that name them.

Every finding of the vault is brought up to date as a whole-vault lint does (one stat walk, the
notes a change can affect linted again, :func:`~vaultkit.lint.cache.run.all_findings`), but only
the ones to report are finished: the suppressions of the notes that hold them are read, the
vault's scope is applied to them, and near-name hints are worked out over the ghosts before them
only as far as the hints' budget reaches (:func:`~vaultkit.lint.runner.finish_some`). So a
one-note lint reads no note but the changed ones, those reached and a few ghosts' notes, and
reports exactly what a whole-vault lint reports for them. What is reported: every finding in a
named note, and the link findings (VK1xx) on links elsewhere that name a named or gone path
(:mod:`~vaultkit.lint.cache.reach`).
"""

from __future__ import annotations

from collections.abc import Callable

from vaultkit.lint.cache.reach import Position, reached_links
from vaultkit.lint.cache.run import LintResult, Notice, Progress, all_findings, as_finding
from vaultkit.lint.cache.walk import walk_vault
from vaultkit.lint.context import LintTarget
from vaultkit.lint.runner import finish_some
from vaultkit.vault.model import FindingFields


def reported(only: frozenset[str], links: set[Position]) -> Callable[[FindingFields], bool]:
    """Whether a finding is reported: in a named note, or a link finding at one of ``links``."""
    return lambda f: f.path in only or (f.code < "VK2" and (f.path, f.line, f.col) in links)


def lint_named(
    target: LintTarget,
    only: frozenset[str],
    gone: frozenset[str] = frozenset(),
    *,
    progress: Progress | None = None,
    cache: bool | None = None,
    notice: Notice | None = None,
) -> LintResult:
    """The finished findings of the vault paths ``only`` and of the links that name them or
    the ``gone`` paths (sorted, every code); ``cache`` as for
    :func:`~vaultkit.lint.cache.run.lint_vault`."""
    walked = walk_vault(target.root)
    result = all_findings(target, walked, progress, cache, notice, rows=True)
    every = result.found
    use = cache is not False
    links = reached_links(target, only | gone, cache=use, findings=every, stats=walked.stats)
    wanted = reported(only, links)
    # Only the reported rows become findings (a full run's are built already).
    some = [as_finding(f) for f in every if wanted(f)]
    notes = [path for path, stat in walked.stats.items() if stat is not None]
    own = {f.path for f in some} | only
    finished = finish_some(target, notes, own, some, every)
    kept = [f for f in finished if wanted(f)]
    return LintResult(kept, result.notes, result.config, result.how, result.why)
