"""Helpers for the continuity tests: projects, transcripts with thinking/usage, CLI processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from vaultkit.base.store import Store

VAULTKIT = [sys.executable, "-m", "vaultkit"]


def project(root: Path) -> tuple[Path, Store]:
    """A git project with an (empty) session store."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / "sessions" / ".vaultkit").mkdir(parents=True, exist_ok=True)
    return root, Store(root / "sessions")


def user(text: str | list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}, **extra}


def assistant(msg_id: str, *blocks: dict[str, Any], usage: dict[str, int] | None = None) -> Any:
    message: dict[str, Any] = {"id": msg_id, "role": "assistant", "content": list(blocks)}
    if usage is not None:
        message["usage"] = usage
    return {"type": "assistant", "message": message}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def thinking(value: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": value, "signature": "sig"}


def tool_use(name: str, **args: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_1", "name": name, "input": args}


def tool_result(output: str) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": "toolu_1", "content": output}
    return {"type": "user", "message": {"role": "user", "content": [block]}, "toolUseResult": {}}


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    path.write_text(body, encoding="utf-8")
    return path


def vk(
    *args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``vaultkit ARGS`` as a real process."""
    return subprocess.run(
        [*VAULTKIT, *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=60,
    )
