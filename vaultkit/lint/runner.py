"""Run the lint rules: merge parse and rule findings, apply select/ignore, sort, pick the exit code.

``collect`` and ``select_findings`` are pure; ``lint_target`` (the settings and the state folder,
once per command) and ``load_context`` (the vault and INDEX.md) read the disk.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultkit.base.config import Config, load_config
from vaultkit.base.store import config_file_for_vault, state_dir_for_vault, store_of_wiki
from vaultkit.errors import VaultkitError
from vaultkit.lint.codes import RULES, finding
from vaultkit.lint.context import LintContext, LintTarget, RuleFn
from vaultkit.lint.indexrules import index_rules
from vaultkit.lint.links import link_rules
from vaultkit.lint.notes import degraded_rule, duplicate_name_rule, orphan_rule
from vaultkit.lint.scope import Scope, in_scope, load_scope
from vaultkit.lint.suggest import GHOST_CODES, suggest_some, with_suggestions
from vaultkit.lint.suppress import Suppression, apply_suppressions, read_suppressions, silenced
from vaultkit.vault.index import INDEX_NAME
from vaultkit.vault.load import load_vault
from vaultkit.vault.model import Finding, FindingFields

_CODE = re.compile(r"VK\d{0,3}")

RULE_FUNCTIONS: tuple[RuleFn, ...] = (
    link_rules,
    orphan_rule,
    degraded_rule,
    duplicate_name_rule,
    index_rules,
)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which codes to report and whether warnings fail the run."""

    select: tuple[str, ...] = ()  # empty: every rule
    ignore: tuple[str, ...] = ()
    strict: bool = False


def choose(
    config: Config, select: Sequence[str] | None, ignore: Sequence[str] | None, strict: bool
) -> Selection:
    """CLI values override ``[lint]`` in vaultkit.toml; ``--strict`` or ``strict = true`` win."""
    chosen = Selection(
        select=tuple(select if select else config.lint.select),
        ignore=tuple(ignore if ignore else config.lint.ignore),
        strict=strict or config.lint.strict,
    )
    for code in (*chosen.select, *chosen.ignore):
        _check_code(code)
    return chosen


def _check_code(code: str) -> None:
    wanted = code.strip().upper()
    if not _CODE.fullmatch(wanted) or not any(known.startswith(wanted) for known in RULES):
        raise VaultkitError(
            f"unknown rule code {code!r}",
            hint=f"use a code or prefix such as VK1 or VK101; known: {', '.join(RULES)}",
        )


def _matches(code: str, prefixes: Iterable[str]) -> bool:
    return any(code.startswith(p.strip().upper()) for p in prefixes)


def select_findings(findings: Iterable[Finding], selection: Selection) -> list[Finding]:
    """Keep selected codes (prefix match, like ``VK1``), drop ignored ones, sort, de-duplicate."""
    kept = {
        f
        for f in findings
        if (not selection.select or _matches(f.code, selection.select))
        and not _matches(f.code, selection.ignore)
    }
    return sorted(kept, key=Finding.sort_key)


def collect(ctx: LintContext, rules: Iterable[RuleFn] = RULE_FUNCTIONS) -> list[Finding]:
    """Parse findings of the vault plus every rule's findings, sorted."""
    found = list(ctx.vault.findings)
    for rule in rules:
        found.extend(rule(ctx))
    return sorted(set(found), key=Finding.sort_key)


def _scope(target: LintTarget) -> Scope:
    lint = target.config.lint
    for codes in lint.per_file_ignores.values():
        for code in codes:
            _check_code(code)
    return load_scope(target.root, lint.exclude, lint.per_file_ignores)


