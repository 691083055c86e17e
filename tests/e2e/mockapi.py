"""A scripted mock of the Anthropic Messages API on 127.0.0.1 for driving the real Claude Code CLI.

Requests are classified into kinds (``worker``: vaultkit's distillation prompt, recognised by its
``@@@TITLE@@@`` marker; ``agent``: the agent's main loop, which sends its tool list; ``aux``: any
other model call Claude Code makes on the side). Each kind has a queue of scripted replies; when
a queue is empty the kind's default reply is used. Every request is recorded (auth headers
dropped) so tests can assert on exactly what Claude Code sent.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WORKER_MARKER = "@@@TITLE@@@"
_AUTH_HEADERS = frozenset({"x-api-key", "authorization", "proxy-authorization", "cookie"})
_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Text:
    """A normal assistant answer made of one text block (``""`` gives an empty text block)."""

    text: str


@dataclass(frozen=True, slots=True)
class ToolUse:
    """An assistant turn that calls one tool; ``preface`` is optional text sent before it."""

    name: str
    input: dict[str, Any]
    preface: str = ""


@dataclass(frozen=True, slots=True)
class Empty:
    """An answer with no content blocks at all."""


@dataclass(frozen=True, slots=True)
class HttpError:
    """An HTTP error with the API's error JSON, e.g. 401 authentication_error, 500, 529."""

    status: int
    error_type: str = "api_error"
    message: str = "mock failure"
    should_retry: bool = False  # False sends ``x-should-retry: false`` (Claude Code gives up)


@dataclass(frozen=True, slots=True)
class Slow:
    """``reply`` delivered after ``seconds`` (streaming starts only after the delay)."""

    seconds: float
    reply: Reply


@dataclass(frozen=True, slots=True)
class Dynamic:
    """A reply computed from the request body (e.g. a distillation that echoes its input)."""

    build: Callable[[dict[str, Any]], Reply]


Reply = Text | ToolUse | Empty | HttpError | Slow | Dynamic


