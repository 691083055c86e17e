"""Which readable transcripts (``transcripts/*.md``) are one session's: named with its short id,
confirmed by the ``session: `id``` line the rendering writes near its top, so two sessions whose
ids share their first 8 characters never take each other's file."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from vaultkit.session.notes.naming import short_id

HEAD_LINES = 8  # the session line follows the title
_SESSION_LINE = re.compile(r"^session: `(.+)`$")


def recorded_session(path: Path) -> str | None:
    """The ``session: `id``` line near the top of a readable transcript, if any."""
    with contextlib.suppress(OSError), path.open(encoding="utf-8", errors="replace") as handle:
        for _, line in zip(range(HEAD_LINES), handle, strict=False):
            match = _SESSION_LINE.match(line.strip())
            if match:
                return match.group(1)
    return None


def renderings_of(folder: Path, session_id: str) -> list[Path]:
    """The session's readable transcripts in ``folder``, sorted: a file named ``…_<short>.md``
    or ``…_<short>_<id>.md`` whose session line names it (one without a session line counts
    only under the plain short-id name, as before session lines were checked)."""
    short = short_id(session_id)
    found: list[Path] = []
    with contextlib.suppress(OSError):
        for path in sorted(folder.glob(f"*_{short}*.md")):
            recorded = recorded_session(path)
            plain = path.name.endswith(f"_{short}.md")
            if recorded == session_id or (recorded is None and plain):
                found.append(path)
    return found
