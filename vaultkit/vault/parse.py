"""Bytes of one Markdown file -> ``Note``: frontmatter, links, headings, tags and findings."""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote

from vaultkit.vault.bulkscan import EMBED_KEY, BulkLinks, scan_bulk
from vaultkit.vault.fastparse import (
    BULK_META,
    ROW_META,
    Piece,
    Segment,
    Windows,
    body_plan,
    expanded,
    let_go,
    simple_yaml,
    windows,
)
from vaultkit.vault.model import (
    Finding,
    Heading,
    Link,
    LinkKind,
    LinkPacker,
    Note,
    PackedKey,
    PackedLinks,
    Severity,
    pack_links,
)
from vaultkit.vault.wikisyntax import display_bar, scan_wikilink, split_wikilink

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token as MdToken

BOM = "\ufeff"
FENCE = "---"
FENCE_ENDS = ("---", "...")
TAG_KEYS = ("tags", "tag")
ALIAS_KEYS = ("aliases", "alias")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_BLOCK_ID = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)$")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s")
_TAG_EXTRA = frozenset("-_/")
_TAG_ASCII = re.compile(r"[A-Za-z0-9_/-]*")  # exactly the ASCII characters _is_tag_char accepts
_WATCHED = frozenset({"text", "wikilink", "wikilink_error", "link_open", "image"})
_EMPHASIS = re.compile(r"~~|==|(?<!\w)[*_]+(?=\S)|(?<=\S)[*_]+(?!\w)")
_NEWLINE = re.compile("\n")
_BREAKS = frozenset({"softbreak", "hardbreak"})
_SAMPLE = 8192  # how much of a file the binary test looks at
_NOT_CONTROL = bytes(b for b in range(256) if (b >= 0x20 and b != 0x7F) or b in b"\t\n\r\f\x1b")

_LinkFields = tuple["LinkKind", str, str, str | None, bool]  # a Link but its line and column


# A Link from its fields, without NamedTuple's Python-level ``__new__`` and without a Python
# frame per call (a partial of a C function: mapped over a bulk paragraph's links)
_new_link: Callable[[tuple[LinkKind, str, str, str | None, int, int, bool]], Link] = partial(
    tuple.__new__, Link
)


