"""The command table: each command's name, the module that registers it (loaded only when it
runs) and its one-line help, declared once. The typer registration
(:func:`vaultkit.cli.app.command`) and the quick ``vaultkit --help`` (:func:`top_help`) both
read it; tests/cli/test_cli_startup.py keeps the generated help equal to typer's rendering."""

from __future__ import annotations

import os
import sys


class Command:
    """One command: its name, the module under vaultkit.cli that registers it, its one-line
    help (the first paragraph of its ``--help``, which ``vaultkit --help`` shortens), and
    whether it is a group of subcommands."""

    __slots__ = ("group", "help", "module", "name")

    def __init__(self, name: str, module: str, help: str, *, group: bool = False) -> None:
        self.name, self.module, self.help, self.group = name, module, help, group


# The order of the modules is the order of ``vaultkit --help``: the vault engine first, then the
# session memory, then continuity (typer lists plain commands before command groups).
TABLE: tuple[Command, ...] = (
    Command("lint", "lint_cmd", "Check links, frontmatter, orphans, degraded notes and INDEX.md."),
    Command(
        "index",
        "index_cmd",
        "Regenerate INDEX.md from the notes: newest first, `- [[note]] — description`.",
    ),
    Command(
        "graph",
        "graph_cmd",
        "Export the vault's link graph (notes, attachments, ghosts; one edge per link).",
    ),
    Command(
        "links",
        "graph_cmd",
        "Show a note's outgoing links (with where each resolves) and its backlinks.",
    ),
    Command(
        "stats",
        "graph_cmd",
        "Count notes, attachments, links by kind, ghosts, orphans, dead ends, degraded notes, "
        "tags.",
    ),
    Command(
        "mv",
        "mv_cmd",
        "Move a note, an attachment or a folder and rewrite every link that named it.",
    ),
    Command(
        "watch",
        "watch_cmd",
        "Watch a vault and regenerate INDEX.md (and the note cache) after every edit.",
    ),
    Command(
        "hooks",
        "hooks_cmd",
        "Install, remove or inspect vaultkit's hooks for each agent: SessionStart and SessionEnd "
        "in Claude Code, Codex CLI and Gemini CLI.",
        group=True,
    ),
    Command(
        "restore",
        "session_cmd",
        "Print exactly what the SessionStart hook would inject now (without starting a backfill).",
    ),
    Command(
        "doctor",
        "session_cmd",
        "Check the hooks, the claude CLI, the store (where it is, what git may track), the queue "
        "and recent worker results. Exit 1 when a check failed (warnings alone exit 0).",
    ),
    Command(
        "ingest",
        "ingest_cmd",
        "Copy, distil and index one transcript now, in the foreground (old sessions, debugging).",
    ),
    Command(
        "forget",
        "forget_cmd",
        "Remove sessions everywhere in the store: raw copy, summary (archive too), wiki note, "
        "readable transcript, INDEX.md line, queue, caches and search indexes, and their lines in "
        "the logs (the activity log's prompt text included).",
    ),
    Command(
        "search",
        "search_cmd",
        "Search the memory: wiki notes, summaries (archived too) and readable transcripts.",
    ),
    Command(
        "related",
        "search_cmd",
        "Show the notes nearest to NOTE in the link graph, ranked, with why.",
    ),
    Command(
        "mcp",
        "mcp_cmd",
        "Run the MCP server on stdio: search, read_note, links, related, recent_sessions, "
        "latest_handoff, vault_health, restore and memory_cost (read-only; search with "
        "all_projects covers every store); save_handoff, write_note, edit_note and move_note "
        "only with --allow-write.",
    ),
    Command(
        "baton",
        "continuity_cmd",
        "Leave a baton: the in-flight memo (stdin) the next session of this project inherits.",
    ),
    Command(
        "save",
        "continuity_cmd",
        "Save a handoff written by the agent (stdin, resume contract) as auto_saved: false.",
    ),
    Command(
        "resume",
        "continuity_cmd",
        "Restore context handoff-first: path A (fresh handoff), B (stale) or C (no handoff).",
    ),
    Command(
        "shell-init",
        "continuity_cmd",
        "Print the shell hook that feeds the activity log (add it to your shell profile).",
    ),
    Command(
        "transcript",
        "continuity_cmd",
        "Readable Markdown renderings of transcripts.",
        group=True,
    ),
    Command(
        "loop",
        "continuity_cmd",
        "Run the agent again after it exits: vaultkit loop [--delay 5] -- claude [args…].",
    ),
    Command(
        "demo",
        "demo_cmd",
        "Run one recorded Claude Code session through the real hooks, distilled offline, in a "
        "temporary project: print its wiki note, its INDEX.md line and what the next session "
        "would be given. Nothing is written outside the temporary folder, which is removed "
        "unless --keep.",
    ),
    Command("version", "version_cmd", "Print vaultkit's version."),
)

