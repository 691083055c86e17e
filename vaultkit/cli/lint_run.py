"""What ``vaultkit lint`` does once its options are known, without typer: the typer command
(cli/lint_cmd.py) and the quick path (cli/quick.py) both call :func:`run`.

:func:`read_quick` reads the plain forms of the command line (``--opt value``, ``--opt=value``,
``-f value``, flags, any number of paths: a vault folder and/or notes; ``-`` as the value of
``--files-from``). Anything else, or anything that would be a usage error, is left to typer
(returns None), so help, usage errors and their exit codes stay typer's own; both end in
:func:`run`.
``OPTIONS`` comes from the same declarations as the typer command's options (cli/spec.py).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from vaultkit.cli import quickwords
from vaultkit.cli.common import display_root, resolve_vault
from vaultkit.cli.progress import progress_for
from vaultkit.cli.spec import LINT, spellings, valued

if TYPE_CHECKING:  # the lint engine is imported when the command runs
    from collections.abc import Callable, Sequence

    from vaultkit.lint.context import LintContext, LintTarget
    from vaultkit.lint.files import Targets
    from vaultkit.lint.fix import FixOutcome
    from vaultkit.vault.model import Finding

FORMATS = ("text", "json", "github")


@dataclass(frozen=True, slots=True)
class LintArgs:
    """The options of one ``vaultkit lint`` run."""

    paths: tuple[Path, ...] = ()  # the vault folder and/or notes in it (see lint/files.py)
    fmt: str = "text"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    strict: bool = False
    fix: bool = False
    dry_run: bool = False  # also --diff: print the fixes as a diff, write nothing
    unsafe_fixes: bool = False  # also the fixes that guess a meaning (alias links)
    quiet: bool = False
    no_cache: bool = False
    files_from: str | None = None  # a file of more note paths, "-" for standard input
    staged: bool = False  # also every path git has staged (deleted and renamed ones too)
    baseline: str | None = None  # a file of known findings: report only the others


# Option spelling -> the LintArgs field it sets; VALUED take a value, the rest are flags.
OPTIONS = spellings(*LINT)
VALUED = frozenset(valued(*LINT))


def read_quick(argv: list[str]) -> LintArgs | None:
    """The options of ``vaultkit lint ARGV…`` when every word is a plain, valid form; else None."""
    words = quickwords.split(argv, OPTIONS, VALUED, most=len(argv))
    if words is None:
        return None
    fmt = "text"
    files_from: str | None = None
    baseline: str | None = None
    codes: dict[str, list[str]] = {"select": [], "ignore": []}
    for field, value in words.values:
        if field == "fmt":
            if value not in FORMATS:
                return None
            fmt = value
        elif field == "files_from":
            if files_from is not None:
                return None
            files_from = value
        elif field == "baseline":
            if baseline is not None:
                return None
            baseline = value
        else:
            codes[field].append(value)
    flags = {field for field, _ in words.flags}
    return LintArgs(
        paths=tuple(map(Path, words.positional)),
        files_from=files_from,
        fmt=fmt,
        select=tuple(codes["select"]),
        ignore=tuple(codes["ignore"]),
        strict="strict" in flags,
        fix="fix" in flags,
        dry_run="dry_run" in flags,
        unsafe_fixes="unsafe_fixes" in flags,
        quiet="quiet" in flags,
        no_cache="no_cache" in flags,
        staged="staged" in flags,
        baseline=baseline,
    )


def _codes(values: tuple[str, ...]) -> list[str] | None:
    if not values:
        return None
    return [c.strip() for v in values for c in v.split(",") if c.strip()]


def _run_fix(
    ctx: LintContext,
    target: LintTarget,
    args: LintArgs,
    cache: bool | None,
    only: frozenset[str] | None,
) -> LintContext | int:
    """Apply the safe fixes (in the ``only`` files when named) and reload after writing; with
    ``dry_run`` print them and return the exit code instead."""
    from vaultkit.lint.fix import fix_vault
    from vaultkit.lint.runner import collect, finish, load_context

    kept = finish(target, (n.path for n in ctx.vault.notes), collect(ctx))
    reported = {(f.path, f.line, f.col) for f in kept if f.code == "VK103"}
    outcome = fix_vault(
        ctx,
        dry_run=args.dry_run,
        unsafe=args.unsafe_fixes,
        state_dir=target.state_dir,
        only=only,
        reported=reported,
    )
    if not args.quiet:
        _say_fixes(outcome, args.dry_run)
    if args.dry_run:
        sys.stdout.write(outcome.diff)
        return 1 if outcome.changed else 0
    return load_context(target, cache=cache) if outcome.changed else ctx


def _say_fixes(outcome: FixOutcome, dry_run: bool) -> None:
    """One line per fix on stderr, and how many unsafe fixes were left out."""
    verb = "would fix" if dry_run else "fixed"
    for line in outcome.applied:
        print(f"{verb} {line}", file=sys.stderr)
    if dry_run:
        print(f"would fix {len(outcome.changed)} file(s)", file=sys.stderr)
    if outcome.unsafe_left:
        print(
            f"{outcome.unsafe_left} unsafe fix(es) not applied (alias links: a guess of what the "
            "link means); review them with --diff --unsafe-fixes, apply with --fix --unsafe-fixes",
            file=sys.stderr,
        )


def _notice_for(quiet: bool) -> Callable[[str], None] | None:
    """One line on stderr per notice (a big note being read), when it is a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    return lambda line: print(line, file=sys.stderr, flush=True)


