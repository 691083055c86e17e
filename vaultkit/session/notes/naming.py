"""Note file names: ``YYYY-MM-DD_HHMM_<sid8>_<Title>.md``, safe on Windows, macOS and Linux
(``<sid8>`` grows to the whole id when another session's note holds the name: time-ordered ids
such as Codex's UUIDv7 share their first 8 characters for about a minute);
and the same title made inert for frontmatter (:func:`inert_title`) and headings
(:func:`heading_text`), so no title can become a link, an embed, a tag, a block id or a comment.

Also reads the seed's names back (``YYYY_MM_DD__HH.MM_<sid>_요약.md`` / ``_위키.md``).
"""

from __future__ import annotations

import re
import unicodedata

from vaultkit.base.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

STEM_MAX_BYTES = 150
UNTITLED = "untitled"
LONG_ID_MAX = 40  # the whole id (a UUID is 36) when its first 8 characters are taken
TITLE_MAX_CHARS = 900  # under the YAML width (1000): a title is never folded

_FORBIDDEN = frozenset('\\/:*?"<>|#^[]')
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL"}
    | {f"COM{i}" for i in range(1, 10)}
    | {f"LPT{i}" for i in range(1, 10)}
)
_SPACES = r"\s+"
_DOUBLED = r"(\[|\]|%)\1+"  # "[[", "]]", "%%" (and longer runs): the link and comment openers
# Characters Markdown or Obsidian give a meaning inside a heading line; escaped, they show as is.
_ACTIVE = frozenset("\\`*_[]<>#^|%$~=!&")
# Compiled on first use (re caches them): the SessionStart hook rarely reads a name.
_NEW_NAME = r"^(\d{4})-(\d{2})-(\d{2})_(\d{2})(\d{2})_([A-Za-z0-9-]{1,%d})_(.+)\.md$"
_SEED_NAME = r"^(\d{4})_(\d{2})_(\d{2})__(\d{2})\.(\d{2})_(.+?)_(요약|위키)\.md$"


class NoteName(Record):
    """What a note's file name says: when (naive local time), which session, which title."""

    when: datetime
    session: str  # first 8 characters or the long id (new names), the whole id (seed names)
    title: str
    seed: bool


def short_id(session_id: str) -> str:
    """The first 8 file-name-safe characters of a session id (``[A-Za-z0-9-]`` only)."""
    return long_id(session_id)[:8]


def long_id(session_id: str) -> str:
    """The session id as a name carries it when its short id is another session's: up to
    :data:`LONG_ID_MAX` file-name-safe characters."""
    cleaned = re.sub(r"[^A-Za-z0-9-]", "", session_id.strip())
    return cleaned[:LONG_ID_MAX] or "nosessid"


def names_session(name_session: str, session_id: str) -> bool:
    """Whether a new-style name's session part can be ``session_id``'s (short or long id)."""
    return name_session in (short_id(session_id), long_id(session_id))


def _drop_unsafe(text: str) -> str:
    chars = []
    for ch in text:
        if ch in _FORBIDDEN or ch in _BIDI or unicodedata.category(ch) == "Cc":
            chars.append(" ")
        else:
            chars.append(ch)
    return "".join(chars)


def inert_title(title: str) -> str:
    """The title as frontmatter, INDEX.md and headings carry it: NFC, one line (control and
    bidi characters become spaces), no doubled ``[``, ``]`` or ``%`` (a run keeps one) and no
    ``](``, so neither YAML nor Obsidian can read a link, an embed or a comment in it; at most
    :data:`TITLE_MAX_CHARS` characters. ``""`` when nothing is left."""
    text = unicodedata.normalize("NFC", title)
    chars = (
        " " if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text
    )
    text = re.sub(_SPACES, " ", "".join(chars)).strip()
    text = re.sub(_DOUBLED, r"\1", text).replace("](", "] (")  # nor a Markdown link
    return text[:TITLE_MAX_CHARS].rstrip()


def heading_text(title: str) -> str:
    """An inert title with every character Markdown or Obsidian would act on backslash-escaped:
    Obsidian shows it unchanged, and it is no link, tag, block id, comment, code or math."""
    return "".join(f"\\{ch}" if ch in _ACTIVE else ch for ch in inert_title(title))


def _trim_ends(text: str) -> str:
    return text.lstrip(". ").rstrip(". ")


def _cut_bytes(text: str, limit: int) -> str:
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


def safe_title(title: str, *, max_bytes: int = STEM_MAX_BYTES) -> str:
    """A title usable as (part of) a file name: NFC, no forbidden or link-breaking characters,
    no leading dots, no trailing dot or space, not a device name, at most ``max_bytes`` UTF-8."""
    text = unicodedata.normalize("NFC", title)
    text = _trim_ends(re.sub(_SPACES, " ", _drop_unsafe(text)).strip())
    if text.split(".")[0].strip().upper() in _RESERVED:
        text = f"_{text}"
    text = _trim_ends(_cut_bytes(text, max(1, max_bytes)))
    return text or UNTITLED


def stamp(when: datetime) -> str:
    """``YYYY-MM-DD_HHMM`` in the local time of ``when`` (aware values are converted)."""
    local = when.astimezone() if when.tzinfo is not None else when
    return local.strftime("%Y-%m-%d_%H%M")


def note_stem(when: datetime, session_id: str, title: str, *, long: bool = False) -> str:
    """The shared stem of a session's summary and wiki note (at most 150 UTF-8 bytes); ``long``:
    with the long id, for a session whose short stem another session's note holds."""
    prefix = f"{stamp(when)}_{long_id(session_id) if long else short_id(session_id)}_"
    room = STEM_MAX_BYTES - len(prefix.encode("utf-8"))
    return prefix + safe_title(title, max_bytes=room)


_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_note_name(name: str) -> bool:
    """``parse_name(name) is not None``, without building the value (for scans of many names)."""
    match = re.match(_NEW_NAME % LONG_ID_MAX, name) or re.match(_SEED_NAME, name)
    if match is None:
        match = re.match(_NEW_NAME % LONG_ID_MAX, unicodedata.normalize("NFC", name))
        match = match or re.match(_SEED_NAME, unicodedata.normalize("NFC", name))
    if match is None:
        return False
    year, month, day, hour, minute = (int(g) for g in match.groups()[:5])
    if not (year >= 1 and 1 <= month <= 12 and hour < 24 and minute < 60):
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= (_DAYS[month - 1] if month != 2 or leap else 28)


def parse_name(name: str) -> NoteName | None:
    """Read a note file name written by vaultkit or by the seed; None for anything else."""
    name = unicodedata.normalize("NFC", name)
    match = re.match(_NEW_NAME % LONG_ID_MAX, name)
    seed = False
    if match is None:
        match = re.match(_SEED_NAME, name)
        seed = True
    if match is None:
        return None
    from datetime import datetime

    year, month, day, hour, minute = (int(g) for g in match.groups()[:5])
    try:
        when = datetime(year, month, day, hour, minute)
    except ValueError:
        return None
    title = "" if seed else match.group(7)
    return NoteName(when=when, session=match.group(6), title=title, seed=seed)
