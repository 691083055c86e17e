"""``vaultkit mcp``: serve the project's memory to the agent over MCP (stdio)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from vaultkit.cli.app import app


@app.command()
def mcp(
    project: Annotated[
        Path | None,
        typer.Option("--project", help="Project folder (default: the working directory)."),
    ] = None,
    allow_write: Annotated[
        bool, typer.Option("--allow-write", help="Also offer save_handoff (writes a summary).")
    ] = False,
) -> None:
    """Run the MCP server on stdio: search, read_note, links, related, recent_sessions,
    latest_handoff, vault_health, restore and memory_cost (read-only; search with all_projects
    covers every store); save_handoff, write_note, edit_note and move_note only with
    --allow-write.

    \b
    Register it for Claude Code:
      claude mcp add vaultkit -- vaultkit mcp
    """
    from vaultkit.mcp.server import serve

    serve(project, allow_write=allow_write)
