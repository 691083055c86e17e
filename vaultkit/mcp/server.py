"""``vaultkit mcp``: a stdio MCP server over the project's memory, read-only by default;
``save_handoff`` exists only with ``--allow-write``. The tools are declared here as data
(mcp/spec) and served by a lean JSON-RPC layer (mcp/rpc), so ``initialize`` answers at once."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from vaultkit import __version__
from vaultkit.base.store import find_store
from vaultkit.errors import VaultkitError
from vaultkit.mcp import rpc, tools
from vaultkit.mcp.spec import ArgumentError, Json, Param, Tool
from vaultkit.mcp.tools import Memory

INSTRUCTIONS = (
    "vaultkit is this project's long-term memory: handoff summaries and wiki notes of earlier "
    "agent sessions, with [[links]] between them. search finds older decisions, findings and "
    "files by words (Korean, Japanese and Chinese by any part of a word); read_note shows a "
    "note (paged); links and related walk the note graph; recent_sessions and latest_handoff "
    "say what happened last; restore shows what the next session will be given; memory_cost "
    "what distilling sessions has cost; vault_health reports broken links and degraded notes. "
    "Every path is relative to the store's sessions/ folder (wiki/..., summary/...)."
)

NOTE = Param("note", "string", "A note: store path (wiki/x.md), wiki path, or its [[name]].")
LIMIT = Param(
    "limit",
    "integer",
    f"Most results to return (above {tools.MAX_LIMIT}: {tools.MAX_LIMIT}).",
    10,
    1,
)
LINES = Param(
    "max_lines",
    "integer",
    f"Lines per page (above {tools.MAX_LINES}: {tools.MAX_LINES}).",
    tools.PAGE_LINES,
    1,
)
SEARCH = (
    Param("query", "string", 'Words, "a phrase", prefix*, a OR b, -excluded.'),
    Param("type", "strings", "Only these kinds: wiki, summary, transcript.", []),
    Param("since", "string", "Only documents dated on or after YYYY-MM-DD.", ""),
    Param("tag", "string", "Only notes with this tag (or a child tag).", ""),
    LIMIT,
    Param("author", "string", "Only notes written by this person (their git user.name).", ""),
    Param(
        "all_projects",
        "boolean",
        "Search every project's memory this user has, not only this one's (each hit names"
        " its project).",
        False,
    ),
)
RESTORE = (
    Param("source", "string", "The SessionStart source: startup, clear or compact.", "startup"),
    Param("session_id", "string", "Session id (for source compact).", ""),
)


def tool_list(memory: Memory, *, allow_write: bool = False) -> list[Tool]:
    """Every tool the server offers (``save_handoff`` only when ``allow_write``)."""

    def on(fn: Callable[..., Json]) -> Callable[..., Json]:
        return lambda **kw: fn(memory, **kw)

    found = [
        Tool(
            "search",
            "Search the project's memory (wiki notes, handoff summaries, readable transcripts)."
            " Ask in plain words or as a question, in the language the notes are written in;"
            " a hit holding only some of the words says complete: false. When no hit answers,"
            " ask again with the words a note would use (a feature's or a note's name), or"
            " with alternatives: web viewer OR browser.",
            SEARCH,
            lambda **kw: tools.search(
                memory,
                kw["query"],
                kw["type"],
                kw["since"],
                kw["tag"],
                kw["limit"],
                kw["author"],
                kw["all_projects"],
            ),
        ),
        Tool(
            "read_note",
            "Read a note one page of lines at a time (next_offset: where the next page starts).",
            (NOTE, Param("offset", "integer", "First line to return (1-based).", 1, 1), LINES),
            on(tools.read_note),
        ),
        Tool(
            "links",
            "A wiki note's outgoing links (and where each resolves) and the notes linking to it.",
            (NOTE,),
            on(tools.links),
        ),
        Tool(
            "related",
            "The wiki notes nearest to a note in the link graph, ranked, each with why.",
            (NOTE, LIMIT),
            on(tools.related),
        ),
        Tool(
            "recent_sessions",
            "The newest session handoff summaries: path, title, date, session id, quality.",
            (LIMIT,),
            on(tools.recent_sessions),
        ),
        Tool(
            "latest_handoff",
            "The newest handoff summary's text: what was done, the current state, next steps.",
            (LINES,),
            on(tools.latest_handoff),
        ),
        Tool(
            "vault_health",
            "Counts of broken links (ghosts), orphan notes and degraded notes, with the worst.",
            (),
            on(tools.vault_health),
        ),
        Tool(
            "restore",
            "Exactly what the next session would be given at start (as `vaultkit restore`), "
            "and which handoff it would resume from and why newer ones were passed over.",
            RESTORE,
            on(tools.restore),
        ),
        Tool(
            "memory_cost",
            "What distilling sessions into memory cost today and this month, with the daily "
            "budget (the cost lines of `vaultkit doctor`).",
            (),
            on(tools.memory_cost),
        ),
    ]
    if allow_write:
        found.append(
            Tool(
                "save_handoff",
                "Save a handoff written by the agent as a summary note (auto_saved: false).",
                (
                    Param("text", "string", "The handoff in Markdown (resume contract)."),
                    Param("title", "string", "Title (default: its # heading).", ""),
                ),
                on(tools.save),
                writes=True,
            )
        )
        found.extend(_write_tools(memory))
    return [Tool(t.name, t.description, t.params, _no_nul(t.name, t.run), t.writes) for t in found]


def _write_tools(memory: Memory) -> list[Tool]:
    """The wiki's write tools (``--allow-write``): write, edit and move notes."""
    text = Param("text", "string", "The note in Markdown, [[links]] included.")
    return [
        Tool(
            "write_note",
            "Create a wiki note; not written while a link names nothing (ghosts come back with "
            "the closest note names: fix them and call again).",
            (Param("path", "string", "The new note's path inside wiki/."), text),
            lambda **kw: tools.write_note(memory, kw["path"], kw["text"]),
            writes=True,
        ),
        Tool(
            "edit_note",
            "Replace (or append to) one section of a wiki note, refused if the note changed "
            "since read_note; a missing heading becomes a new section at the end.",
            (
                NOTE,
                Param("hash", "string", "The hash read_note returned for the note."),
                Param("heading", "string", "The section's heading text."),
                Param("text", "string", "The section's new body (Markdown)."),
                Param("append", "boolean", "Add to the section instead of replacing it.", False),
            ),
            lambda **kw: tools.edit_note(
                memory, kw["note"], kw["hash"], kw["heading"], kw["text"], kw["append"]
            ),
            writes=True,
        ),
        Tool(
            "move_note",
            "Move or rename a wiki note and rewrite every link to it (as `vaultkit mv`).",
            (NOTE, Param("to", "string", "The new path inside wiki/ (x.md, a/x.md).")),
            lambda **kw: tools.move_note(memory, kw["note"], kw["to"]),
            writes=True,
        ),
    ]


