"""How full Claude Code's context is: the tokens of its last reply, read from the transcript's tail.

Claude Code records each assistant reply's ``message.usage`` (input, cache creation, cache read
and output tokens) in the transcript; the last one is how much the context holds. A bounded read
from the tail, never the whole file; stdlib only (the UserPromptSubmit hook calls it).
"""

from __future__ import annotations

import json
import os

TAIL_STEPS = (64 * 1024, 1024 * 1024, 8 * 1024 * 1024)
USAGE_KEYS = (
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
)


def _usage_of(line: bytes) -> int | None:
    if b'"usage"' not in line or b'"assistant"' not in line:
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("type") != "assistant":
        return None
    if record.get("isSidechain") is True:
        return None
    message = record.get("message")
    if not isinstance(message, dict) or message.get("model") == "<synthetic>":
        return None
    usage = message.get("usage")
    if not isinstance(usage, dict):
        return None
    values = [usage.get(k) for k in USAGE_KEYS]
    total = sum(v for v in values if isinstance(v, int) and not isinstance(v, bool))
    return total if total > 0 else None


def tokens(transcript: str | os.PathLike[str]) -> int | None:
    """Tokens in context at the last assistant reply (input + cache + output), from the tail."""
    try:
        size = os.stat(transcript).st_size
        with open(transcript, "rb") as handle:
            for step in TAIL_STEPS:
                start = max(0, size - step)
                handle.seek(start)
                lines = handle.read(size - start).split(b"\n")
                if start > 0:
                    lines = lines[1:]  # the first piece may be a partial line
                for line in reversed(lines):
                    found = _usage_of(line)
                    if found is not None:
                        return found
                if start == 0:
                    return None
    except OSError:
        return None
    return None
