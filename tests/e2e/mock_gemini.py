"""A scripted mock of the Gemini API on 127.0.0.1, as Gemini CLI 0.61 calls it with an API key.

Gemini CLI reaches it through ``GOOGLE_GEMINI_BASE_URL`` with a dummy ``GEMINI_API_KEY``.
``POST /v1beta/models/<model>:streamGenerateContent?alt=sse`` is answered with SSE ``data:``
chunks of ``GenerateContentResponse`` JSON, ``:generateContent`` with one such object and
``:countTokens`` with a token count. Requests are classified as ``worker`` (vaultkit's
distillation prompt), ``agent`` (the CLI's main loop, which sends its tools) or ``aux`` (side
calls such as routing or next-speaker checks); anything else is recorded as ``other`` and
answered 404 so unknown calls stay visible.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .mockserver import (
    WORKER_MARKER,
    Answer,
    ScriptedMock,
    json_answer,
    sse_answer,
)


@dataclass(frozen=True, slots=True)
class Text:
    """A model turn with one text part."""

    text: str


@dataclass(frozen=True, slots=True)
class FunctionCall:
    """A model turn that calls one tool (``run_shell_command``, ``write_file``, …)."""

    name: str
    args: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HttpError:
    """An HTTP error with the API's error JSON."""

    status: int
    message: str = "mock failure"


Reply = Text | FunctionCall | HttpError


def contents_texts(body: Any) -> list[str]:
    """Every text part of the request's ``contents`` and ``systemInstruction``."""
    if not isinstance(body, dict):
        return []
    holders = [body.get("systemInstruction"), *(body.get("contents") or [])]
    texts: list[str] = []
    for holder in holders:
        parts = holder.get("parts") if isinstance(holder, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                texts.append(part["text"])
    return texts


def user_texts(body: Any) -> list[str]:
    """The text parts of ``user`` turns only."""
    turns = body.get("contents") if isinstance(body, dict) else None
    found: list[str] = []
    for turn in turns if isinstance(turns, list) else []:
        if isinstance(turn, dict) and turn.get("role") == "user":
            found.extend(contents_texts({"contents": [turn]}))
    return found


def _method(path: str) -> str:
    return path.rsplit(":", 1)[1] if ":" in path.rsplit("/", 1)[-1] else ""


def classify(method: str, path: str, body: Any) -> str:
    verb = _method(path)
    if method != "POST" or not path.startswith("/v1beta/models/"):
        return "other"
    if verb == "countTokens":
        return "count"
    if verb not in ("generateContent", "streamGenerateContent"):
        return "other"
    if WORKER_MARKER in json.dumps(body, ensure_ascii=False):
        return "worker"
    return "agent" if isinstance(body, dict) and body.get("tools") else "aux"


def response_json(reply: Text | FunctionCall, model: str) -> dict[str, Any]:
    """One ``GenerateContentResponse`` holding the whole reply."""
    if isinstance(reply, Text):
        part: dict[str, Any] = {"text": reply.text}
    else:
        part = {"functionCall": {"name": reply.name, "args": reply.args}}
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 7, "totalTokenCount": 19},
        "modelVersion": model,
    }


def stream_chunks(reply: Text | FunctionCall, model: str) -> Iterator[bytes]:
    """SSE ``data:`` chunks: text split over several chunks, the finish reason on the last."""
    if isinstance(reply, FunctionCall):
        yield f"data: {json.dumps(response_json(reply, model))}\r\n\r\n".encode()
        return
    pieces = [reply.text[i : i + 40] for i in range(0, len(reply.text), 40)] or [""]
    for number, piece in enumerate(pieces, 1):
        chunk = response_json(Text(piece), model)
        if number < len(pieces):
            del chunk["candidates"][0]["finishReason"]
        yield f"data: {json.dumps(chunk)}\r\n\r\n".encode()


class MockGemini(ScriptedMock):
    """The mock server; use it as a context manager. ``requests`` holds everything received."""

    def __init__(self) -> None:
        super().__init__(
            {
                "agent": Text("Hello from the mock Gemini model."),
                "aux": Text('{"reasoning": "mock", "model_choice": "flash"}'),
                "worker": Text("@@@TITLE@@@\nMock\n@@@HANDOFF@@@\nDone.\n@@@WIKI@@@\n# Mock\n"),
            }
        )

    def _route(
        self, method: str, path: str, query: dict[str, str], body: Any
    ) -> tuple[str, Answer]:
        kind = classify(method, path, body)
        if kind == "other":
            error = {"code": 404, "message": f"mock: no {method} {path}", "status": "NOT_FOUND"}
            return kind, json_answer(404, {"error": error})
        if kind == "count":
            return kind, json_answer(200, {"totalTokens": 42})
        reply = self.replies.next(kind)
        if isinstance(reply, HttpError):
            error = {"code": reply.status, "message": reply.message, "status": "INTERNAL"}
            return kind, json_answer(reply.status, {"error": error})
        model = path.rsplit("/", 1)[-1].split(":", 1)[0]
        if _method(path) == "streamGenerateContent":
            return kind, sse_answer(stream_chunks(reply, model))
        return kind, json_answer(200, response_json(reply, model))
