"""The mock Messages API alone: wire format, scripting and recording (no Claude Code needed)."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest

from .mockapi import Dynamic, Empty, HttpError, MockAPI, Text, ToolUse, distillation


@pytest.fixture
def mock() -> Iterator[MockAPI]:
    with MockAPI() as server:
        yield server


def _post(mock: MockAPI, path: str, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", mock.port, timeout=10)
    headers = {"content-type": "application/json", "x-api-key": "secret-value"}
    conn.request("POST", path, json.dumps(body), headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def _events(raw: bytes) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for chunk in raw.decode().strip().split("\n\n"):
        event, data = chunk.split("\n", 1)
        out.append((event.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


AGENT = {"model": "m", "tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": "hi"}]}


def test_streamed_text_has_the_documented_event_order(mock: MockAPI) -> None:
    mock.queue("agent", Text("x" * 100))
    status, headers, raw = _post(mock, "/v1/messages?beta=true", {**AGENT, "stream": True})
    assert status == 200 and headers["content-type"] == "text/event-stream"
    events = _events(raw)
    names = [name for name, _ in events]
    assert names[0] == "message_start" and names[1] == "content_block_start"
    assert names[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    text = "".join(d["delta"]["text"] for n, d in events if n == "content_block_delta")
    assert text == "x" * 100
    assert events[-2][1]["delta"]["stop_reason"] == "end_turn"


def test_streamed_tool_use_sends_input_json_deltas(mock: MockAPI) -> None:
    mock.queue("agent", ToolUse("Bash", {"command": "echo hi > out.txt"}))
    _, _, raw = _post(mock, "/v1/messages", {**AGENT, "stream": True})
    events = _events(raw)
    start = next(d for n, d in events if n == "content_block_start")
    assert start["content_block"]["type"] == "tool_use"
    partial = "".join(d["delta"]["partial_json"] for n, d in events if n == "content_block_delta")
    assert json.loads(partial) == {"command": "echo hi > out.txt"}
    assert events[-2][1]["delta"]["stop_reason"] == "tool_use"


def test_non_streaming_answers_and_kinds(mock: MockAPI) -> None:
    mock.queue("worker", distillation("T", "H", "W"))
    worker_body = {"model": "m", "messages": [{"role": "user", "content": "say @@@TITLE@@@"}]}
    status, _, raw = _post(mock, "/v1/messages", worker_body)
    message = json.loads(raw)
    assert status == 200 and message["content"][0]["text"].startswith("@@@TITLE@@@\nT\n")
    mock.queue("agent", Empty())
    assert json.loads(_post(mock, "/v1/messages", AGENT)[2])["content"] == []
    aux = {"model": "m", "messages": [{"role": "user", "content": "title?"}]}
    assert json.loads(_post(mock, "/v1/messages", aux)[2])["content"][0]["text"] == "Mock"
    assert [r.kind for r in mock.requests] == ["worker", "agent", "aux"]
    assert all("x-api-key" not in r.headers for r in mock.requests)


def test_errors_tokens_dynamic_and_other_paths(mock: MockAPI) -> None:
    mock.queue("agent", HttpError(401, "authentication_error", "invalid x-api-key"))
    status, headers, raw = _post(mock, "/v1/messages", AGENT)
    assert status == 401 and headers["x-should-retry"] == "false"
    assert json.loads(raw)["error"]["type"] == "authentication_error"
    count = _post(mock, "/v1/messages/count_tokens", AGENT)
    assert count[0] == 200 and json.loads(count[2]) == {"input_tokens": 42}
    mock.queue("agent", Dynamic(lambda body: Text(str(len(body["messages"])))))
    assert json.loads(_post(mock, "/v1/messages", AGENT)[2])["content"][0]["text"] == "1"
    assert _post(mock, "/api/event_logging/batch", {})[0] == 200
    conn = http.client.HTTPConnection("127.0.0.1", mock.port, timeout=10)
    conn.request("CONNECT", "api.anthropic.com:443")
    assert conn.getresponse().status == 403
    conn.close()
    assert [r.path for r in mock.outside()] == ["api.anthropic.com:443"]
