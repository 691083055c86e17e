"""``vaultkit lint``: check a vault and print findings as text, JSON or GitHub annotations."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from vaultkit.cli.app import app
from vaultkit.cli.common import resolve_vault
from vaultkit.cli.progress import progress_for
from vaultkit.lint.output import render_github, render_json, render_text, summary_line
from vaultkit.vault.model import Finding

if TYPE_CHECKING:  # the vault engine is imported when the command runs, not at CLI start-up
    from vaultkit.lint.context import LintContext, LintTarget


class LintFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"


def display_root(vault: Path) -> str:
    """How finding paths are prefixed: the vault relative to the working directory when it is
    below it (so editors and CI can open ``path:line:col``), else its absolute path."""
    rel = os.path.relpath(vault, Path.cwd())
    shown = vault.as_posix() if rel.startswith("..") else Path(rel).as_posix()
    return "" if shown == "." else shown


CodesOpt = Annotated[
    list[str] | None,
    typer.Option(
        metavar="CODES", help="Codes or prefixes (repeat or comma-separate), e.g. VK1 or VK101."
    ),
]


def _codes(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [c.strip() for v in values for c in v.split(",") if c.strip()]


VaultArg = Annotated[
    Path | None,
    typer.Argument(
        help="Vault folder (default: this project's sessions/wiki).", show_default=False
    ),
]


def _run_fix(
    ctx: LintContext, target: LintTarget, dry_run: bool, quiet: bool, cache: bool | None
) -> LintContext:
    """Apply (or, with ``dry_run``, print and exit on) the safe fixes; reload after writing."""
    from vaultkit.lint.fix import fix_vault
    from vaultkit.lint.runner import load_context

    outcome = fix_vault(ctx, dry_run=dry_run, state_dir=target.state_dir)
    if dry_run:
        sys.stdout.write(outcome.diff)
        if not quiet:
            print(f"would fix {len(outcome.changed)} file(s)", file=sys.stderr)
        raise typer.Exit(1 if outcome.changed else 0)
    if not quiet and outcome.changed:
        print(f"fixed: {', '.join(outcome.changed)}", file=sys.stderr)
    return load_context(target, cache=cache) if outcome.changed else ctx


def _render(fmt: LintFormat, findings: list[Finding], root: Path, notes: int, code: int) -> str:
    if fmt is LintFormat.json:
        return render_json(findings, vault=display_root(root) or ".", notes=notes, exit_code=code)
    if fmt is LintFormat.github:
        return render_github(findings, display_root(root))
    return render_text(findings, display_root(root))


@app.command()
def lint(
    vault: VaultArg = None,
    fmt: Annotated[LintFormat, typer.Option("--format", "-f", help="Output format.")] = (
        LintFormat.text
    ),
    select: CodesOpt = None,
    ignore: CodesOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the run too.")] = False,
    fix: Annotated[
        bool, typer.Option("--fix", help="Apply safe fixes (INDEX.md, alias links).")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the safe fixes as a diff; write nothing.")
    ] = (False),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Read and lint every note afresh; neither read nor write .vaultkit/ caches.",
        ),
    ] = False,
) -> None:
    """Check links, frontmatter, orphans, degraded notes and INDEX.md.

    Prints `path:line:col: CODE message` per finding (a summary goes to stderr). Exit 0 when
    clean, 1 on error findings (any finding with --strict), 2 on a usage or tool error.
    Rules and the JSON schema: docs/lint.md. Vaults of 200+ notes keep caches in .vaultkit/
    (parsed notes, findings), so an unchanged vault costs about one directory scan.

    \b
    Examples:
      vaultkit lint examples/sessions/wiki
      vaultkit lint --format github --strict        # this project's sessions/wiki, in CI
      vaultkit lint --select VK1 --ignore VK104 my-vault
      vaultkit lint --fix --dry-run my-vault        # show the safe fixes as a diff
    """
    from vaultkit.lint.cache.run import lint_vault
    from vaultkit.lint.runner import (
        choose,
        collect,
        exit_code,
        lint_target,
        load_context,
        select_findings,
    )

    root = resolve_vault(vault)
    target = lint_target(root)  # vaultkit.toml loaded and the state folder found, once
    cache = False if no_cache else None
    if fix or dry_run:  # the safe fixes read every note anyway: the plain, uncached-lint path
        ctx = load_context(target, progress=progress_for(quiet), cache=cache)
        selection = choose(ctx.config, _codes(select), _codes(ignore), strict)
        ctx = _run_fix(ctx, target, dry_run, quiet, cache)
        found, notes = collect(ctx), len(ctx.vault.notes)
    else:  # through the lint cache: an unchanged vault costs one stat walk
        selection = choose(target.config, _codes(select), _codes(ignore), strict)
        result = lint_vault(target, progress=progress_for(quiet), cache=cache)
        found, notes = result.findings, result.notes
    findings = select_findings(found, selection)
    code = exit_code(findings, selection.strict)
    sys.stdout.write(_render(fmt, findings, root, notes, code))
    if not quiet:
        print(summary_line(findings, notes), file=sys.stderr)
    raise typer.Exit(code)