class Token(Protocol):
    """What the body walk reads of a markdown-it token (or of a :class:`fastparse.Piece`)."""

    @property
    def type(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def meta(self) -> dict[Any, Any]: ...
    @property
    def attrs(self) -> Mapping[str, object]: ...
    @property
    def map(self) -> Sequence[int] | None: ...
    @property
    def children(self) -> Sequence[Token] | None: ...


# --------------------------------------------------------------------------- decoding


@dataclass(frozen=True, slots=True)
class _Text:
    """Decoded text with ``\\n`` line endings, or ``None`` for binary content."""

    text: str | None
    findings: tuple[Finding, ...] = ()


def _finding(path: str, line: int, col: int, code: str, message: str) -> Finding:
    severity: Severity = "warning" if code == "VK106" else "error"
    return Finding(path, line, col, code, severity, message)


def _normalise_newlines(text: str) -> str:
    """``\\n`` line endings, and NUL as U+FFFD (what markdown-it reads it as, so line text
    and token text agree)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


def _is_binary(data: bytes) -> bool:
    """True when the file's start is not text: control bytes (other than tab, newlines, form
    feed and escape) make up more than 30% of its first 8 KiB, or it holds a NUL and is not
    UTF-8. One NUL or stray control byte in a UTF-8 note (pasted into a code block) is text."""
    sample = data[:_SAMPLE]
    controls = len(sample.translate(None, _NOT_CONTROL))
    if controls * 10 > len(sample) * 3:
        return True
    if not controls or b"\x00" not in sample:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _decode(path: str, data: bytes) -> _Text:
    if _is_binary(data):
        return _Text(None, (_finding(path, 1, 1, "VK202", "binary content"),))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return _Text(_normalise_newlines(data.decode("utf-8")))
    except UnicodeDecodeError as exc:
        before = _normalise_newlines(data[: exc.start].decode("utf-8", errors="replace"))
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        message = f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at line {line})"
        text = _normalise_newlines(data.decode("utf-8", errors="replace"))
        return _Text(text, (_finding(path, line, col, "VK202", message),))


# --------------------------------------------------------------------------- frontmatter


@dataclass(slots=True)
class _Frontmatter:
    """What the frontmatter block yields. ``lines`` counts the fence lines too."""

    data: dict[str, object] = field(default_factory=dict)
    lines: int = 0
    links: list[Link] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _closing_fence(lines: Sequence[str]) -> int:
    for index in range(1, len(lines)):
        if lines[index].rstrip() in FENCE_ENDS:
            return index
    return -1


def _parse_frontmatter(path: str, lines: Sequence[str], fast: bool = True) -> _Frontmatter:
    if not lines or lines[0].rstrip() != FENCE:
        return _Frontmatter()
    close = _closing_fence(lines)
    if close < 0:
        message = "frontmatter fence '---' is never closed; the file is read as body text"
        return _Frontmatter(findings=[Finding(path, 1, 1, "VK201", "warning", message)])
    result = _Frontmatter(lines=close + 1)
    body = lines[1:close]
    simple = simple_yaml(body) if fast else None
    if simple is not None:
        result.data = simple  # plain strings only: no "[[", so no frontmatter links
        return result
    from vaultkit.vault import yamlfront  # PyYAML: only frontmatter the lean reader declines

    read = yamlfront.read_frontmatter(path, body)
    result.data, result.links, result.findings = read.data, read.links, read.findings
    return result


# --------------------------------------------------------------------------- tags and aliases


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        yield str(value)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _frontmatter_values(data: Mapping[str, object], keys: Iterable[str]) -> Iterator[str]:
    for key in keys:
        yield from _strings(data.get(key))


def _frontmatter_tags(data: Mapping[str, object]) -> Iterator[str]:
    for text in _frontmatter_values(data, TAG_KEYS):
        for piece in re.split(r"[,\s]+", text):
            tag = piece.strip().lstrip("#")
            if tag:
                yield tag


def _aliases(data: Mapping[str, object]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for text in _frontmatter_values(data, ALIAS_KEYS):
        alias = text.strip()
        if alias:
            seen.setdefault(alias, None)
    return tuple(seen)


def _is_tag_char(char: str) -> bool:
    """Letters, digits, ``-``, ``_``, ``/`` and non-ASCII symbols such as emoji."""
    if char in _TAG_EXTRA:
        return True
    if char.isascii():
        return char.isalnum()
    category = unicodedata.category(char)
    return not (category[0] in "PZC" or category in ("Sm", "Sk"))


def _tag_end(text: str, end: int) -> int:
    """Where the run of tag characters from ``end`` stops (ASCII runs in one regex step)."""
    while True:
        match = _TAG_ASCII.match(text, end)
        end = match.end() if match else end
        if end < len(text) and not text[end].isascii() and _is_tag_char(text[end]):
            end += 1
        else:
            return end


def _tags_in_text(text: str, at_boundary: bool) -> Iterator[str]:
    """Obsidian tags in a run of text: ``#`` after whitespace (or a boundary), not all digits."""
    start = text.find("#")
    while start >= 0:
        before_ok = text[start - 1].isspace() if start > 0 else at_boundary
        end = _tag_end(text, start + 1)
        tag = text[start + 1 : end]
        if before_ok and tag and not tag.isdigit():
            yield tag
        start = text.find("#", max(end, start + 1))


def _normalise_tags(tags: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({tag.casefold() for tag in tags if tag}))


# --------------------------------------------------------------------------- positions


class _Locator:
    """Maps offsets inside an inline token's content to 1-based (line, col) in the file.

    Newline offsets and line offsets are cached for the current token, so a megabyte-long
    line with thousands of links is located in linear time.
    """

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self._token: Token | None = None
        self._breaks: list[int] = []
        self._offsets: dict[int, int] = {}

    def raw(self, line: int) -> str:
        return self.lines[line] if 0 <= line < len(self.lines) else ""

    def line_offset(self, content_line: str, line: int) -> int:
        """Column (0-based) in the file line where this content line starts."""
        raw = self.raw(line)
        wanted, have = content_line.rstrip(), raw.rstrip()
        if wanted and have.endswith(wanted):
            return len(have) - len(wanted)
        stripped = wanted.lstrip()
        found = raw.find(stripped) if stripped else -1
        return max(0, found - (len(wanted) - len(stripped))) if found >= 0 else 0

    def _select(self, token: Token) -> None:
        if self._token is not token:
            self._token = token
            content = token.content
            self._breaks = (
                [match.start() for match in _NEWLINE.finditer(content)] if "\n" in content else []
            )
            self._offsets = {}

    def locate(self, token: Token, pos: int) -> tuple[int, int]:
        self._select(token)
        content = token.content
        pos = max(0, min(pos, len(content)))
        index = bisect.bisect_left(self._breaks, pos)
        line_start = self._breaks[index - 1] + 1 if index else 0
        line_stop = self._breaks[index] if index < len(self._breaks) else len(content)
        line = (token.map[0] if token.map else 0) + index
        if index not in self._offsets:
            content_line = content[line_start:line_stop]
            self._offsets[index] = self.line_offset(content_line, line)
        return line + 1, self._offsets[index] + (pos - line_start) + 1


