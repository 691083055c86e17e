"""A Claude Code hook for the e2e suite: saves its stdin payload, optionally injects context.

Writes ``$E2E_DUMP_DIR/<ns>-<event>.json``; on SessionStart prints ``$E2E_INJECT`` (when set) as
``additionalContext``. Stdlib only, so it runs under any Python 3.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path


def main() -> int:
    raw = sys.stdin.read()
    try:
        event = str(json.loads(raw).get("hook_event_name", "unknown"))
    except (ValueError, AttributeError):
        event = "unparsable"
    folder = Path(os.environ.get("E2E_DUMP_DIR", "."))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{time.time_ns()}-{event}.json").write_text(raw, encoding="utf-8")
    inject = os.environ.get("E2E_INJECT")
    if event == "SessionStart" and inject:
        output = {"hookEventName": "SessionStart", "additionalContext": inject}
        print(json.dumps({"hookSpecificOutput": output}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
