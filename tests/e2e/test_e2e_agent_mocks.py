"""The OpenAI Responses and Gemini API mocks alone: wire format, recording, refusal of outside
traffic (no Codex or Gemini CLI needed)."""

from __future__ import annotations

import http.client
import json
from typing import Any

from .mock_gemini import FunctionCall as GeminiCall
from .mock_gemini import MockGemini
from .mock_gemini import Text as GeminiText
from .mock_openai import FunctionCall, HttpError, MockOpenAI, Text, input_texts


def _request(
    url: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    data = None if body is None else json.dumps(body)
    conn.request(method, path, data, {"content-type": "application/json", **(headers or {})})
    response = conn.getresponse()
    raw = response.read()
    conn.close()
    return response.status, raw


def _sse_events(raw: bytes) -> list[dict[str, Any]]:
    return [
        json.loads(line[len("data: ") :])
        for line in raw.decode().splitlines()
        if line.startswith("data: ")
    ]


def test_openai_mock_streams_a_message_then_a_function_call() -> None:
    with MockOpenAI() as mock:
        mock.replies.queue("agent", Text("x" * 90), FunctionCall("exec_command", {"cmd": "ls"}))
        body = {"model": "m", "stream": True, "tools": [{"name": "exec_command"}], "input": []}
        secret = {"authorization": "Bearer sk-secret"}
        status, raw = _request(mock.url, "POST", "/v1/responses", body, secret)
        assert status == 200
        events = _sse_events(raw)
        assert [e["type"] for e in events] == [
            "response.created",
            "response.output_item.added",
            *["response.output_text.delta"] * 3,
            "response.output_item.done",
            "response.completed",
        ]
        assert "".join(e["delta"] for e in events[2:5]) == "x" * 90
        assert events[-1]["response"]["usage"]["total_tokens"] == 19
        _, raw = _request(mock.url, "POST", "/v1/responses", body)
        call = _sse_events(raw)[1]["item"]
        assert call["type"] == "function_call"
        assert json.loads(call["arguments"]) == {"cmd": "ls"}
        assert "sk-secret" not in json.dumps([r.headers for r in mock.requests])


def test_openai_mock_classifies_and_answers_unknown_paths_404() -> None:
    with MockOpenAI() as mock:
        mock.replies.queue("aux", HttpError(500))
        worker = {"input": [{"role": "user", "content": [{"text": "@@@TITLE@@@ please"}]}]}
        assert _request(mock.url, "POST", "/v1/responses", {"input": []})[0] == 500
        assert _request(mock.url, "POST", "/v1/responses", worker)[0] == 200
        assert _request(mock.url, "GET", "/v1/models")[0] == 404
        assert [r.kind for r in mock.requests] == ["aux", "worker", "other"]
        assert input_texts(mock.requests[1].body) == ["@@@TITLE@@@ please"]


def test_gemini_mock_streams_generates_counts_and_drops_the_key_parameter() -> None:
    with MockGemini() as mock:
        mock.replies.queue("agent", GeminiText("y" * 50), GeminiCall("write_file", {"a": 1}))
        agent = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": [{}]}
        path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=SECRET"
        status, raw = _request(mock.url, "POST", path, agent)
        chunks = _sse_events(raw)
        assert status == 200 and len(chunks) == 2
        assert "".join(c["candidates"][0]["content"]["parts"][0]["text"] for c in chunks) == (
            "y" * 50
        )
        assert "finishReason" not in chunks[0]["candidates"][0]
        assert chunks[1]["candidates"][0]["finishReason"] == "STOP"
        one = "/v1beta/models/gemini-2.5-flash:generateContent"
        status, raw = _request(mock.url, "POST", one, agent)
        part = json.loads(raw)["candidates"][0]["content"]["parts"][0]
        assert part == {"functionCall": {"name": "write_file", "args": {"a": 1}}}
        count = "/v1beta/models/gemini-2.5-flash:countTokens"
        assert json.loads(_request(mock.url, "POST", count, agent)[1]) == {"totalTokens": 42}
        assert _request(mock.url, "GET", "/v1beta/models")[0] == 404
        assert [r.kind for r in mock.requests] == ["agent", "agent", "count", "other"]
        assert mock.requests[0].query == {"alt": "sse"}


def test_requests_meant_for_other_hosts_are_recorded_and_refused() -> None:
    for mock in (MockOpenAI(), MockGemini()):
        with mock:
            assert _request(mock.url, "CONNECT", "chatgpt.com:443")[0] == 403
            assert _request(mock.url, "GET", "http://example.com/x")[0] == 403
            assert [(r.kind, r.path) for r in mock.of_kind("outside")] == [
                ("outside", "chatgpt.com:443"),
                ("outside", "http://example.com/x"),
            ]