# --------------------------------------------------------------------------- body walk


def _split_href(href: str) -> tuple[str, str]:
    target, _, fragment = href.partition("#")
    return unquote(target).strip(), unquote(fragment).strip()


def _plain(children: Sequence[Token]) -> str:
    """Visible text of inline children on one line (emphasis markers dropped)."""
    parts: list[str] = []
    for child in children:
        if child.type == "text":
            parts.append(_EMPHASIS.sub("", child.content))
        elif child.type in ("text_special", "code_inline", "math_inline"):
            parts.append(child.content)
        elif child.type in _BREAKS:
            parts.append(" ")
        elif child.type == "wikilink":
            meta = child.meta
            parts.append(meta["display"] or meta["target"] or meta["subpath"])
    return " ".join("".join(parts).split())


def _first_sentence(text: str) -> str:
    return _SENTENCE_END.split(text, maxsplit=1)[0].strip()


@dataclass(slots=True)
class _Body:
    """Everything collected while walking the token stream."""

    path: str
    locator: _Locator
    links: list[Link] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    block_ids: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    first_heading: str = ""
    first_paragraph: str = ""
    names: dict[str, str] = field(default_factory=dict)  # one str object per distinct name
    # a bulk paragraph's simple wikilinks, by their key: a Link's fields but line and column
    simple: dict[str, _LinkFields] = field(default_factory=dict)
    # a body walked window by window: where its links are packed, whether they were packed in
    # order so far, a bulk link's packed fields by its key, and the bulk paragraphs to scan
    packer: LinkPacker | None = None
    in_order: bool = True
    keys: dict[str, PackedKey] = field(default_factory=dict)
    waiting: list[tuple[int, int]] = field(default_factory=list)  # bulk paragraphs, not scanned

    def share(self, text: str) -> str:
        """``text``, as the one object of its value in this note: a note that links a
        million times to a few names holds a few strings, not a million."""
        return self.names.setdefault(text, text)

    def walk(self, tokens: Sequence[MdToken]) -> None:
        heading_level = 0
        for token in tokens:
            if token.type == "heading_open":
                heading_level = int(token.tag[1:])
            elif token.type == "inline":
                if token.meta and token.meta.get("vk_row"):
                    self.table_row(token)
                else:
                    self.inline(token, heading_level)
                heading_level = 0

    def inline(self, token: Token, heading_level: int) -> None:
        children = token.children or []
        if heading_level:
            line = (token.map[0] if token.map else 0) + 1
            self.headings.append(Heading(token.content.strip(), heading_level, line))
            if not self.first_heading:
                self.first_heading = _plain(children)
        elif not self.first_paragraph:
            self.first_paragraph = _first_sentence(_plain(children))
        for index, child in enumerate(children):
            if child.type in _WATCHED:
                self.child(token, child, children, index)

    def bulk(self, tokens: Sequence[Piece]) -> None:
        """Bulk paragraphs (fastparse's BULK_META), in document order: their links read in one
        regex pass over their lines, what :meth:`inline` finds in the children the inline
        rules make (the first paragraph is walked whole, for its text)."""
        taken = 0
        while taken < len(tokens) and not self.first_paragraph:
            level, full = expanded((0, tokens[taken]))
            self.inline(full, level)
            taken += 1
        if taken == len(tokens):
            return
        spans = [_span(token) for token in tokens[taken:]]
        if self.packer is None:
            self.bulk_links(self.scan(spans))
            return
        if self.links:  # found after the paragraphs waiting: those are packed first
            self.flush()
        self.waiting += spans  # scanned together at the next flush: one scan a window

    def scan(self, spans: list[tuple[int, int]]) -> BulkLinks:
        found = scan_bulk(self.locator.lines, spans)
        if not found.keys:
            raise AssertionError("bulk paragraphs without a simple wikilink")
        return found

    def bulk_links(self, found: BulkLinks) -> None:
        """Add ``found`` as ``Link`` tuples (each distinct link's fields made once a note)."""
        made = self.simple
        for key in set(found.keys).difference(made):
            made[key] = self.bulk_link(key)
        kinds, targets, subpaths, shown, embeds = zip(
            *map(made.__getitem__, found.keys), strict=True
        )
        fields = zip(kinds, targets, subpaths, shown, found.lines, found.cols, embeds, strict=True)
        self.links.extend(map(_new_link, fields))

    def bulk_packed(self, packer: LinkPacker, found: BulkLinks) -> None:
        """Write ``found`` straight into the packer's columns, after the links packed before."""
        keys = self.keys
        for key in set(found.keys).difference(keys):
            keys[key] = packer.key(*self.bulk_link(key))
        last = packer.last()
        before = last is not None and (found.lines[0], found.cols[0]) < last
        self.in_order = self.in_order and found.ordered and not before
        packer.add_keyed(list(map(keys.__getitem__, found.keys)), found.lines, found.cols)

    def flush(self) -> None:
        """Pack what was found since the last flush, in order (a body walked window by window,
        before its lines are let go): the bulk paragraphs waiting, all of them before the
        other links found, then those."""
        if self.packer is None:
            return
        if self.waiting:
            self.bulk_packed(self.packer, self.scan(self.waiting))
            self.waiting.clear()
        if self.links:
            self.in_order = _pack(self.packer, self.links) and self.in_order
            self.links.clear()

    def bulk_link(self, key: str) -> _LinkFields:
        """A simple wikilink's fields (as :meth:`wikilink` makes them), its strings shared:
        ``key`` is its ``bulkscan.BulkLinks`` key (its inner text, after EMBED_KEY)."""
        embed = key.startswith(EMBED_KEY)
        parts = split_wikilink(key[len(EMBED_KEY) :] if embed else key)
        if parts is None:
            raise AssertionError(f"a bulk paragraph's wikilink names nothing: {key}")
        shown = None if parts.display is None else self.share(parts.display)
        kind: LinkKind = "embed" if embed else "wikilink"
        return kind, self.share(parts.target), self.share(parts.subpath), shown, embed

    def table_row(self, token: Token) -> None:
        """A table row line (``vk_row``) is read whole, its ``|`` separating like spaces, so
        cells markdown-it drops keep their links and tags."""
        children = token.children or []
        for index, child in enumerate(children):
            if child.type == "text":
                self.text(child.content.replace("|", " "), children, index)
            elif child.type in _WATCHED:
                self.child(token, child, children, index)
                if child.type == "wikilink":
                    self.split_cell(token, child)

    def text(self, content: str, siblings: Sequence[Token], index: int) -> None:
        """Tags and a block id in a text child."""
        if "#" not in content and "^" not in content:
            return  # neither a tag nor a block id can be in it
        previous = siblings[index - 1].type if index else "softbreak"
        at_boundary = previous in _BREAKS
        if "#" in content:
            self.tags.extend(_tags_in_text(content, at_boundary))
        following = siblings[index + 1].type if index + 1 < len(siblings) else "softbreak"
        if following in _BREAKS and "^" in content:
            self.block_id(content.rstrip(), at_boundary)

    def child(self, token: Token, child: Token, siblings: Sequence[Token], index: int) -> None:
        kind = child.type
        if kind == "text":
            self.text(child.content, siblings, index)
        elif kind == "wikilink":
            self.wikilink(token, child)
        elif kind == "wikilink_error":
            self.malformed(token, child)
        elif kind in ("link_open", "image"):
            self.markdown_link(token, child, siblings, index)

    def block_id(self, text: str, at_boundary: bool) -> None:
        match = _BLOCK_ID.search(text)
        if match is None:
            return
        if match.group(0).startswith("^") and not at_boundary:
            return  # "^id" glued to a code span or link before it is not a block id
        self.block_ids.append(match.group(1))

    def wikilink(self, token: Token, child: Token) -> None:
        meta = child.meta
        line, col = self.locator.locate(token, meta["pos"])
        embed = bool(meta["embed"])
        kind: LinkKind = "embed" if embed else "wikilink"
        display = meta["display"]
        shown = None if display is None else self.share(display)
        target, subpath = self.share(meta["target"]), self.share(meta["subpath"])
        self.links.append(Link(kind, target, subpath, shown, line, col, embed))

    def split_cell(self, token: Token, child: Token) -> None:
        """Warn (VK106) when a wikilink's ``|`` is not escaped in a table row: the link still
        counts, but the pipe splits the cell, so the table renders broken."""
        start = child.meta["pos"]
        opening = start + 1 if child.meta["embed"] else start
        found = scan_wikilink(token.content, opening)
        if found.parts is None:
            return
        bar, escaped = display_bar(token.content[opening + 2 : found.end - 2])
        if bar < 0 or escaped:
            return
        line, col = self.locator.locate(token, start)
        message = "unescaped pipe in table cell splits the cell (write '\\|' inside the wikilink)"
        self.findings.append(_finding(self.path, line, col, "VK106", message))

    def malformed(self, token: Token, child: Token) -> None:
        line, col = self.locator.locate(token, child.meta["pos"])
        if child.meta["reason"] == "nested":
            message = "nested '[[' inside a wikilink"
        else:
            message = "unclosed wikilink ('[[' without ']]' on the same line)"
        self.findings.append(_finding(self.path, line, col, "VK106", message))

    def markdown_link(
        self, token: Token, child: Token, siblings: Sequence[Token], index: int
    ) -> None:
        href = str(child.attrs.get("src" if child.type == "image" else "href", ""))
        if not href or _SCHEME.match(href) or "pos" not in child.meta:
            return
        target, subpath = _split_href(href)
        if not target and not subpath:
            return
        embed = child.type == "image"
        display = child.content if embed else _plain(_link_label(siblings, index))
        line, col = self.locator.locate(token, child.meta["pos"])
        target, subpath, display = self.share(target), self.share(subpath), self.share(display)
        self.links.append(Link("markdown", target, subpath, display, line, col, embed))


