"""Note file names: ``YYYY-MM-DD_HHMM_<sid8>_<Title>.md``, safe on Windows, macOS and Linux;
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
_NEW_NAME = r"^(\d{4})-(\d{2})-(\d{2})_(\d{2})(\d{2})_([A-Za-z0-9-]{1,8})_(.+)\.md$"
_SEED_NAME = r"^(\d{4})_(\d{2})_(\d{2})__(\d{2})\.(\d{2})_(.+?)_(요약|위키)\.md$"


class NoteName(Record):
    """What a note's file name says: when (naive local time), which session, which title."""

    when: datetime
    session: str  # first 8 characters (new names) or the whole id (seed names)
    title: str
    seed: bool


def short_id(session_id: str) -> str:
    """The first 8 file-name-safe characters of a session id (``[A-Za-z0-9-]`` only)."""
    cleaned = re.sub(r"[^A-Za-z0-9-]", "", session_id.strip())
    return cleaned[:8] or "nosessid"


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


def note_stem(when: datetime, session_id: str, title: str) -> str:
    """The shared stem of a session's summary and wiki note (at most 150 UTF-8 bytes)."""
    prefix = f"{stamp(when)}_{short_id(session_id)}_"
    room = STEM_MAX_BYTES - len(prefix.encode("utf-8"))
    return prefix + safe_title(title, max_bytes=room)


def parse_name(name: str) -> NoteName | None:
    """Read a note file name written by vaultkit or by the seed; None for anything else."""
    name = unicodedata.normalize("NFC", name)
    match = re.match(_NEW_NAME, name)
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
