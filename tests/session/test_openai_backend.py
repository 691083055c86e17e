"""The ``openai`` backend against a loopback mock of the chat completions API.

The mock (tests/openai_mock.py) is a real server process on 127.0.0.1; the pipeline talks to it
over real sockets: streamed and whole answers, tokens, keys, timeouts, malformed replies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from vaultkit.base.config import Config, DistillConfig, parse_config
from vaultkit.base.store import Store
from vaultkit.errors import VaultkitError
from vaultkit.session.distill.openaicompat import endpoint, run
from vaultkit.session.distill.pipeline import InfraError, SessionInfo, distill_session
from vaultkit.session.notes.write import read_frontmatter

SID = "d4e5f6a7-1111-2222-3333-444455556666"
WHEN = datetime(2026, 11, 30, 9, 5, tzinfo=timezone(timedelta(hours=9)))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    record = tmp_path_factory.mktemp("mock") / "requests.jsonl"
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "openai_mock.py"), str(record)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        yield f"http://127.0.0.1:{port}", record
    finally:
        proc.kill()
        proc.wait(timeout=10)


def config(url: str, stream: bool = True, timeout: int = 20, key_env: str = "") -> Config:
    return Config(
        distill=DistillConfig(
            backend="openai",
            openai_base_url=url,
            openai_model="qwen2.5:7b",
            openai_stream=stream,
            openai_key_env=key_env,
            timeout=timeout,
        )
    )


def make_session(tmp_path: Path) -> tuple[Store, SessionInfo]:
    store = Store(tmp_path / "proj" / "sessions")
    raw = store.raw / f"2026-11-30_0905_{SID}.jsonl"
    raw.parent.mkdir(parents=True)
    message = {"role": "user", "content": "Wire the local model in"}
    row = {"sessionId": SID, "cwd": "/w/p", "type": "user", "message": message}
    raw.write_text(json.dumps(row) + "\n", encoding="utf-8")
    return store, SessionInfo(SID, raw, "proj", str(tmp_path / "proj"), None, WHEN)


def last_request(record: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    return found


@pytest.mark.parametrize("stream", [True, False])
def test_a_local_server_writes_good_notes_with_its_tokens(
    server: tuple[str, Path], tmp_path: Path, stream: bool
) -> None:
    url, record = server
    store, info = make_session(tmp_path)
    mode = "stream" if stream else "whole"
    outcome = distill_session(store, info, config(f"{url}/{mode}/v1/", stream=stream))
    assert (outcome.quality, outcome.title, outcome.backend) == (
        "ok",
        "Local model notes",
        "openai",
    )
    assert (outcome.usage.input_tokens, outcome.usage.output_tokens) == (1200, 80)
    assert outcome.usage.model == "qwen2.5:7b"
    assert "nothing leaves the machine" in outcome.wiki_path.read_text(encoding="utf-8")
    sent = last_request(record)
    assert sent["path"] == f"/{mode}/v1/chat/completions" and sent["model"] == "qwen2.5:7b"
    assert sent["stream"] is stream and sent["auth"] is None
    messages = sent["messages"]
    assert isinstance(messages, list) and "Wire the local model in" in messages[0]["content"]


def test_the_key_comes_from_the_named_environment_variable(
    server: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, record = server
    monkeypatch.setenv("LOCAL_LLM_KEY", "sekrit")
    result = run("prompt", config(f"{url}/locked/v1", stream=False, key_env="LOCAL_LLM_KEY"))
    assert result.status == "ok" and last_request(record)["auth"] == "Bearer sekrit"
    monkeypatch.setenv("LOCAL_LLM_KEY", "wrong")
    refused = run("prompt", config(f"{url}/locked/v1", stream=False, key_env="LOCAL_LLM_KEY"))
    assert refused.status == "infra" and "HTTP 401" in refused.detail
    assert "Invalid API key" in refused.detail and "wrong" not in refused.detail


@pytest.mark.parametrize(
    ("mode", "stream", "status", "detail"),
    [
        ("garbage", False, "llm-error", "malformed reply: not JSON"),
        ("garbage", True, "llm-error", "malformed reply: not JSON"),
        ("badstream", True, "llm-error", "a stream event is not JSON"),
        ("nochoices", False, "llm-error", "the reply has no choices"),
        ("overloaded", True, "infra", "HTTP 503"),
        ("slow", False, "timeout", "no answer within 1 s"),
        ("stall", True, "timeout", "no answer within 1 s"),
    ],
)
def test_bad_replies_are_classified(
    server: tuple[str, Path], mode: str, stream: bool, status: str, detail: str
) -> None:
    url, _ = server
    result = run("prompt", config(f"{url}/{mode}/v1", stream=stream, timeout=1))
    assert (result.status, result.backend) == (status, "openai")
    assert detail in result.detail


def test_malformed_replies_are_retried_then_degraded(
    server: tuple[str, Path], tmp_path: Path
) -> None:
    url, _ = server
    store, info = make_session(tmp_path)
    outcome = distill_session(store, info, config(f"{url}/garbage/v1", stream=False))
    assert (outcome.quality, outcome.degraded_reason, outcome.retries) == (
        "degraded",
        "llm-error",
        1,
    )


def test_an_echoing_local_model_is_caught(server: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = server
    store, info = make_session(tmp_path)
    outcome = distill_session(store, info, config(f"{url}/echo/v1"))
    assert (outcome.quality, outcome.degraded_reason) == ("degraded", "echoed-template")
    assert read_frontmatter(outcome.wiki_path)["quality"] == "degraded"


def test_a_server_that_is_not_running_keeps_the_session_queued(tmp_path: Path) -> None:
    store, info = make_session(tmp_path)
    with pytest.raises(InfraError) as caught:
        distill_session(store, info, config("http://127.0.0.1:9/v1"))  # discard port: closed
    assert "cannot reach http://127.0.0.1:9/v1/chat/completions" in str(caught.value)
    assert "openai_base_url" in (caught.value.hint or "")
    assert not store.wiki.exists() or not list(store.wiki.glob("*.md"))


def test_settings_are_checked() -> None:
    with pytest.raises(VaultkitError, match="openai_model is not set"):
        parse_config('[distill]\nbackend = "openai"\n', "vaultkit.toml")
    with pytest.raises(VaultkitError, match="not an http"):
        parse_config('[distill]\nopenai_base_url = "localhost:8080"\n', "vaultkit.toml")
    assert endpoint("http://h:1/v1/") == "http://h:1/v1/chat/completions"
    assert endpoint("http://h:1/v1/chat/completions") == "http://h:1/v1/chat/completions"
