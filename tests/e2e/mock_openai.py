"""A scripted mock of the OpenAI Responses API on 127.0.0.1, as Codex CLI 0.171 streams it.

Codex reaches it through a custom model provider (``[model_providers.mock]`` with ``base_url``
and ``wire_api = "responses"``, see :func:`provider_toml`). ``POST /v1/responses`` is answered
with the SSE events Codex reads (``response.created``, ``response.output_item.added``,
``response.output_text.delta``, ``response.output_item.done``, ``response.completed``); a
:class:`FunctionCall` reply streams a ``function_call`` item instead. Requests are classified as
``worker`` (vaultkit's distillation prompt), ``agent`` (Codex's main loop, which sends tools) or
``aux``; anything else is recorded as ``other`` and answered 404 so unknown calls stay visible.
"""

from __future__ import annotations

import itertools
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

_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Text:
    """An assistant message with one ``output_text`` part."""

    text: str


@dataclass(frozen=True, slots=True)
class FunctionCall:
    """A ``function_call`` output item (e.g. ``shell`` / ``exec_command`` with JSON arguments)."""

    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class HttpError:
    """An HTTP error with the API's error JSON."""

    status: int
    message: str = "mock failure"


Reply = Text | FunctionCall | HttpError


def provider_toml(base_url: str, name: str = "mock") -> str:
    """``config.toml`` text: the mock as a custom Responses provider; plugins and apps (the
    features that fetch from github.com and chatgpt.com at start), analytics and feedback off."""
    return (
        f'model = "gpt-mock"\nmodel_provider = "{name}"\n'
        "check_for_update_on_startup = false\n\n"
        f"[model_providers.{name}]\n"
        f'name = "vaultkit e2e mock"\nbase_url = "{base_url}/v1"\n'
        'wire_api = "responses"\nenv_key = "OPENAI_API_KEY"\n'
        "request_max_retries = 0\nstream_max_retries = 0\n\n"
        "[features]\nplugins = false\nremote_plugin = false\napps = false\n\n"
        "[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n"
    )


def input_texts(body: Any) -> list[str]:
    """Every text of the request's ``input`` items and ``instructions`` (all roles)."""
    if not isinstance(body, dict):
        return []
    texts = [body["instructions"]] if isinstance(body.get("instructions"), str) else []
    for item in body.get("input") or []:
        content = item.get("content") if isinstance(item, dict) else None
        if isinstance(content, str):
            texts.append(content)
        for part in content if isinstance(content, list) else []:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                texts.append(part["text"])
    return texts


def classify(method: str, path: str, body: Any) -> str:
    if method != "POST" or not path.endswith("/responses"):
        return "other"
    if WORKER_MARKER in json.dumps(body, ensure_ascii=False):
        return "worker"
    return "agent" if isinstance(body, dict) and body.get("tools") else "aux"


def _sse(data: dict[str, Any]) -> bytes:
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()


def _item(reply: Text | FunctionCall) -> dict[str, Any]:
    if isinstance(reply, Text):
        return {
            "type": "message",
            "id": f"msg_mock{next(_ids):06d}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
        }
    return {
        "type": "function_call",
        "id": f"fc_mock{next(_ids):06d}",
        "call_id": f"call_mock{next(_ids):06d}",
        "name": reply.name,
        "arguments": json.dumps(reply.arguments),
        "status": "completed",
    }


def stream_events(reply: Text | FunctionCall, model: str) -> Iterator[bytes]:
    """The SSE chunks of one streamed response holding one output item."""
    response_id = f"resp_mock{next(_ids):06d}"
    yield _sse({"type": "response.created", "response": {"id": response_id, "model": model}})
    item = _item(reply)
    opening = dict(item, status="in_progress", content=[]) if isinstance(reply, Text) else item
    yield _sse({"type": "response.output_item.added", "output_index": 0, "item": opening})
    if isinstance(reply, Text):
        for start in range(0, len(reply.text), 40):
            delta = reply.text[start : start + 40]
            yield _sse(
                {
                    "type": "response.output_text.delta",
                    "item_id": item["id"],
                    "output_index": 0,
                    "content_index": 0,
                    "delta": delta,
                }
            )
    yield _sse({"type": "response.output_item.done", "output_index": 0, "item": item})
    usage = {
        "input_tokens": 12,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 7,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 19,
    }
    done = {"id": response_id, "model": model, "status": "completed", "usage": usage}
    yield _sse({"type": "response.completed", "response": done})


class MockOpenAI(ScriptedMock):
    """The mock server; use it as a context manager. ``requests`` holds everything received."""

    def __init__(self) -> None:
        super().__init__(
            {
                "agent": Text("Hello from the mock Codex model."),
                "aux": Text("Mock"),
                "worker": Text("@@@TITLE@@@\nMock\n@@@HANDOFF@@@\nDone.\n@@@WIKI@@@\n# Mock\n"),
            }
        )

    def _route(
        self, method: str, path: str, query: dict[str, str], body: Any
    ) -> tuple[str, Answer]:
        kind = classify(method, path, body)
        if kind == "other":
            return kind, json_answer(404, {"error": {"message": f"mock: no {method} {path}"}})
        reply = self.replies.next(kind)
        if isinstance(reply, HttpError):
            return kind, json_answer(reply.status, {"error": {"message": reply.message}})
        model = str(body.get("model", "gpt-mock")) if isinstance(body, dict) else "gpt-mock"
        return kind, sse_answer(stream_events(reply, model))
