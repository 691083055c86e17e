"""A recording HTTP server on 127.0.0.1 that the agents' API mocks build on.

Every request is recorded (auth headers and key parameters dropped) with a kind chosen by the
mock; a request meant for another host (``CONNECT`` or an absolute URI, i.e. sent through the
proxy variables the sandboxes point here) is recorded as ``outside`` and refused, so nothing
ever leaves the machine and tests can assert that nothing tried to.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

_SECRET_HEADERS = frozenset(
    {"x-api-key", "authorization", "proxy-authorization", "cookie", "x-goog-api-key"}
)
_SECRET_PARAMS = frozenset({"key", "api_key"})
WORKER_MARKER = "@@@TITLE@@@"


@dataclass(frozen=True, slots=True)
class Recorded:
    """One request as the mock received it (``query`` without secret parameters)."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    kind: str
    at: float

    @property
    def text(self) -> str:
        """The whole JSON body as text (handy for substring checks)."""
        return json.dumps(self.body, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the handler sends back: status, content type and the body in chunks."""

    status: int
    content_type: str
    chunks: Iterable[bytes]


def json_answer(status: int, payload: Any) -> Answer:
    return Answer(status, "application/json", [json.dumps(payload).encode()])


def sse_answer(chunks: Iterable[bytes]) -> Answer:
    return Answer(200, "text/event-stream", chunks)


class RecordingServer:
    """A threaded server; ``route(method, path, query, body) -> (kind, Answer)`` decides."""

    def __init__(self, route: Callable[[str, str, dict[str, str], Any], tuple[str, Answer]]):
        self._lock = threading.Lock()
        self._route = route
        self.requests: list[Recorded] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def record(self, entry: Recorded) -> None:
        with self._lock:
            self.requests.append(entry)

    def snapshot(self) -> list[Recorded]:
        with self._lock:
            return list(self.requests)

    def answer(
        self, method: str, path: str, query: dict[str, str], body: Any
    ) -> tuple[str, Answer]:
        return self._route(method, path, query, body)


class Queues:
    """Scripted replies per request kind, with a default per kind once a queue is empty."""

    def __init__(self, defaults: dict[str, Any]) -> None:
        self._lock = threading.Lock()
        self._queues: dict[str, deque[Any]] = {}
        self._defaults = dict(defaults)

    def queue(self, kind: str, *replies: Any) -> None:
        with self._lock:
            self._queues.setdefault(kind, deque()).extend(replies)

    def set_default(self, kind: str, reply: Any) -> None:
        with self._lock:
            self._defaults[kind] = reply

    def next(self, kind: str) -> Any:
        with self._lock:
            pending = self._queues.get(kind)
            return pending.popleft() if pending else self._defaults[kind]


class ScriptedMock:
    """The shell every agent API mock shares: a recording server, reply queues per request kind,
    the recorded requests, and use as a context manager. Subclasses answer in ``_route``."""

    def __init__(self, defaults: dict[str, Any]) -> None:
        self.replies = Queues(defaults)
        self._server = RecordingServer(self._route)

    @property
    def url(self) -> str:
        return self._server.url

    @property
    def requests(self) -> list[Recorded]:
        return self._server.snapshot()

    def of_kind(self, kind: str) -> list[Recorded]:
        return [r for r in self.requests if r.kind == kind]

    def __enter__(self) -> Self:
        self._server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.stop()

    def _route(
        self, method: str, path: str, query: dict[str, str], body: Any
    ) -> tuple[str, Answer]:
        raise NotImplementedError


def _handler_for(server: RecordingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet; the recorded requests are the log."""

        def _body(self) -> Any:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.headers.get("Content-Encoding", "").lower() == "zstd":
                return {"undecoded": "zstd", "bytes": len(raw)}
            try:
                return json.loads(raw) if raw else None
            except ValueError:
                return raw.decode("utf-8", "replace")

        def _handle(self) -> None:
            body = self._body()
            split = urlsplit(self.path)
            query = {k: v for k, v in parse_qsl(split.query) if k not in _SECRET_PARAMS}
            headers = {
                k.lower(): v for k, v in self.headers.items() if k.lower() not in _SECRET_HEADERS
            }
            if self.command == "CONNECT" or not self.path.startswith("/"):
                kind, answer = "outside", json_answer(403, {"error": "no outside traffic"})
            else:
                kind, answer = server.answer(self.command, split.path, query, body)
            path = self.path if kind == "outside" else split.path  # keep the foreign host
            server.record(Recorded(self.command, path, query, headers, body, kind, time.time()))
            self._send(answer)

        def _send(self, answer: Answer) -> None:
            self.send_response(answer.status)
            self.send_header("Content-Type", answer.content_type)
            if answer.content_type == "text/event-stream":
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for chunk in answer.chunks:
                        self.wfile.write(chunk)
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True
                return
            data = b"".join(answer.chunks)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_CONNECT = _handle

    return Handler
