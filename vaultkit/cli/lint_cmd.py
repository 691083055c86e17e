"""``vaultkit lint``: check a vault and print findings as text, JSON or GitHub annotations."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from vaultkit.cli.app import command
from vaultkit.cli.lint_run import LintArgs, run
from vaultkit.cli.options import typer_option
from vaultkit.cli.spec import LINT_OPT


class LintFormat(StrEnum):
    text = "text"
    json = "json"
    github = "github"


PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Vault folder (default: this project's sessions/wiki), and/or notes in it: then only "
        "their findings are reported, resolved against the whole vault.",
        show_default=False,
    ),
]


def _opt(field: str) -> typer.models.OptionInfo:
    """The typer option of the LintArgs field ``field`` (declared in cli/spec.py)."""
    return typer_option(LINT_OPT[field])


@command("lint")
def lint(
    paths: PathsArg = None,
    fmt: Annotated[LintFormat, _opt("fmt")] = LintFormat.text,
    select: Annotated[list[str] | None, _opt("select")] = None,
    ignore: Annotated[list[str] | None, _opt("ignore")] = None,
    strict: Annotated[bool, _opt("strict")] = False,
    fix: Annotated[bool, _opt("fix")] = False,
    dry_run: Annotated[bool, _opt("dry_run")] = False,
    unsafe_fixes: Annotated[bool, _opt("unsafe_fixes")] = False,
    quiet: Annotated[bool, _opt("quiet")] = False,
    no_cache: Annotated[bool, _opt("no_cache")] = False,
    files_from: Annotated[str | None, _opt("files_from")] = None,
    baseline: Annotated[str | None, _opt("baseline")] = None,
    staged: Annotated[bool, _opt("staged")] = False,
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
