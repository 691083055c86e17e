"""``vaultkit mcp``: a stdio MCP server (official SDK) over the project's memory, read-only by
default; ``save_handoff`` exists only with ``--allow-write``."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from vaultkit import __version__
from vaultkit.base.store import find_store
from vaultkit.errors import VaultkitError
from vaultkit.mcp import tools
from vaultkit.mcp.tools import Json, Memory

P = ParamSpec("P")
R = TypeVar("R")

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
WRITES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
INSTRUCTIONS = (
    "vaultkit is this project's long-term memory: handoff summaries and wiki notes of earlier "
    "agent sessions, with [[links]] between them. search finds older decisions, findings and "
    "files by words (Korean, Japanese and Chinese by any part of a word); read_note shows a "
    "note (paged); links and related walk the note graph; recent_sessions and latest_handoff "
    "say what happened last; vault_health reports broken links and degraded notes."
)

Note = Annotated[
    str, Field(description="A note: store path (wiki/x.md), wiki path, or its [[name]].")
]
Limit = Annotated[int, Field(ge=1, le=50, description="Most results to return.")]


def _answers(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn a user-facing VaultkitError (or a NUL byte in an argument) into a tool error the
    model can read and act on."""

    @wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        for key, value in kwargs.items():  # no path, query or note name holds one
            if isinstance(value, str) and "\x00" in value:
                raise ToolError(
                    f"{fn.__name__}: argument {key!r} contains a NUL byte (\\x00); "
                    "pass the text without it"
                )
        try:
            return fn(*args, **kwargs)
        except VaultkitError as exc:
            raise ToolError(str(exc)) from exc
        except OSError as exc:
            raise ToolError(f"cannot read: {exc}") from exc

    return run


def build_server(memory: Memory, *, allow_write: bool = False) -> MCPServer:
    """The server with its tools registered (the write tools only when ``allow_write``)."""
    server: MCPServer = MCPServer(
        "vaultkit", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )

    @server.tool(annotations=READ_ONLY)
    @_answers
    def search(
        query: Annotated[str, Field(description='Words, "a phrase", prefix*, a OR b, -excluded.')],
        type: Annotated[
            list[str], Field(description="Only these kinds: wiki, summary, transcript.")
        ] = [],  # noqa: B006 - the SDK reads the default into the schema; never mutated
        since: Annotated[
            str, Field(description="Only documents dated on or after YYYY-MM-DD.")
        ] = "",
        tag: Annotated[str, Field(description="Only notes with this tag (or a child tag).")] = "",
        limit: Limit = 10,
        author: Annotated[
            str, Field(description="Only notes written by this person (their git user.name).")
        ] = "",
    ) -> Json:
        """Search the project's memory (wiki notes, handoff summaries, readable transcripts)."""
        return tools.search(memory, query, type, since, tag, limit, author)

    @server.tool(annotations=READ_ONLY)
    @_answers
    def read_note(
        note: Note,
        offset: Annotated[int, Field(ge=1, description="First line to return (1-based).")] = 1,
        max_lines: Annotated[
            int, Field(ge=1, le=1000, description="Lines per page.")
        ] = tools.PAGE_LINES,
    ) -> Json:
        """Read a note one page of lines at a time (next_offset: where the next page starts)."""
        return tools.read_note(memory, note, offset, max_lines)

    @server.tool(annotations=READ_ONLY)
    @_answers
    def links(note: Note) -> Json:
        """A wiki note's outgoing links (and where each resolves) and the notes linking to it."""
        return tools.links(memory, note)

    @server.tool(annotations=READ_ONLY)
    @_answers
    def related(note: Note, limit: Limit = 10) -> Json:
        """The wiki notes nearest to a note in the link graph, ranked, each with why."""
        return tools.related(memory, note, limit)

    @server.tool(annotations=READ_ONLY)
    @_answers
    def recent_sessions(limit: Limit = 10) -> Json:
        """The newest session handoff summaries: path, title, date, session id, quality."""
        return tools.recent_sessions(memory, limit)

    @server.tool(annotations=READ_ONLY)
    @_answers
    def latest_handoff(
        max_lines: Annotated[
            int, Field(ge=1, le=1000, description="Lines per page.")
        ] = tools.PAGE_LINES,
    ) -> Json:
        """The newest handoff summary's text: what was done, the current state, next steps."""
        return tools.latest_handoff(memory, max_lines)

    @server.tool(annotations=READ_ONLY)
    @_answers
    def vault_health() -> Json:
        """Counts of broken links (ghosts), orphan notes and degraded notes, with the worst."""
        return tools.vault_health(memory)

    if allow_write:

        @server.tool(annotations=WRITES)
        @_answers
        def save_handoff(
            text: Annotated[str, Field(description="The handoff in Markdown (resume contract).")],
            title: Annotated[str, Field(description="Title (default: its # heading).")] = "",
        ) -> Json:
            """Save a handoff written by the agent as a summary note (auto_saved: false)."""
            return tools.save(memory, text, title)

        @server.tool(annotations=WRITES)
        @_answers
        def move_note(
            note: Note,
            to: Annotated[str, Field(description="The new path inside wiki/ (x.md, a/x.md).")],
        ) -> Json:
            """Move or rename a wiki note and rewrite every link to it (as `vaultkit mv`)."""
            return tools.move_note(memory, note, to)

        @server.tool(annotations=WRITES)
        @_answers
        def write_note(
            path: Annotated[str, Field(description="The new note's path inside wiki/.")],
            text: Annotated[str, Field(description="The note in Markdown, [[links]] included.")],
        ) -> Json:
            """Create a wiki note; not written while a link names nothing (ghosts come back with
            the closest note names: fix them and call again)."""
            return tools.write_note(memory, path, text)

        @server.tool(annotations=WRITES)
        @_answers
        def edit_note(
            note: Note,
            hash: Annotated[str, Field(description="The hash read_note returned for the note.")],
            heading: Annotated[str, Field(description="The section's heading text.")],
            text: Annotated[str, Field(description="The section's new body (Markdown).")],
            append: Annotated[
                bool, Field(description="Add to the section instead of replacing it.")
            ] = False,
        ) -> Json:
            """Replace (or append to) one section of a wiki note, refused if the note changed
            since read_note; a missing heading becomes a new section at the end."""
            return tools.edit_note(memory, note, hash, heading, text, append)

    return server


def serve(project: Path | None, *, allow_write: bool = False) -> None:
    """Run the server on stdio for the store of ``project`` (default: the working directory)."""
    store = find_store(project.resolve() if project is not None else None)
    build_server(Memory(store), allow_write=allow_write).run("stdio")
