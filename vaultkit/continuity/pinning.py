"""Why a summary may not be "the latest session": dated in the future, or at odds with itself.

Lean (``re`` and ``time`` only): SessionStart asks this of the summaries it would choose. A note
arrives through git, so its date is a claim: a far-future date would keep it on top for good.
A summary is passed over when its frontmatter date (or, without one, its file name's stamp) is
later than now plus a clock-skew allowance, when its frontmatter date and its file name's stamp
(both the writer's wall clock) name different minutes, or when it is dated after the worker
finished distilling the session it claims (this machine's done record says when).
"""

from __future__ import annotations

import re
import time

SKEW = 10 * 60  # seconds: clocks of one team disagree by less than this
ZONE_SKEW = 14 * 3600 + SKEW  # a wall-clock time without offset may be any zone's
_ISO = re.compile(
    r"\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?"
    r"\s*(Z|[+-]\d{2}:?\d{2})?)?\s*$"
)


class Stamp:
    """A parsed date: seconds since the epoch (``None`` if unknown), its wall-clock minute as
    ``YYYYMMDDHHMM`` (``YYYYMMDD`` for a date alone), and whether it carried an offset (so its
    epoch is exact)."""

    __slots__ = ("epoch", "exact", "wall")

    def __init__(self, epoch: float | None, wall: str, exact: bool) -> None:
        self.epoch, self.wall, self.exact = epoch, wall, exact


def _days(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to the given proleptic Gregorian date (no datetime import)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def _offset(text: str) -> int:
    if text == "Z":
        return 0
    digits = text[1:].replace(":", "")
    minutes = int(digits[:2]) * 60 + int(digits[2:4])
    return -minutes * 60 if text[0] == "-" else minutes * 60


def parse_date(text: str) -> Stamp | None:
    """``2026-11-30T09:00:00+09:00`` (offset, seconds and time optional); None otherwise."""
    match = _ISO.match(text)
    if match is None:
        return None
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in match.groups()[:6])
    if not (1 <= mo <= 12 and 1 <= d <= 31 and h < 24 and mi < 60 and s < 62):
        return None
    wall = f"{y:04d}{mo:02d}{d:02d}" + (f"{h:02d}{mi:02d}" if match.group(4) else "")
    zone = match.group(7)
    if zone is not None:
        epoch = _days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - _offset(zone)
        return Stamp(float(epoch), wall, True)
    try:
        local = time.mktime((y, mo, d, h, mi, s, 0, 0, -1))
    except (OverflowError, ValueError):
        return Stamp(None, wall, False)
    return Stamp(local, wall, False)


def name_stamp(key: str) -> Stamp | None:
    """The ``YYYYMMDDHHMM`` key of a note name (the writer's wall clock, zone unknown)."""
    if len(key) < 12 or not key[:12].isdigit():
        return None
    return parse_date(f"{key[:4]}-{key[4:6]}-{key[6:8]}T{key[8:10]}:{key[10:12]}")


def _shown(wall: str) -> str:
    return f"{wall[:4]}-{wall[4:6]}-{wall[6:8]} {wall[8:10]}:{wall[10:12]}"


def pinned_reason(date: str, name_key: str, now: float, finished_at: str = "") -> str:
    """``""`` when a summary may be the latest session, else why not, in a few words.

    ``date``: its frontmatter ``date``; ``name_key``: its file name's stamp (``YYYYMMDDHHMM``,
    ``""`` if none); ``finished_at``: when this machine's worker finished its session, if known.
    """
    claimed = parse_date(date) if date else None
    named = name_stamp(name_key) if name_key else None
    if claimed is not None and named is not None and not named.wall.startswith(claimed.wall):
        return f"its date {date.strip()} disagrees with its file name ({_shown(named.wall)})"
    stamp = claimed or named
    if stamp is None or stamp.epoch is None:
        return ""
    allowance = SKEW if stamp.exact else ZONE_SKEW
    if stamp.epoch > now + allowance:
        return f"dated in the future ({date.strip() or _shown(stamp.wall)})"
    finished = parse_date(finished_at) if finished_at else None
    done = finished.epoch if finished is not None else None
    if done is not None and stamp.epoch > done + SKEW:
        return (
            f"dated {date.strip() or _shown(stamp.wall)}, after its session's distillation "
            f"finished ({finished_at.strip()})"
        )
    return ""


def future_key(now: float) -> str:
    """The latest name stamp (``YYYYMMDDHHMM``) that is not in the future in any time zone."""
    return time.strftime("%Y%m%d%H%M", time.gmtime(now + ZONE_SKEW))
