"""``vaultkit mcp``: serve the project's memory to the agent over MCP (stdio)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from vaultkit.cli.app import command


@command("mcp")
def mcp(
    project: Annotated[
        Path | None,
        typer.Option("--project", help="Project folder (default: the working directory)."),
    ] = None,
    allow_write: Annotated[
        bool, typer.Option("--allow-write", help="Also offer save_handoff (writes a summary).")
    ] = False,
) -> None:
    """\b
    Register it for Claude Code:
      claude mcp add vaultkit -- vaultkit mcp
    """
    from vaultkit.mcp.server import serve

    serve(project, allow_write=allow_write)
