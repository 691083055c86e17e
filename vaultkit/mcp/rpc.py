"""MCP over stdio as the spec frames it: one JSON-RPC 2.0 message per line on stdin and stdout.

Hand-written so that ``initialize`` is answered as soon as Python starts: the SDK imports every
protocol version's models (about a second) before it can reply. It serves what vaultkit offers
and nothing more: ``initialize``, ``ping``, ``tools/list`` and ``tools/call``; every other request
is "method not found", notifications are taken in silence. Standard library only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO

from vaultkit.mcp.spec import ArgumentError, Json, Tool

# Newest first; a client asking for another version is offered the newest (the spec's rule).
VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
STRUCTURED_FROM = "2025-06-18"  # structuredContent and outputSchema exist from this version on
PARSE_ERROR, INVALID_REQUEST, NO_METHOD, INVALID_PARAMS, INTERNAL = (
    -32700,
    -32600,
    -32601,
    -32602,
    -32603,
)
Failure = Callable[[str, Exception], str]  # a tool's failure -> the text the model reads


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Info:
    """What ``initialize`` says about the server."""

    name: str
    version: str
    instructions: str


@dataclass(slots=True)
class Session:
    """One client's connection: the tools, and the protocol version agreed at ``initialize``."""

    info: Info
    tools: Mapping[str, Tool]
    failure: Failure
    version: str = VERSIONS[0]

    def initialize(self, params: Json) -> Json:
        asked = params.get("protocolVersion")
        self.version = asked if isinstance(asked, str) and asked in VERSIONS else VERSIONS[0]
        return {
            "protocolVersion": self.version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": self.info.name, "version": self.info.version},
            "instructions": self.info.instructions,
        }

    @property
    def structured(self) -> bool:
        return self.version >= STRUCTURED_FROM  # ISO dates compare as text

    def list_tools(self, params: Json) -> Json:
        return {"tools": [t.listing(self.structured) for t in self.tools.values()]}

    def call_tool(self, params: Json) -> Json:
        name, given = params.get("name"), params.get("arguments") or {}
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None:
            raise RpcError(INVALID_PARAMS, f"unknown tool {name!r}; tools: {', '.join(self.tools)}")
        if not isinstance(given, dict):
            raise RpcError(INVALID_PARAMS, f"{tool.name}: arguments must be an object")
        try:
            value = tool.run(**tool.arguments(given))
        except ArgumentError as exc:
            return _failed(str(exc))
        except Exception as exc:  # a tool's failure is the model's to read, not the server's end
            return _failed(self.failure(tool.name, exc))
        text = json.dumps(value, ensure_ascii=False, indent=2)
        out: Json = {"content": [{"type": "text", "text": text}], "isError": False}
        if self.structured:
            out["structuredContent"] = value
        return out

    def answer(self, message: object) -> Json | None:
        """The reply to one message (None for a notification or a client's response)."""
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return _error(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message")
        ident, method = message.get("id"), message.get("method")
        if not isinstance(method, str):
            return (
                None
                if "id" in message and ("result" in message or "error" in message)
                else (_error(ident, INVALID_REQUEST, "a request needs a method"))
            )
        if "id" not in message:
            return None  # notifications/initialized, cancelled, ...: nothing to answer
        params = message.get("params") or {}
        handlers: dict[str, Callable[[Json], Json]] = {
            "initialize": self.initialize,
            "ping": lambda _: {},
            "tools/list": self.list_tools,
            "tools/call": self.call_tool,
        }
        handler = handlers.get(method)
        if handler is None:
            return _error(ident, NO_METHOD, f"method not found: {method}")
        if not isinstance(params, dict):
            return _error(ident, INVALID_PARAMS, f"{method}: params must be an object")
        try:
            return {"jsonrpc": "2.0", "id": ident, "result": handler(params)}
        except RpcError as exc:
            return _error(ident, exc.code, str(exc))


def _failed(text: str) -> Json:
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _error(ident: object, code: int, message: str) -> Json:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


def serve(
    session: Session, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None
) -> None:
    """Answer messages from ``stdin`` (default: the process's) until it closes."""
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout.buffer
    for line in source:
        if not line.strip():
            continue
        for reply in _replies(session, line):
            sink.write(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")
            sink.flush()


def _replies(session: Session, line: bytes) -> Sequence[Json]:
    try:
        message = json.loads(line.decode("utf-8", errors="replace"))
    except ValueError:
        return [_error(None, PARSE_ERROR, "not valid JSON")]
    if isinstance(message, list):  # a batch (protocol 2025-03-26 allowed them)
        if not message:
            return [_error(None, INVALID_REQUEST, "an empty batch")]
        return [r for r in map(session.answer, message) if r is not None]
    reply = session.answer(message)
    return [] if reply is None else [reply]
