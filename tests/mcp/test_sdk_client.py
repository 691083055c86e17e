"""The official MCP SDK's own client against ``vaultkit mcp``: the hand-written stdio layer
speaks the protocol as the SDK reads it (handshake, listing, calls, errors)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import anyio
import pytest
from conftest import REPO

pytest.importorskip("mcp")  # the SDK is a test dependency: the server itself does not import it
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

VAULTKIT = Path(sys.executable).parent / "vaultkit"


async def _talk(project: Path) -> None:
    server = StdioServerParameters(command=str(VAULTKIT), args=["mcp"], cwd=project)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        assert init.server_info.name == "vaultkit"
        assert init.capabilities.prompts is None and init.capabilities.resources is None
        assert init.capabilities.tools is not None
        listed = await session.list_tools()
        assert {"search", "read_note", "restore", "memory_cost"} <= {t.name for t in listed.tools}
        found = await session.call_tool("search", {"query": "idempotent", "limit": 2})
        assert not found.is_error and found.structured_content is not None
        hits = found.structured_content["results"]
        assert hits[0]["path"] == "wiki/concepts/Idempotent imports.md"
        bad = await session.call_tool("search", {"query": "x", "since": "yesterday"})
        text = bad.content[0]
        assert bad.is_error and text.type == "text" and "not a date" in text.text


@pytest.mark.slow  # the SDK client imports in over a second
def test_the_sdk_client_initializes_lists_and_calls(tmp_path: Path) -> None:
    shutil.copytree(
        REPO / "examples" / "sessions",
        tmp_path / "sessions",
        ignore=shutil.ignore_patterns(".vaultkit"),
    )
    (tmp_path / ".git").mkdir()
    anyio.run(_talk, tmp_path)