def _link_label(siblings: Sequence[Token], index: int) -> list[Token]:
    label: list[Token] = []
    depth = 0
    for child in siblings[index + 1 :]:
        if child.type == "link_open":
            depth += 1
        elif child.type == "link_close":
            if depth == 0:
                break
            depth -= 1
        label.append(child)
    return label


# --------------------------------------------------------------------------- entry point


def _body_source(lines: Sequence[str], skip: int) -> str:
    """The file with its frontmatter lines blanked, so markdown-it line maps match the file."""
    return "\n" * skip + "\n".join(lines[skip:])


def _markdown_it() -> MarkdownIt:
    """The markdown-it parser, imported on the first region the fast path leaves to it: a vault
    the fast path reads whole never loads markdown-it."""
    from vaultkit.vault.wikilink import get_parser

    return get_parser()


def _region_tokens(lines: Sequence[str], low: int, high: int) -> list[MdToken]:
    """markdown-it's tokens for ``lines[low:high]``, their line maps moved to file lines
    (the same tokens as with the lines before ``low`` blanked, without scanning them)."""
    tokens = _markdown_it().parse("\n".join(lines[low:high]), {})
    if low:
        for token in tokens:
            if token.map is not None:
                token.map = [token.map[0] + low, token.map[1] + low]
    return tokens