def _no_nul(name: str, run: Callable[..., Json]) -> Callable[..., Json]:
    """No path, query or note name holds a NUL byte: say so instead of failing deeper down."""

    def checked(**kwargs: object) -> Json:
        for key, value in kwargs.items():
            if isinstance(value, str) and "\x00" in value:
                raise ArgumentError(
                    f"{name}: argument {key!r} contains a NUL byte (\\x00); "
                    "pass the text without it"
                )
        return run(**kwargs)

    return checked


def failure(tool: str, exc: Exception) -> str:
    """What the model reads when a tool fails: the user-facing error and its fix."""
    if isinstance(exc, VaultkitError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"cannot read: {exc}"
    print(f"vaultkit mcp: {tool} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    return f"{tool}: internal error ({type(exc).__name__}); `vaultkit doctor` checks the setup"


def session(memory: Memory, *, allow_write: bool = False) -> rpc.Session:
    """A connection's state: the tools over ``memory``."""
    listed = tool_list(memory, allow_write=allow_write)
    info = rpc.Info("vaultkit", __version__, INSTRUCTIONS)
    return rpc.Session(info, {t.name: t for t in listed}, failure)


def serve(project: Path | None, *, allow_write: bool = False) -> None:
    """Run the server on stdio for the store of ``project`` (default: the working directory)."""
    folder = project.resolve() if project is not None else Path.cwd()
    rpc.serve(session(Memory(find_store(folder), folder), allow_write=allow_write))
