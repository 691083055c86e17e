"""The command table: which module registers each command (loaded only when it runs), and the
top-level help those commands make (tests/cli/test_cli_startup.py keeps it equal to typer's)."""

from __future__ import annotations

import os
import sys

# Command name -> the module under vaultkit.cli that registers it on the typer app. The order of
# the modules is the order of ``vaultkit --help``: the vault engine first, then the session
# memory, then continuity (typer lists plain commands before command groups).
COMMANDS: dict[str, str] = {
    "lint": "lint_cmd",
    "index": "index_cmd",
    "graph": "graph_cmd",
    "links": "graph_cmd",
    "stats": "graph_cmd",
    "mv": "mv_cmd",
    "watch": "watch_cmd",
    "hooks": "hooks_cmd",
    "restore": "session_cmd",
    "doctor": "session_cmd",
    "ingest": "ingest_cmd",
    "forget": "forget_cmd",
    "search": "search_cmd",
    "related": "search_cmd",
    "mcp": "mcp_cmd",
    "baton": "continuity_cmd",
    "save": "continuity_cmd",
    "resume": "continuity_cmd",
    "shell-init": "continuity_cmd",
    "transcript": "continuity_cmd",
    "loop": "continuity_cmd",
    "demo": "demo_cmd",
    "version": "version_cmd",
}

HELP_WIDTH = 80  # typer wraps help at min(terminal columns, 80) - 2; TOP_HELP_BODY is that


def load(command: str | None) -> None:
    """Import the module that registers ``command``; every module when it is not a command
    (``--help``, a typo: typer then lists or suggests from the full set)."""
    modules = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for module in modules:  # __import__, not importlib: so `python -X importtime` reports it
        __import__(f"vaultkit.cli.{module}")


def prog_name() -> str:
    """How the running program is called in usage lines: ``vaultkit`` for the installed script,
    ``python -m vaultkit`` for the module (what click would detect, decided once for both the
    quick paths and typer)."""
    main = sys.modules.get("__main__")
    package = getattr(main, "__package__", None)
    script = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "vaultkit"
    if not package:
        return script
    name = os.path.splitext(script)[0]
    return f"python -m {package}" + (f".{name}" if name != "__main__" else "")


def top_help(prog: str) -> str:
    """``vaultkit --help`` as typer prints it on a terminal at least HELP_WIDTH columns wide."""
    return f"Usage: {prog} [OPTIONS] COMMAND [ARGS]...\n{TOP_HELP_BODY}"


# typer's rendering of the help at HELP_WIDTH columns, below the usage line (a test compares).
TOP_HELP_BODY = (
    "\n"
    "  Long-term memory for AI coding agents that is also an Obsidian knowledge\n"
    "  base.\n"
    "\n"
    "  Most commands take a VAULT folder; without one they use the current\n"
    "  project's sessions/wiki (the store sits at the git root).\n"
    "\n"
    "Options:\n"
    "  -V, --version  Print vaultkit's version and exit.\n"
    "  -h, --help     Show this message and exit.\n"
    "\n"
    "Commands:\n"
    "  lint        Check links, frontmatter, orphans, degraded notes and...\n"
    "  index       Regenerate INDEX.md from the notes: newest first, `-...\n"
    "  graph       Export the vault's link graph (notes, attachments, ghosts;...\n"
    "  links       Show a note's outgoing links (with where each resolves) and...\n"
    "  stats       Count notes, attachments, links by kind, ghosts, orphans,...\n"
    "  mv          Move a note, an attachment or a folder and rewrite every...\n"
    "  watch       Watch a vault and regenerate INDEX.md (and the note cache)...\n"
    "  restore     Print exactly what the SessionStart hook would inject now...\n"
    "  doctor      Check the hooks, the claude CLI, the store (where it is,...\n"
    "  ingest      Copy, distil and index one transcript now, in the...\n"
    "  forget      Remove sessions everywhere in the store: raw copy, summary...\n"
    "  search      Search the memory: wiki notes, summaries (archived too) and...\n"
    "  related     Show the notes nearest to NOTE in the link graph, ranked,...\n"
    "  mcp         Run the MCP server on stdio: search, read_note, links,...\n"
    "  baton       Leave a baton: the in-flight memo (stdin) the next session...\n"
    "  save        Save a handoff written by the agent (stdin, resume...\n"
    "  resume      Restore context handoff-first: path A (fresh handoff), B...\n"
    "  shell-init  Print the shell hook that feeds the activity log (add it to...\n"
    "  loop        Run the agent again after it exits: vaultkit loop [--delay...\n"
    "  demo        Run one recorded Claude Code session through the real...\n"
    "  version     Print vaultkit's version.\n"
    "  hooks       Install, remove or inspect vaultkit's hooks for each agent:...\n"
    "  transcript  Readable Markdown renderings of transcripts.\n"
)