def _walk_plan(body: _Body, lines: Sequence[str], plan: Sequence[Segment]) -> None:
    """Walk each fast region's blocks and each markdown-it region's tokens, in order."""
    for low, high, blocks in plan:
        if blocks is None:
            body.walk(_region_tokens(lines, low, high))
        else:
            for bulk, run in itertools.groupby(blocks, _is_bulk):
                if bulk:
                    body.bulk([token for _level, token in run])
                    continue
                for level, token in run:
                    if token.meta is ROW_META:
                        body.table_row(token)
                    else:
                        body.inline(token, level)


def _is_bulk(block: tuple[int, Piece]) -> bool:
    return block[1].meta is BULK_META


def _span(token: Piece) -> tuple[int, int]:
    """A fast block's line map (the fast scanner gives every block one)."""
    if token.map is None:
        raise AssertionError(f"a fast block without its lines: {token.content!r}")
    return token.map[0], token.map[1]


def _walk_windows(
    body: _Body, lines: list[str], windowed: Windows, front: list[Link]
) -> PackedLinks:
    """Plan and walk a very long body one window at a time (see ``fastparse.windows``); a
    walked window's lines are let go (each window starts afresh: none is read again) and its
    links are packed (a bulk paragraph's as they are found, never made as tuples), so neither
    the note's lines nor its links as tuples are all held at once. Returns the links of
    ``front`` (the frontmatter's) and the body, in order."""
    packer = body.packer = LinkPacker()
    body.in_order = _pack(packer, front)
    for low, high in itertools.pairwise(windowed.bounds):
        plan = body_plan(lines, low, high, windowed.kinds)
        if plan is None:  # windows() found no reference definition in the whole body
            raise AssertionError("a window of a body without references planned none")
        _walk_plan(body, lines, plan)
        del plan
        body.flush()
        let_go(lines, windowed.kinds, low, high)
    packed = packer.packed()
    # batches each in order and none before the last one: the same as one sort of them all
    return packed if body.in_order else pack_links(sorted(packed, key=lambda x: (x.line, x.col)))


