"""``vaultkit lint``: check a vault and print findings as text, JSON or GitHub annotations."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.cli.app import command
from vaultkit.cli.lint_run import LintArgs, run


class LintFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"


CodesOpt = Annotated[
    list[str] | None,
    typer.Option(
        metavar="CODES", help="Codes or prefixes (repeat or comma-separate), e.g. VK1 or VK101."
    ),
]


PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Vault folder (default: this project's sessions/wiki), and/or notes in it: then only "
        "their findings are reported, resolved against the whole vault.",
        show_default=False,
    ),
]
FilesFromOpt = Annotated[
    str | None,
    typer.Option(
        "--files-from",
        metavar="FILE",
        help="Read more note paths from FILE, one a line ('-': standard input).",
    ),
]


@command("lint")
def lint(
    paths: PathsArg = None,
    fmt: Annotated[LintFormat, typer.Option("--format", "-f", help="Output format.")] = (
        LintFormat.text
    ),
    select: CodesOpt = None,
    ignore: CodesOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the run too.")] = False,
    fix: Annotated[
        bool,
        typer.Option("--fix", help="Apply the safe fixes (INDEX.md); each is listed on stderr."),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--diff", "--dry-run", help="Print the fixes as a diff; write nothing.")
    ] = (False),
    unsafe_fixes: Annotated[
        bool,
        typer.Option(
            "--unsafe-fixes",
            help="Also the fixes that guess a meaning: an alias-only link [[UID]] becomes "
            "[[Note|UID]] (review with --diff first).",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, no summary.")] = False,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Read and lint every note afresh; neither read nor write .vaultkit/ caches.",
        ),
    ] = False,
    files_from: FilesFromOpt = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            metavar="FILE",
            help="Report only findings not recorded in FILE; a missing FILE records today's. "
            "Fixed findings drop out of it.",
        ),
    ] = None,
    staged: Annotated[
        bool,
        typer.Option(
            "--staged",
            help="Also the notes git has staged, deleted and renamed ones included (pre-commit).",
        ),
    ] = False,
) -> None:
    """Prints `path:line:col: CODE message` per finding (a summary goes to stderr). Exit 0 when
    clean, 1 on error findings (any finding with --strict), 2 on a usage or tool error.
    Rules and the JSON schema: docs/lint.md. Vaults of 200+ notes keep caches in .vaultkit/
    (parsed notes, findings), so an unchanged vault costs about one directory scan.
    Named notes bring in the notes that link to them; a listed path that no longer exists
    (deleted, renamed away) is no error: the notes that linked to it are checked.

    \b
    Examples:
      vaultkit lint examples/sessions/wiki
      vaultkit lint --format github --strict        # this project's sessions/wiki, in CI
      vaultkit lint --select VK1 --ignore VK104 my-vault
      vaultkit lint --fix --diff my-vault           # show the safe fixes as a diff
      vaultkit lint --diff --unsafe-fixes my-vault  # and the alias rewrites, to review
      vaultkit lint my-vault/a.md my-vault/b.md     # only these notes' findings
      git diff --name-only | vaultkit lint --files-from - my-vault
      vaultkit lint --staged                        # what a commit changes, deletions too
      vaultkit lint --baseline lint-baseline.json my-vault   # only findings new since then
    """
    args = LintArgs(
        paths=tuple(paths or ()),
        fmt=fmt.value,
        select=tuple(select or ()),
        ignore=tuple(ignore or ()),
        strict=strict,
        fix=fix,
        dry_run=dry_run,
        unsafe_fixes=unsafe_fixes,
        quiet=quiet,
        no_cache=no_cache,
        files_from=files_from,
        staged=staged,
        baseline=baseline,
    )
    raise typer.Exit(run(args))