@dataclass(frozen=True, slots=True)
class Recorded:
    """One request as the mock received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    kind: str
    at: float

    @property
    def text(self) -> str:
        """The whole JSON body as text (handy for substring checks)."""
        return json.dumps(self.body, ensure_ascii=False)

    def user_texts(self) -> list[str]:
        """Every text in ``user`` messages, string content and text blocks alike."""
        return [t for m in _messages(self.body) if m.get("role") == "user" for t in _texts(m)]

    def system_text(self) -> str:
        system = self.body.get("system", "") if isinstance(self.body, dict) else ""
        if isinstance(system, str):
            return system
        return "\n".join(b.get("text", "") for b in system if isinstance(b, dict))


def _messages(body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, dict):
        return []
    return [m for m in body.get("messages", []) if isinstance(m, dict)]


def _texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    out: list[str] = []
    for block in content:
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            out.append(block["text"])
    return out


def classify(path: str, body: Any) -> str:
    """``worker`` | ``agent`` | ``aux`` for a ``/v1/messages`` request, else ``other``."""
    if not path.startswith("/v1/messages") or path.startswith("/v1/messages/count_tokens"):
        return "other"
    if WORKER_MARKER in json.dumps(body, ensure_ascii=False):
        return "worker"
    if isinstance(body, dict) and body.get("tools"):
        return "agent"
    return "aux"


def distillation(title: str, handoff: str, wiki: str) -> Text:
    """A well-formed three-part distillation answer."""
    return Text(f"@@@TITLE@@@\n{title}\n@@@HANDOFF@@@\n{handoff}\n@@@WIKI@@@\n{wiki}\n")


DEFAULT_DISTILLATION = distillation(
    "Mock session about greetings",
    "## Done\n- Said hello.\n\n## Next\n- Nothing pending.",
    "# Greetings\n\nThe session exchanged greetings. See [[Mock Topic]].",
)


@dataclass
class _Script:
    queues: dict[str, deque[Reply]] = field(default_factory=dict)
    defaults: dict[str, Reply] = field(default_factory=dict)


class MockAPI:
    """A threaded HTTP server; use :meth:`start`/:meth:`stop` or the ``with`` statement."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._script = _Script(
            defaults={
                "agent": Text("Hello from the mock agent."),
                "worker": DEFAULT_DISTILLATION,
                "aux": Text("Mock"),
            }
        )
        self.requests: list[Recorded] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> MockAPI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> MockAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- scripting ---------------------------------------------------------------------------

    def queue(self, kind: str, *replies: Reply) -> None:
        """Answer the next requests of ``kind`` with ``replies``, in order."""
        with self._lock:
            self._script.queues.setdefault(kind, deque()).extend(replies)

    def set_default(self, kind: str, reply: Reply) -> None:
        """Answer every request of ``kind`` with ``reply`` once its queue is empty."""
        with self._lock:
            self._script.defaults[kind] = reply

    def next_reply(self, kind: str) -> Reply:
        with self._lock:
            pending = self._script.queues.get(kind)
            if pending:
                return pending.popleft()
            return self._script.defaults.get(kind, Text("Mock"))

    # -- inspection --------------------------------------------------------------------------

    def record(self, entry: Recorded) -> None:
        with self._lock:
            self.requests.append(entry)

    def of_kind(self, kind: str) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.kind == kind]

    def outside(self) -> list[Recorded]:
        """Requests that tried to leave 127.0.0.1 through the proxy variables."""
        return self.of_kind("outside")

    def paths(self) -> list[str]:
        with self._lock:
            return [f"{r.method} {r.path}" for r in self.requests]

    def wait_for(self, predicate: Callable[[list[Recorded]], bool], timeout: float) -> bool:
        """Poll the recorded requests until ``predicate`` holds or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                snapshot = list(self.requests)
            if predicate(snapshot):
                return True
            time.sleep(0.1)
        return False


# -- wire format ---------------------------------------------------------------------------------


def _blocks(reply: Text | ToolUse | Empty) -> list[dict[str, Any]]:
    if isinstance(reply, Empty):
        return []
    if isinstance(reply, Text):
        return [{"type": "text", "text": reply.text}]
    blocks: list[dict[str, Any]] = []
    if reply.preface:
        blocks.append({"type": "text", "text": reply.preface})
    blocks.append(
        {
            "type": "tool_use",
            "id": f"toolu_mock{next(_ids):06d}",
            "name": reply.name,
            "input": reply.input,
        }
    )
    return blocks


def _stop_reason(reply: Text | ToolUse | Empty) -> str:
    return "tool_use" if isinstance(reply, ToolUse) else "end_turn"


def message_json(reply: Text | ToolUse | Empty, model: str) -> dict[str, Any]:
    """The non-streaming ``Message`` object for ``reply``."""
    return {
        "id": f"msg_mock{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": _blocks(reply),
        "stop_reason": _stop_reason(reply),
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 7},
    }


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _block_events(index: int, block: dict[str, Any]) -> Iterator[bytes]:
    if block["type"] == "text":
        yield _sse(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            },
        )
        text = block["text"]
        for start in range(0, len(text), 40):
            delta = {"type": "text_delta", "text": text[start : start + 40]}
            yield _sse(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
    else:
        start_block = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        yield _sse(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start_block},
        )
        raw = json.dumps(block["input"])
        for start in range(0, len(raw), 20):
            delta = {"type": "input_json_delta", "partial_json": raw[start : start + 20]}
            yield _sse(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
    yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})


def stream_events(reply: Text | ToolUse | Empty, model: str) -> Iterator[bytes]:
    """The SSE byte chunks of a streamed answer."""
    message = message_json(reply, model)
    start = dict(message, content=[], stop_reason=None)
    start["usage"] = {"input_tokens": 12, "output_tokens": 1}
    yield _sse("message_start", {"type": "message_start", "message": start})
    for index, block in enumerate(message["content"]):
        yield from _block_events(index, block)
    yield _sse(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 7},
        },
    )
    yield _sse("message_stop", {"type": "message_stop"})


def _handler_for(mock: MockAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet; the recorded requests are the log."""

        def _body(self) -> Any:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                return json.loads(raw) if raw else None
            except ValueError:
                return raw.decode("utf-8", "replace")

        def _record(self, body: Any) -> str:
            path = self.path.split("?", 1)[0]
            if self.command == "CONNECT" or not path.startswith("/"):
                kind = "outside"  # a proxied request meant for another host
            else:
                kind = classify(path, body) if self.command == "POST" else "other"
            headers = {
                k.lower(): v for k, v in self.headers.items() if k.lower() not in _AUTH_HEADERS
            }
            mock.record(Recorded(self.command, self.path, headers, body, kind, time.time()))
            return kind

        def _send_json(
            self, status: int, payload: Any, extra: dict[str, str] | None = None
        ) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("request-id", f"req_mock{next(_ids):06d}")
            for key, value in (extra or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._record(None)
            self._send_json(
                404, {"type": "error", "error": {"type": "not_found_error", "message": "mock"}}
            )

        def do_CONNECT(self) -> None:
            self._record(None)
            self._send_json(403, {"error": "the e2e sandbox allows no outside traffic"})
            self.close_connection = True

        def do_HEAD(self) -> None:
            self._record(None)
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self) -> None:
            body = self._body()
            kind = self._record(body)
            path = self.path.split("?", 1)[0]
            if path.startswith("/v1/messages/count_tokens"):
                self._send_json(200, {"input_tokens": 42})
            elif kind == "outside":
                self._send_json(403, {"error": "the e2e sandbox allows no outside traffic"})
            elif kind in ("agent", "worker", "aux"):
                self._answer(mock.next_reply(kind), body if isinstance(body, dict) else {})
            else:
                self._send_json(200, {})

        def _answer(self, reply: Reply, body: dict[str, Any]) -> None:
            while isinstance(reply, Slow | Dynamic):
                if isinstance(reply, Slow):
                    time.sleep(reply.seconds)
                    reply = reply.reply
                else:
                    reply = reply.build(body)
            if isinstance(reply, HttpError):
                error = {
                    "type": "error",
                    "error": {"type": reply.error_type, "message": reply.message},
                }
                extra = {} if reply.should_retry else {"x-should-retry": "false"}
                self._send_json(reply.status, error, extra)
                return
            model = str(body.get("model", "claude-mock"))
            if not body.get("stream"):
                self._send_json(200, message_json(reply, model))
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for chunk in stream_events(reply, model):
                    self.wfile.write(chunk)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return
            self.close_connection = True

    return Handler