def finish(
    target: LintTarget,
    notes: Iterable[str],
    findings: Iterable[Finding],
    known: Mapping[str, tuple[Suppression, ...]] | None = None,
) -> list[Finding]:
    """What a vault's own settings leave of ``findings`` (every code, as ``collect`` gives
    them): suppressions written in its ``notes`` (plus VK501 for unknown codes in them), then
    excluded files, per-file ignores and template folders; ghosts get their closest note
    names as text. Applied to the finished findings, so the cached and the uncached lint
    agree by construction."""
    scope = _scope(target)
    paths = list(notes)
    findings = [*findings, *store_link_findings(target.root)]
    kept = in_scope(apply_suppressions(target.root, paths, findings, known), scope)
    return with_suggestions(kept, paths)


def finish_some(
    target: LintTarget,
    notes: Collection[str],
    own: Iterable[str],
    some: Iterable[Finding],
    every: Sequence[FindingFields],
) -> list[Finding]:
    """What :func:`finish` over all ``notes`` and ``every`` finding (sorted) gives for the
    findings ``some`` of them, and the VK501s of the notes ``own`` (every note holding one of
    ``some`` among them), reading only those notes. VK203s are given wherever they are: the
    caller filters. Each finding is finished on its own but for the near-name hints, which
    depend on the ghosts of ``every`` before it (:func:`~vaultkit.lint.suggest.suggest_some`)."""
    scope, root, here = _scope(target), target.root, set(notes)
    mine = {path: read_suppressions(root, path) for path in here.intersection(own)}
    findings = [*some, *store_link_findings(root)]
    kept = in_scope(apply_suppressions(root, mine, findings, mine), scope)

    def ghosts() -> Iterator[FindingFields]:
        for f in every:
            if f.code not in GHOST_CODES or not scope.keeps(f):
                continue
            if f.path not in mine:
                mine[f.path] = read_suppressions(root, f.path) if f.path in here else ()
            if not silenced(f, mine[f.path]):
                yield f

    return suggest_some(kept, ghosts(), here)


def store_link_findings(root: Path) -> list[Finding]:
    """VK203 for each link of the store whose ``wiki/`` is ``root`` that vaultkit refuses to
    follow (none for any other vault: those follow links as Obsidian does). Paths are shown
    from the wiki (``../summary/…`` for the store's other shared folders)."""
    store = store_of_wiki(root)
    if store is None:
        return []
    from vaultkit.base.storelinks import refused_links  # only a store's lint pays for the walk

    found = []
    for link in refused_links(store):
        path = os.path.relpath(link.file, os.path.abspath(root))
        message = f"{link.reason}; not read (remove it: {link.fix})"
        found.append(finding(Path(path).as_posix(), 1, 1, "VK203", message))
    return found


def exit_code(findings: Sequence[Finding], strict: bool) -> int:
    """0 clean, 1 when an error (or, with ``strict``, any finding) was reported."""
    if any(f.severity == "error" for f in findings):
        return 1
    return 1 if strict and findings else 0


def read_index_text(root: Path) -> str | None:
    """The vault-root INDEX.md as text, or None when the vault has none or it cannot be read
    as UTF-8 (the vault loader reports that as VK202, and the INDEX rules then stay quiet)."""
    try:
        return (root / INDEX_NAME).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def lint_target(root: Path) -> LintTarget:
    """The vault at ``root`` with its settings loaded and its state folder found: once per
    command, then passed down."""
    return LintTarget(root, load_config(config_file_for_vault(root)), state_dir_for_vault(root))


def load_context(
    where: Path | LintTarget,
    *,
    progress: Callable[[int, int], None] | None = None,
    cache: bool | None = None,
) -> LintContext:
    """Load the vault of ``where`` (a folder, or a target already looked up), its settings and
    its INDEX.md text (``cache``: as for :func:`vaultkit.vault.load.load_vault`)."""
    target = where if isinstance(where, LintTarget) else lint_target(where)
    root = target.root
    vault = load_vault(root, progress=progress, cache=cache, state_dir=target.state_dir)
    return LintContext(vault=vault, config=target.config, index_text=read_index_text(root))
