"""Pure merge and unmerge of vaultkit's MCP server in Claude Code's MCP configuration.

Claude Code keeps MCP servers per scope: a project's ``.mcp.json`` (``mcpServers``), the user's
``.claude.json`` (top-level ``mcpServers``) and, for the local scope, the same file's
``projects[<path>].mcpServers``. A project's ``.mcp.json`` servers run only once approved;
``enabledMcpjsonServers`` in the project's settings approves vaultkit's. vaultkit recognises
its own entry (named ``vaultkit``, running ``… vaultkit mcp``) and never touches another.
"""

from __future__ import annotations

import copy
from typing import Any

from vaultkit.errors import VaultkitError

NAME = "vaultkit"
APPROVE_KEY = "enabledMcpjsonServers"
Data = dict[str, Any]


def entry(executable: str) -> Data:
    """The server entry, as ``claude mcp add`` writes one: stdio, ``vaultkit mcp``."""
    return {"type": "stdio", "command": executable, "args": ["mcp"], "env": {}}


def is_ours(value: object) -> bool:
    """True for an entry that runs ``vaultkit mcp``."""
    if not isinstance(value, dict):
        return False
    command = value.get("command")
    name = command.replace("\\", "/").rsplit("/", 1)[-1] if isinstance(command, str) else ""
    return name.split(".", 1)[0] == "vaultkit" and value.get("args") == ["mcp"]


def _servers(data: Data, keys: tuple[str, ...], where: str, create: bool) -> Data | None:
    node: Any = data
    for key in (*keys, "mcpServers"):
        if not isinstance(node, dict):
            raise VaultkitError(
                f"{where}: {'.'.join(keys) or 'the file'} is not an object; left unchanged",
                hint=f"fix {where}, then run again",
            )
        if key not in node:
            if not create:
                return None
            node[key] = {}
        node = node[key]
    if not isinstance(node, dict):
        raise VaultkitError(
            f'{where}: "mcpServers" is not an object; left unchanged',
            hint=f'make "mcpServers" in {where} an object of servers',
        )
    return node


def register(
    data: Data, keys: tuple[str, ...], executable: str, where: str, server: Data | None = None
) -> Data:
    """A copy of ``data`` with vaultkit's server under ``keys`` + ``mcpServers`` (``server``,
    default :func:`entry`); a foreign server already named ``vaultkit`` is refused (it is
    someone else's)."""
    result = copy.deepcopy(data)
    servers = _servers(result, keys, where, create=True)
    assert servers is not None
    current = servers.get(NAME)
    if current is not None and not is_ours(current):
        raise VaultkitError(
            f'{where}: an MCP server named "vaultkit" that is not vaultkit\'s is there; left it',
            hint=f"rename or remove that server in {where}, then run again",
        )
    servers[NAME] = entry(executable) if server is None else server
    return result


def unregister(data: Data, keys: tuple[str, ...], where: str) -> Data:
    """A copy of ``data`` without vaultkit's server (containers it emptied are dropped)."""
    result = copy.deepcopy(data)
    servers = _servers(result, keys, where, create=False)
    if servers is None or not is_ours(servers.get(NAME)):
        return result
    del servers[NAME]
    if not servers:
        parent: Any = result
        for key in keys:
            parent = parent[key]
        del parent["mcpServers"]
    return result


def approve(data: Data) -> Data:
    """A copy of project settings that approve vaultkit's ``.mcp.json`` server."""
    result = copy.deepcopy(data)
    listed = result.get(APPROVE_KEY)
    names = list(listed) if isinstance(listed, list) else []
    if NAME not in names:
        names.append(NAME)
    result[APPROVE_KEY] = names
    return result


def unapprove(data: Data) -> Data:
    """A copy of project settings without vaultkit's approval (an emptied list is dropped)."""
    result = copy.deepcopy(data)
    listed = result.get(APPROVE_KEY)
    if not isinstance(listed, list) or NAME not in listed:
        return result
    names = [n for n in listed if n != NAME]
    if names:
        result[APPROVE_KEY] = names
    else:
        del result[APPROVE_KEY]
    return result


def registered(data: object, keys: tuple[str, ...]) -> bool:
    """True when ``data`` holds vaultkit's server under ``keys``."""
    node: Any = data
    for key in (*keys, "mcpServers"):
        if not isinstance(node, dict):
            return False
        node = node.get(key)
    return isinstance(node, dict) and is_ours(node.get(NAME))
