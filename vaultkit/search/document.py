"""One file as the search index sees it: title, aliases, description, headings, body, date,
agent, author and tags."""

from __future__ import annotations

import re
import time
import unicodedata

from vaultkit.base.author import clean_author
from vaultkit.base.record import Record

MAX_BODY_CHARS = 4 * 1024 * 1024  # a readable transcript past this is indexed by its head

_DATE = re.compile(r"(\d{4})[-_](\d{2})[-_](\d{2})")


class Document(Record):
    """What is indexed of one file. ``body`` is the text after the frontmatter, starting at
    line ``body_line`` of the file, so a line of the body maps back to the file."""

    path: str
    kind: str
    title: str
    headings: str
    body: str
    body_line: int
    date: str  # YYYY-MM-DD, "" when unknown
    agent: str
    author: str  # frontmatter ``author:`` (cleaned: it may come from a teammate), "" when absent
    tags: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    description: str = ""

    @property
    def names(self) -> str:
        """What the ``aliases`` column holds: the aliases and the tags (``#a/b`` as ``a b``),
        a line each: names a note is found by, ranked near its title."""
        tags = (t.replace("/", " ") for t in self.tags)
        return "\n".join((*self.aliases, *tags))


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _date(frontmatter_date: object, name: str, mtime: float) -> str:
    for candidate in (str(frontmatter_date or ""), name):
        match = _DATE.match(candidate.strip())
        if match:
            return "-".join(match.groups())
    return time.strftime("%Y-%m-%d", time.localtime(mtime))


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name


def read_document(path: str, kind: str, data: bytes, mtime: float) -> Document | None:
    """Parse ``data`` (the bytes of the file shown as ``path``); None when it is not text."""
    from vaultkit.vault.parse import parse_note  # the parser only when a file changed

    note = parse_note(path, data)
    if any(f.code == "VK202" for f in note.findings):
        return None
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text.lstrip("\ufeff"))
    body = "\n".join(text.split("\n")[note.body_line - 1 :])[:MAX_BODY_CHARS]
    meta = note.frontmatter
    return Document(
        path=path,
        kind=kind,
        title=_text(meta.get("title")) or _stem(path),
        headings="\n".join(h.text for h in note.headings),
        body=body,
        body_line=note.body_line,
        date=_date(meta.get("date"), path.rsplit("/", 1)[-1], mtime),
        agent=_text(meta.get("agent")),
        author=clean_author(_text(meta.get("author"))),
        tags=tuple(sorted({t.lower() for t in note.tags})),
        aliases=note.aliases,
        description=_text(meta.get("description")),
    )
