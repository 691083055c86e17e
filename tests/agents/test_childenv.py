"""One definition of the environment vaultkit gives the processes it starts."""

from __future__ import annotations

from vaultkit.base.config import Config, DistillConfig
from vaultkit.session.distill.backends import child_env
from vaultkit.session.queue.spawn import worker_env

AGENT = {
    "PATH": "/bin",
    "CLAUDECODE": "1",
    "CLAUDE_PROJECT_DIR": "/p",
    "CLAUDE_CODE_SSE_PORT": "1234",
    "CLAUDE_CODE_SESSION_ACCESS_TOKEN": "t",
    "CLAUDE_CODE_MESSAGING_SOCKET": "s",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "CLAUDE_CODE_MAX_RETRIES": "2",
    "ANTHROPIC_API_KEY": "dummy",
}
KEPT = {
    "PATH": "/bin",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "CLAUDE_CODE_MAX_RETRIES": "2",
    "ANTHROPIC_API_KEY": "dummy",
    "VAULTKIT_CHILD": "1",
    "CLAUDE_WIKI_CHILD": "1",
}


def test_worker_and_llm_child_get_the_same_cleaned_environment() -> None:
    assert worker_env(AGENT) == KEPT
    assert child_env(Config(), AGENT) == KEPT


def test_strip_api_key_drops_only_the_key() -> None:
    config = Config(distill=DistillConfig(strip_api_key=True))
    expected = {k: v for k, v in KEPT.items() if k != "ANTHROPIC_API_KEY"}
    assert child_env(config, AGENT) == expected
