"""The ``openai`` backend: one attempt against an OpenAI-compatible chat completions server.

For the servers people run on their own machine (Ollama, llama.cpp's server, vLLM, LM Studio), so
a transcript never leaves it: ``POST {distill.openai_base_url}/chat/completions`` with the prompt
as the one user message, streamed (server-sent events) or not (``distill.openai_stream``). The key
is read from the environment variable ``distill.openai_key_env`` names, never from
``vaultkit.toml`` (which a team may commit); a local server usually needs none. The standard
library's HTTP client does it all, so the backend adds no dependency.

A server that cannot be reached, refuses the key, is overloaded or does not know the model is an
infrastructure failure (the session stays queued); no answer before ``distill.timeout`` is a
timeout; a reply that is not the API's JSON is an ``llm-error``; the answer text is classified as
every backend's is. Tokens come from the reply's ``usage`` (asked for in a stream too).
"""

from __future__ import annotations

import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from vaultkit.base.config import Config
from vaultkit.session.distill.childrun import BackendResult, Status, classify, short
from vaultkit.session.distill.costs import NO_USAGE, Usage

NAME = "openai"
HINT = (
    "check distill.openai_base_url and distill.openai_model in vaultkit.toml, and that the server"
    " is running (e.g. `ollama serve`)"
)
ERROR_BODY_MAX = 2000
INFRA_HTTP = frozenset({401, 402, 403, 404, 408, 409, 429, 500, 502, 503, 504})


class Malformed(ValueError):
    """The server answered, but not in the chat completions format."""


class TimedOut(Exception):
    """No (complete) answer before the deadline."""


@dataclass(frozen=True, slots=True)
class Reply:
    text: str
    usage: Usage
    finish: str = ""


def endpoint(base_url: str) -> str:
    """The chat completions URL of ``base_url`` (with or without ``/v1``, a trailing slash)."""
    base = base_url.strip().rstrip("/")
    if base.endswith("/chat/completions"):
        return base
    return f"{base}/chat/completions"


def _request(prompt: str, config: Config, env: Mapping[str, str]) -> urllib.request.Request:
    distill = config.distill
    body: dict[str, Any] = {
        "model": distill.openai_model,
        "messages": [{"role": "user", "content": prompt}],
        "stream": distill.openai_stream,
    }
    if distill.openai_stream:
        body["stream_options"] = {"include_usage": True}
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    key = env.get(distill.openai_key_env, "") if distill.openai_key_env else ""
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode("utf-8")
    return urllib.request.Request(endpoint(distill.openai_base_url), data, headers, method="POST")


def _count(usage: object, key: str) -> int:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _usage(data: Mapping[str, Any], model: str) -> Usage:
    raw = data.get("usage")
    used = _count(raw, "prompt_tokens"), _count(raw, "completion_tokens")
    named = data.get("model")
    return Usage(used[0], used[1], 0.0, named if isinstance(named, str) and named else model)


def _choice(data: object) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise Malformed("the reply is not a JSON object")
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise Malformed("the reply has no choices")
    if not choices:
        return {}
    first = choices[0]
    if not isinstance(first, dict):
        raise Malformed("a choice is not an object")
    return first


def _whole(raw: bytes, model: str) -> Reply:
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except ValueError as exc:
        raise Malformed(f"not JSON: {short(raw[:200].decode('utf-8', 'replace'))}") from exc
    choice = _choice(data)
    message = choice.get("message", {})
    content = message.get("content") if isinstance(message, dict) else None
    if content is not None and not isinstance(content, str):
        raise Malformed("the message content is not text")
    finish = choice.get("finish_reason")
    return Reply(content or "", _usage(data, model), finish if isinstance(finish, str) else "")


def _events(lines: Iterator[bytes]) -> Iterator[object]:
    """The JSON data of each server-sent event, until ``[DONE]``."""
    for raw in lines:
        line = raw.decode("utf-8", errors="replace").strip()
        if not line or line.startswith(":") or not line.startswith("data:"):
            continue
        data = line[len("data:") :].strip()
        if data == "[DONE]":
            return
        try:
            yield json.loads(data)
        except ValueError as exc:
            raise Malformed(f"a stream event is not JSON: {short(data[:200])}") from exc


def _streamed(lines: Iterator[bytes], model: str, deadline: float) -> Reply:
    parts: list[str] = []
    usage = NO_USAGE
    finish = ""
    for event in _events(lines):
        if time.monotonic() > deadline:
            raise TimedOut
        if isinstance(event, dict) and event.get("usage"):
            usage = _usage(event, model)
        if isinstance(event, dict) and event.get("error"):
            raise Malformed(f"the stream reported an error: {short(json.dumps(event['error']))}")
        choice = _choice(event)
        delta = choice.get("delta", {})
        piece = delta.get("content") if isinstance(delta, dict) else None
        if isinstance(piece, str):
            parts.append(piece)
        elif piece is not None:
            raise Malformed("a stream delta is not text")
        reason = choice.get("finish_reason")
        finish = reason if isinstance(reason, str) else finish
    return Reply("".join(parts), usage, finish)


def ask(prompt: str, config: Config, env: Mapping[str, str] | None = None) -> Reply:
    """The server's answer to ``prompt``; raises :class:`TimedOut`, :class:`Malformed`,
    ``urllib.error.HTTPError`` or ``OSError`` (unreachable)."""
    timeout = max(1, config.distill.timeout)
    deadline = time.monotonic() + timeout
    request = _request(prompt, config, os.environ if env is None else env)
    model = config.distill.openai_model
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            if config.distill.openai_stream and "event-stream" in response.headers.get(
                "Content-Type", ""
            ):
                return _streamed(iter(response.readline, b""), model, deadline)
            return _whole(response.read(), model)
    except TimeoutError as exc:
        raise TimedOut from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError | socket.timeout):
            raise TimedOut from exc
        raise


def _http_error(exc: urllib.error.HTTPError) -> BackendResult:
    try:
        body = exc.read(ERROR_BODY_MAX).decode("utf-8", errors="replace")
    except OSError:
        body = ""
    detail = f"HTTP {exc.code} from {exc.url}: {short(body) or exc.reason}"
    status: Status = "infra" if exc.code in INFRA_HTTP else "llm-error"
    return BackendResult(status, "", detail, NAME)


def run(prompt: str, config: Config, env: Mapping[str, str] | None = None) -> BackendResult:
    """One attempt, classified like every backend's (see the module docstring)."""
    if not config.distill.openai_model.strip():
        return BackendResult("infra", "", "distill.openai_model is not set", NAME)
    timeout = max(1, config.distill.timeout)
    try:
        reply = ask(prompt, config, env)
    except TimedOut:
        return BackendResult("timeout", "", f"no answer within {timeout} s", NAME)
    except Malformed as exc:
        return BackendResult("llm-error", "", f"malformed reply: {exc}", NAME)
    except urllib.error.HTTPError as exc:
        return _http_error(exc)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        where = endpoint(config.distill.openai_base_url)
        return BackendResult("infra", "", f"cannot reach {where}: {reason}", NAME)
    status, detail = classify(0, reply.text, "")
    if reply.finish == "length" and status != "ok":
        detail = f"{detail} (the answer was cut at the model's token limit)"
    return BackendResult(status, reply.text, detail, NAME, reply.usage)
