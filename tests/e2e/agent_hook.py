"""A recorder hook for the Codex and Gemini e2e runs: saves its stdin payload, may inject text.

Writes ``$E2E_DUMP_DIR/<ns>-<event>.json``. On SessionStart, when ``$E2E_INJECT`` is set, prints
it as JSON ``hookSpecificOutput.additionalContext`` (``$E2E_INJECT_MODE=json``, the default) or
as plain stdout (``plain``). Stdlib only, so it runs under any Python 3.
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
        if os.environ.get("E2E_INJECT_MODE", "json") == "plain":
            print(inject)
        else:
            output = {"hookEventName": "SessionStart", "additionalContext": inject}
            print(json.dumps({"hookSpecificOutput": output}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
