"""Argument and option types several command modules share (the typer side of cli/common.py)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from vaultkit.cli.spec import Opt


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


VaultArg = Annotated[
    Path | None,
    typer.Argument(
        help="Vault folder (default: this project's sessions/wiki).", show_default=False
    ),
]
ProjectOpt = Annotated[
    Path | None, typer.Option("--project", help="Project folder (default: git root).")
]
FormatOpt = Annotated[OutputFormat, typer.Option("--format", help="text or json.")]


def typer_option(opt: Opt, **settings: Any) -> typer.models.OptionInfo:
    """The typer option ``opt`` declares (spellings and help from the one spec), with typer's
    own ``settings`` (``min=``, ``show_default=``) added."""
    return typer.Option(  # type: ignore[no-any-return]
        *opt.names, help=opt.help, metavar=opt.metavar, **settings
    )