def _render(fmt: str, findings: list[Finding], root: Path, notes: int, code: int) -> str:
    from vaultkit.lint.output import render_github, render_json, render_text

    if fmt == "json":
        return render_json(findings, vault=display_root(root) or ".", notes=notes, exit_code=code)
    if fmt == "github":
        return render_github(findings, display_root(root))
    return render_text(findings, display_root(root))


def _read_list(source: str) -> list[Path]:
    from vaultkit.errors import VaultkitError
    from vaultkit.lint.files import read_list

    if source == "-":
        return read_list(sys.stdin.read())
    try:
        return read_list(Path(source).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise VaultkitError(
            f"{source}: cannot read the file list: {exc}", hint="pass a UTF-8 list of paths"
        ) from exc


def _targets(args: LintArgs) -> Targets | None:
    """The vault and the notes named (see :mod:`vaultkit.lint.files`); a named file outside
    the vault is said on stderr and left alone (pre-commit passes every changed file).
    None: ``--staged`` found nothing staged and nothing else was named."""
    from vaultkit.lint.files import git_staged, targets

    listed = _read_list(args.files_from) if args.files_from is not None else None
    if args.staged:
        folders = [path.resolve() for path in args.paths if path.is_dir()]
        staged = [  # notes; attachments too inside a vault folder named
            path
            for path in git_staged(Path.cwd())
            if path.suffix.lower() == ".md" or any(path.is_relative_to(f) for f in folders)
        ]
        if not staged and not args.paths and listed is None:
            return None
        listed = [*(listed or ()), *staged]
    found = targets(args.paths, listed, resolve_vault)
    for file in found.outside:
        print(f"note: {file} is not in the vault {found.vault}: not linted", file=sys.stderr)
    if not args.quiet:
        for path in sorted(found.gone):
            print(
                f"note: {path} no longer exists: checking the notes that linked to it",
                file=sys.stderr,
            )
    return found


def _reported(
    scope: Targets, target: LintTarget, args: LintArgs, found: Sequence[Finding]
) -> Callable[[Finding], bool]:
    """Which of the run's ``found`` findings to report: all (no notes named), else those in the
    named notes and those on links elsewhere that name a named or gone path
    (:mod:`vaultkit.lint.cache.reach`)."""
    from vaultkit.lint.cache.named import reported
    from vaultkit.lint.cache.reach import reached_links

    only = scope.only
    if only is None:
        return lambda f: True
    named = only | scope.gone
    links = reached_links(target, named, cache=not args.no_cache, findings=found)
    return reported(only, links)


def _cached(
    target: LintTarget, scope: Targets, args: LintArgs, cache: bool | None
) -> tuple[list[Finding], int]:
    """The findings to report and the number of notes, through the lint cache: of the whole
    vault, or only those of the named notes (:mod:`vaultkit.lint.cache.named`)."""
    from vaultkit.lint.cache.named import lint_named
    from vaultkit.lint.cache.run import lint_vault

    progress, notice = progress_for(args.quiet), _notice_for(args.quiet)
    if scope.only is None:
        result = lint_vault(target, progress=progress, cache=cache, notice=notice)
    else:
        result = lint_named(
            target, scope.only, scope.gone, progress=progress, cache=cache, notice=notice
        )
    return result.findings, result.notes


def _baselined(path: Path, findings: list[Finding], whole: bool, quiet: bool) -> list[Finding]:
    """The findings not in the baseline at ``path`` (recording it when it does not exist yet,
    shrinking it after a run over the ``whole`` vault when findings were fixed)."""
    from vaultkit.lint import baseline

    def say(line: str) -> None:
        if not quiet:
            print(line, file=sys.stderr)

    recorded = baseline.read(path)
    if recorded is None:
        baseline.write(path, baseline.counts(findings))
        say(f"baseline: recorded {len(findings)} finding(s) in {path}; later runs report new ones")
        return []
    kept = baseline.split(findings, recorded)
    if whole and kept.now != recorded:
        baseline.write(path, kept.now)
        fixed = sum(recorded.values()) - sum(kept.now.values())
        say(f"baseline: {fixed} fixed finding(s) dropped from {path}")
    if kept.known:
        say(f"baseline: {kept.known} known finding(s) in {path} not shown")
    return kept.new


def run(args: LintArgs) -> int:
    """Lint the vault, print the findings (summary on stderr) and return the exit code."""
    from vaultkit.lint.output import summary_line
    from vaultkit.lint.runner import (
        choose,
        collect,
        exit_code,
        finish,
        lint_target,
        load_context,
        select_findings,
    )

    scope = _targets(args)
    if scope is None:
        if not args.quiet:
            print("no notes staged: nothing to check", file=sys.stderr)
        return 0
    root, only = scope.vault, scope.only
    target = lint_target(root)  # vaultkit.toml loaded and the state folder found, once
    cache = False if args.no_cache else None
    select, ignore = _codes(args.select), _codes(args.ignore)
    if args.fix or args.dry_run:  # fixes read every note anyway: the uncached path
        ctx = load_context(target, progress=progress_for(args.quiet), cache=cache)
        selection = choose(ctx.config, select, ignore, args.strict)
        fixed = _run_fix(ctx, target, args, cache, only)
        if isinstance(fixed, int):
            return fixed
        notes = len(fixed.vault.notes)
        found = finish(target, (n.path for n in fixed.vault.notes), collect(fixed))
        if only is not None:
            wanted = _reported(scope, target, args, found)
            found = [f for f in found if wanted(f)]
    else:  # through the lint cache: an unchanged vault costs one stat walk
        selection = choose(target.config, select, ignore, args.strict)
        found, notes = _cached(target, scope, args, cache)
    if only is not None:
        notes = len({f.path for f in found} | {p for p in only if p.lower().endswith(".md")})
    findings = select_findings(found, selection)
    if args.baseline is not None:
        findings = _baselined(Path(args.baseline), findings, only is None, args.quiet)
    code = exit_code(findings, selection.strict)
    sys.stdout.write(_render(args.fmt, findings, root, notes, code))
    if not args.quiet:
        print(summary_line(findings, notes), file=sys.stderr)
    return code
