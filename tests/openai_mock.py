"""A loopback mock of the OpenAI chat completions API, run as its own process by the tests.

``python tests/openai_mock.py RECORD`` serves on 127.0.0.1 (a free port, printed on the first
line of stdout) and appends each request it gets to RECORD as a JSON line. The first path
segment picks the behaviour: ``/whole/v1/chat/completions`` answers in one JSON reply,
``/stream/...`` as server-sent events; ``slow`` answers after 30 s, ``stall`` streams one piece
and then nothing, ``garbage`` is not JSON, ``badstream`` has a broken event, ``nochoices`` has no
choices, ``locked`` wants the key ``sekrit``, ``echo`` streams the prompt back, ``overloaded``
is a 503.
"""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = (
    "@@@TITLE@@@\nLocal model notes\n@@@HANDOFF@@@\n## Done\n- wired the local model\n"
    "@@@WIKI@@@\nThe local server answers in pieces; nothing leaves the machine.\n"
)
RECORD = sys.argv[1] if len(sys.argv) > 1 else ""


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        return

    def _send(self, code: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _events(self, pieces: list[object], stall: bool = False) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for piece in pieces:
            data = piece if isinstance(piece, str) else json.dumps(piece)
            self.wfile.write(f"data: {data}\n\n".encode())
            self.wfile.flush()
            if stall:
                time.sleep(30)
        self.wfile.write(b"data: [DONE]\n\n")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        request = json.loads(self.rfile.read(length))
        mode = self.path.strip("/").split("/")[0]
        if RECORD:
            with open(RECORD, "a", encoding="utf-8") as handle:
                seen = {"path": self.path, "auth": self.headers.get("Authorization"), **request}
                handle.write(json.dumps(seen) + "\n")
        text = ANSWER if mode != "echo" else request["messages"][0]["content"]
        usage = {"prompt_tokens": 1200, "completion_tokens": 80, "total_tokens": 1280}
        chunks: list[object] = [
            {"choices": [{"index": 0, "delta": {"content": text[i : i + 17]}}]}
            for i in range(0, len(text), 17)
        ]
        chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        chunks.append({"choices": [], "usage": usage, "model": request["model"]})
        whole = {
            "object": "chat.completion",
            "model": request["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
            "usage": usage,
        }
        if mode == "whole":
            self._send(200, json.dumps(whole).encode())
        elif mode in ("stream", "echo"):
            self._events(chunks)
        elif mode == "slow":
            time.sleep(30)
            self._send(200, json.dumps(whole).encode())
        elif mode == "stall":
            self._events(chunks[:1], stall=True)
        elif mode == "garbage":
            self._send(200, b"<html>upstream says hi</html>", "text/html")
        elif mode == "badstream":
            self._events([chunks[0], "{not json"])
        elif mode == "nochoices":
            self._send(200, b'{"object": "chat.completion"}')
        elif mode == "locked":
            if self.headers.get("Authorization") != "Bearer sekrit":
                self._send(401, b'{"error": {"message": "Invalid API key"}}')
            else:
                self._send(200, json.dumps(whole).encode())
        else:
            self._send(503, b'{"error": {"message": "model is loading"}}')


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