def _pack(packer: LinkPacker, links: list[Link]) -> bool:
    """Add ``links`` to ``packer`` in order; False if they start before its last link."""
    batch = _ordered(links)
    last = packer.last()
    packer.add(batch)
    return not (batch and last and (batch[0].line, batch[0].col) < last)


def _ordered(links: list[Link]) -> list[Link]:
    """``links`` by position. They are found in order nearly always: checked without the
    key tuples a sort would make (a million links' worth of them, in a huge note)."""
    line = col = 0
    for link in links:
        if link.line < line or (link.line == line and link.col < col):
            return sorted(links, key=lambda found: (found.line, found.col))
        line, col = link.line, link.col
    return links


def _parse(path: str, data: bytes, mode: str = "auto") -> Note | None:
    """``mode``: "auto" (fast regions where sure, markdown-it for the rest), "slow"
    (markdown-it and PyYAML only) or "fast" (``None`` unless some region is fast)."""
    decoded = _decode(path, data)
    if decoded.text is None:
        return None if mode == "fast" else Note(path=path, findings=decoded.findings)
    text = decoded.text[1:] if decoded.text.startswith(BOM) else decoded.text
    lines = text.split("\n")
    read_findings = decoded.findings
    del decoded, text  # a huge note: hold its lines, not its text as well
    front = _parse_frontmatter(path, lines, fast=mode != "slow")
    body = _Body(path, _Locator(lines))
    windowed = windows(lines, front.lines) if mode == "auto" else None
    plan = None if mode == "slow" or windowed else body_plan(lines, front.lines)
    links: Sequence[Link] = ()
    if windowed:
        links = _walk_windows(body, lines, windowed, front.links)
    elif plan is None or (len(plan) == 1 and plan[0][2] is None):
        if mode == "fast":
            return None
        body.walk(_markdown_it().parse(_body_source(lines, front.lines), {}))
    else:
        _walk_plan(body, lines, plan)
    if not windowed:
        links = tuple(_ordered([*front.links, *body.links] if front.links else body.links))
    findings = sorted([*read_findings, *front.findings, *body.findings], key=Finding.sort_key)
    return Note(
        path=path,
        frontmatter=front.data,
        links=links,
        headings=tuple(body.headings),
        block_ids=tuple(dict.fromkeys(body.block_ids)),
        tags=_normalise_tags([*_frontmatter_tags(front.data), *body.tags]),
        aliases=_aliases(front.data),
        findings=tuple(findings),
        body_line=front.lines + 1,
        first_text=body.first_heading or body.first_paragraph,
    )


def parse_note(path: str, data: bytes) -> Note:
    """Parse one file's bytes. Never raises: problems become findings on the returned Note."""
    try:
        note = _parse(path, data)
        assert note is not None
        return note
    except (Exception, RecursionError) as exc:  # last resort: report, never crash a vault scan
        message = f"internal parser error ({type(exc).__name__}); please report this file"
        return Note(path=path, findings=(_finding(path, 1, 1, "VK202", message),))


def parse_note_with(path: str, data: bytes, *, fast: bool) -> Note | None:
    """For differential tests: ``fast=True`` gives the hybrid path's Note or ``None`` when it
    takes the whole body to markdown-it; ``fast=False`` gives the markdown-it + PyYAML
    result. May raise."""
    return _parse(path, data, "fast" if fast else "slow")
