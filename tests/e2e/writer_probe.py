"""A probe hook for the e2e runs: records whether a live process holds the payload's transcript
open for writing, as backfill's finished rule sees it (``vaultkit.session.queue.finished``).

Appends ``{"event", "exists", "writers"}`` as one JSON line to ``$E2E_PROBE_OUT``; ``writers``
is ``null`` where ``/proc`` cannot say.
"""

from __future__ import annotations

import json
import os
import sys

from vaultkit.session.queue import finished


def main() -> int:
    payload = json.loads(sys.stdin.read() or "{}")
    path = os.path.realpath(str(payload.get("transcript_path") or ""))
    writers = finished.open_for_writing([path])
    row = {
        "event": payload.get("hook_event_name"),
        "exists": os.path.isfile(path),
        "writers": None if writers is None else sorted(writers),
    }
    with open(os.environ["E2E_PROBE_OUT"], "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