COMMANDS: dict[str, str] = {command.name: command.module for command in TABLE}
HELP: dict[str, str] = {command.name: command.help for command in TABLE}

APP_HELP = (
    "Long-term memory for AI coding agents that is also an Obsidian knowledge base.\n\n"
    "Most commands take a VAULT folder; without one they use the current project's "
    "sessions/wiki (the store sits at the git root)."
)
# The top-level options: spellings and help (``--help``'s is click's own wording).
VERSION_OPTION = (("--version", "-V"), "Print vaultkit's version and exit.")
HELP_OPTION = (("-h", "--help"), "Show this message and exit.")

HELP_WIDTH = 80  # typer wraps help at min(terminal columns, 80) - 2; top_help is that


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


# --- ``vaultkit --help`` as click lays it out at HELP_WIDTH columns -----------------------------

_WIDTH = HELP_WIDTH - 2  # click's formatter width
_INDENT = "  "  # click indents the help text and each section's rows by two spaces


def top_help(prog: str) -> str:
    """``vaultkit --help`` as typer prints it on a terminal at least HELP_WIDTH columns wide,
    made from APP_HELP, the two options and TABLE."""
    paragraphs = "\n\n".join(_wrap(p, _WIDTH, _INDENT, _INDENT) for p in APP_HELP.split("\n\n"))
    options = [
        (", ".join(_short_first(names)), text) for names, text in (VERSION_OPTION, HELP_OPTION)
    ]
    listed = [c for c in TABLE if not c.group] + [c for c in TABLE if c.group]
    limit = _WIDTH - 6 - max(len(c.name) for c in listed)  # click's room for a short help
    commands = [(c.name, short_help(c.help, limit)) for c in listed]
    return (
        f"Usage: {prog} [OPTIONS] COMMAND [ARGS]...\n\n{paragraphs}\n\n"
        f"Options:\n{_rows(options)}\nCommands:\n{_rows(commands)}"
    )


def short_help(text: str, limit: int) -> str:
    """The first sentence of ``text``'s first paragraph, shortened to ``limit`` characters with
    ``...`` (what click lists for a command without a short help of its own)."""
    words = text.partition("\n\n")[0].split()
    for i, word in enumerate(words):  # a period ends it unless a lowercase word follows
        if word.endswith(".") and (i == len(words) - 1 or not words[i + 1][0].islower()):
            words = words[: i + 1]
            break
    joined = " ".join(words)
    if len(joined) <= limit:
        return joined
    kept: list[str] = []
    for word in words:  # the most words that leave room for the "..."
        if len(" ".join([*kept, word])) + 3 > limit:
            break
        kept.append(word)
    return " ".join(kept) + "..."


def _short_first(names: tuple[str, ...]) -> list[str]:
    """Option spellings as click lists them: by the length of their dash prefix."""
    return sorted(names, key=lambda name: len(name) - len(name.lstrip("-")))


def _rows(rows: list[tuple[str, str]]) -> str:
    """A section's definition list: terms in a column, their text wrapped beside them."""
    first_col = min(max(len(term) for term, _ in rows), 30) + 2
    out = []
    for term, text in rows:
        lines = _wrap(text, max(_WIDTH - first_col - 2, 10), "", "").splitlines() or [""]
        if len(term) <= first_col - 2:
            head = f"{_INDENT}{term}{' ' * (first_col - len(term))}"
        else:
            head = f"{_INDENT}{term}\n{' ' * (first_col + len(_INDENT))}"
        rest = "".join(f"{' ' * (first_col + len(_INDENT))}{line}\n" for line in lines[1:])
        out.append(f"{head}{lines[0]}\n{rest}")
    return "".join(out)


def _wrap(text: str, width: int, first: str, then: str) -> str:
    """``text`` filled greedily into lines of at most ``width`` characters, indent included.
    Lines break only at spaces; click's wrapper may also break after a hyphen inside a word,
    which the test comparing this help with typer's would report."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        indent = then if lines else first
        candidate = f"{line} {word}" if line else word
        if line and len(indent) + len(candidate) > width:
            lines.append(indent + line)
            candidate = word
        line = candidate
    if line:
        lines.append((then if lines else first) + line)
    return "\n".join(lines)
