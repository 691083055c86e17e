"""markdown-it-py rules for Obsidian syntax: wikilinks, embeds, ``%%comments%%``, tables, math
and footnotes, as Obsidian's link index reads them.

Tokens this module adds to an inline token's children (all positions are offsets into the
inline token's ``content``, stored in ``token.meta["pos"]``):

- ``wikilink``: ``meta`` has ``target``, ``subpath``, ``display`` (``None`` without ``|``),
  ``embed`` and ``pos`` (the ``!`` of an embed or the first ``[``).
- ``wikilink_error``: a malformed ``[[``; ``meta["reason"]`` is ``"unclosed"`` or ``"nested"``.
- ``vk_comment``: an inline ``%%comment%%`` (its text is dropped).
- ``math_inline``: ``$…$`` or ``$$…$$`` (its ``content`` is the source, never scanned).

In a GFM table, the cells' ``inline`` tokens become ``vk_cell`` ones (never inline-parsed)
and each row line gets an ``inline`` token of its own, ``meta["vk_row"]``, holding the whole
line (a row that leaves a ``%%`` comment open holds every line to the closing ``%%``, past
the table if need be, as a paragraph does): Obsidian finds links before a row is split into
cells, so ``[[Note|alias]]`` with an unescaped pipe, cells beyond the header's count (which
markdown-it drops) and lines glued under the table all keep their links, and their tags.

A ``$$`` math block becomes a ``math_block`` token (see :func:`math_block_rule`), and a
footnote definition (``[^1]: text``) a container whose links count, never a link reference
definition, so ``[^1]`` is never a link (see :func:`footnote_rule`).

``link_open`` and ``image`` tokens also get ``meta["pos"]``. A paragraph that opens a ``%%``
comment without closing it is extended over the following lines (blank lines included) until
the closing ``%%``, so nothing inside a block comment becomes a link and line maps stay right.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block import lheading as _md_lheading
from markdown_it.rules_block import paragraph as _md_paragraph
from markdown_it.rules_block import table as _md_table
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline import image as _md_image
from markdown_it.rules_inline import link as _md_link

from vaultkit.vault.wikisyntax import (
    COMMENT,
    FOOTNOTE,
    MATH,
    Finder,
    MathScan,
    WikiParts,
    comment_left_open,
    md_trim,
    scan_wikilink,
    split_wikilink,
    wikilink_meta,
)

__all__ = [
    "BLOCK_RULES",
    "INLINE_RULES",
    "WikiParts",
    "comment_left_open",
    "get_parser",
    "link_href",
    "make_parser",
    "md_trim",
    "split_wikilink",
]

BLOCK_RULES = (
    "code",
    "fence",
    "blockquote",
    "hr",
    "list",
    "heading",
    "lheading",
    "html_block",
    "table",
    "paragraph",
    "reference",
)
INLINE_RULES = (
    "text",
    "newline",
    "escape",
    "backticks",
    "link",
    "image",
    "autolink",
    "html_inline",
)
_SCAN_KEY = "vaultkit_wikilink_scan"
_PLAIN_RUN = re.compile(r"[^\n!\[\]\\`<%$]+")
_BRACKET_RUN = re.compile(r"[!\[]+")

InlineRule = Callable[[StateInline, bool], bool]


@dataclass(slots=True)
class _Scan:
    """Finders for ``[[``, ``]]`` and newlines in one inline source, plus reported lines."""

    src: str
    opens: Finder
    closes: Finder
    newlines: Finder
    brackets: Finder
    reported: set[int] = field(default_factory=set)
    math: MathScan | None = None

    @classmethod
    def build(cls, src: str) -> _Scan:
        return cls(src, Finder(src, "[["), Finder(src, "]]"), Finder(src, "\n"), Finder(src, "]"))

    def line_end(self, pos: int) -> int:
        found = self.newlines.at(pos)
        return len(self.src) if found < 0 else found

    def next_open(self, pos: int) -> int:
        return self.opens.at(pos)

    def next_close(self, pos: int) -> int:
        return self.closes.at(pos)

    def next_bracket(self, pos: int) -> int:
        return self.brackets.at(pos)


def _scan_for(state: StateInline) -> _Scan:
    cached = state.env.get(_SCAN_KEY)
    if isinstance(cached, _Scan) and cached.src is state.src:
        return cached
    scan = _Scan.build(state.src)
    state.env[_SCAN_KEY] = scan
    return scan


def _push_meta(state: StateInline, kind: str, meta: dict[str, Any]) -> None:
    token = state.push(kind, "", 0)
    token.meta = meta


def _push_text(state: StateInline, text: str) -> None:
    """Emit literal text as its own token (appending to ``pending`` is quadratic on long lines)."""
    token = state.push("text", "", 0)
    token.content = text


def _unclosed(state: StateInline, scan: _Scan, start: int, line_end: int, silent: bool) -> bool:
    """Report an unclosed ``[[`` once per line and skip its run of brackets as literal text.

    When a ``]`` follows somewhere, the run's last ``[`` is left for the ``link`` rule
    (``[[x](y.md)`` still links); otherwise no link can start in the run at all.
    """
    src = state.src
    run_end = _BRACKET_RUN.match(src, start, state.posMax)
    end = run_end.end() if run_end else start + 1
    if 0 <= scan.next_bracket(end) < state.posMax:
        end = max(start + 1, src.rfind("[", start, end))
    if not silent:
        if line_end not in scan.reported:
            scan.reported.add(line_end)
            _push_meta(state, "wikilink_error", {"reason": "unclosed", "pos": start})
        _push_text(state, src[start:end])
    state.pos = end
    return True


def _markdown_link_at(state: StateInline, at: int) -> bool:
    """Whether markdown-it's ``link`` (or ``image``, at a ``!``) rule matches at ``at``: a
    ``[[`` with no ``]]`` on its line that starts such a link is no malformed wikilink."""
    saved = state.pos
    state.pos = at
    try:
        rule = _md_image if state.src.startswith("!", at) else _md_link
        return bool(rule(state, True))
    finally:
        state.pos = saved


def wikilink_rule(state: StateInline, silent: bool) -> bool:
    """Inline rule for ``[[...]]`` and ``![[...]]`` (registered before ``link``), through the
    shared scanner (:func:`vaultkit.vault.wikisyntax.scan_wikilink`)."""
    src, pos = state.src, state.pos
    embed = src.startswith("![[", pos)
    if not embed and not src.startswith("[[", pos):
        return False
    scan = _scan_for(state)
    line_end = scan.line_end(pos)
    opening = pos + 1 if embed else pos
    found = scan_wikilink(src, opening, line_end, scan.next_close, scan.next_open)
    nested = found.status == "nested"
    if found.status == "unclosed" or (nested and not 0 <= found.end <= state.posMax):
        if 0 <= scan.next_bracket(opening + 2) < state.posMax:
            for at in (pos, opening + 1):  # `[[x] y](z)`, `[[x](z)`: a bracket, then a link
                if _markdown_link_at(state, at):
                    if at > pos and not silent:
                        _push_text(state, src[pos:at])
                    state.pos = at
                    return at > pos
        return _unclosed(state, scan, pos, line_end, silent)
    if found.status == "empty" or found.end > state.posMax:
        return False
    if not silent:
        if found.parts is None:  # nested
            _push_meta(state, "wikilink_error", {"reason": "nested", "pos": pos})
            _push_text(state, src[pos : found.end])
        else:
            _push_meta(state, "wikilink", wikilink_meta(found.parts, embed, pos))
    state.pos = found.end
    return True


def comment_rule(state: StateInline, silent: bool) -> bool:
    """Inline rule for ``%%hidden%%``; an unclosed ``%%`` hides the rest of the block.

    Back-to-back comments become one token, so a line of ``%%%%…`` stays linear.
    """
    src, pos = state.src, state.pos
    if not src.startswith(COMMENT, pos):
        return False
    end = pos
    while end < state.posMax and src.startswith(COMMENT, end):
        close = src.find(COMMENT, end + 2, state.posMax)
        end = state.posMax if close < 0 else close + 2
    if not silent:
        _push_meta(state, "vk_comment", {"pos": pos})
    state.pos = end
    return True


def math_rule(state: StateInline, silent: bool) -> bool:
    """Inline rule for ``$math$`` and ``$$math$$`` (:class:`MathScan`): a ``math_inline``
    token whose content (the source, dollars included) is never scanned for links."""
    if state.src[state.pos] != "$":
        return False
    scan = _scan_for(state)
    if scan.math is None:
        scan.math = MathScan.build(state.src)
    end = scan.math.end(state.pos)
    if end < 0 or end > state.posMax:
        return False
    if not silent:
        token = state.push("math_inline", "", 0)
        token.content = state.src[state.pos : end]
    state.pos = end
    return True


def text_rule(state: StateInline, silent: bool) -> bool:
    """Consume a run of characters that start none of the enabled inline rules.

    markdown-it's own ``text`` rule also stops at ``*``, ``_``, ``#``, ``:`` and others that
    only the disabled rules (emphasis, entities, linkify…) care about; skipping them is a
    measurable part of the lean parser's speed.
    """
    match = _PLAIN_RUN.match(state.src, state.pos, state.posMax)
    if match is None:
        return False
    if not silent:
        state.pending += match.group()
    state.pos = match.end()
    return True


def with_position(rule: InlineRule, kind: str) -> InlineRule:
    """Wrap markdown-it's ``link``/``image`` rule so the token records where it started."""

    def positioned(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        if not silent:
            for token in state.tokens[count:]:
                if token.type == kind:
                    token.meta["pos"] = start
                    break
        return True

    return positioned


def _line_text(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _next_comment_line(state: StateBlock, first: int) -> tuple[int, str]:
    """The first line from ``first`` containing ``%%`` and its text, or ``(end, "")``.

    ``end`` is the end of the container: ``lineMax``, or the first non-blank line indented
    less than the container (where a list item ends).
    """
    for line in range(first, state.lineMax):
        text = _line_text(state, line)
        if text and state.sCount[line] < state.blkIndent:
            return line, ""
        if COMMENT in text:
            return line, text
    return state.lineMax, ""


def _comment_end(state: StateBlock, first: int) -> int:
    """The line after the one that closes a ``%%`` comment left open before line ``first``
    (the container's end when none does). Each line flips the open/closed state by its own
    ``%%`` count, so this costs linear time however many lines the comment spans."""
    last = first
    left_open = True
    while left_open and last < state.lineMax:
        line, text = _next_comment_line(state, last)
        if not text:
            return line
        last = line + 1
        left_open = comment_left_open(text) != left_open
    return last


def paragraph_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's paragraph, extended over the lines of a ``%%`` comment it leaves open."""
    if not _md_paragraph(state, start_line, end_line, silent):
        return False
    inline = state.tokens[-2]
    if inline.type != "inline" or not comment_left_open(inline.content):
        return True
    last = _comment_end(state, state.line)
    content = state.getLines(start_line, last, state.blkIndent, False).strip()
    state.line = last
    inline.content = content
    inline.map = [start_line, last]
    state.tokens[-3].map = [start_line, last]
    return True


def lheading_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's setext heading, unless its text opens a ``%%`` comment.

    ``%%`` / ``notes`` / ``---`` is the start of a block comment, not a heading: the tokens
    are taken back and the paragraph rule extends the comment over the ``---`` line.
    """
    count = len(state.tokens)
    if not _md_lheading(state, start_line, end_line, silent):
        return False
    inline = state.tokens[count + 1] if len(state.tokens) > count + 1 else None
    if inline is None or not comment_left_open(inline.content):
        return True
    del state.tokens[count:]
    state.line = start_line
    return False


def table_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's GFM table, plus one ``vk_row`` inline token per row line (see above)."""
    count = len(state.tokens)
    if not _md_table(state, start_line, end_line, silent):
        return False
    if silent:
        return True
    for token in state.tokens[count:]:
        if token.type == "inline":
            token.type = "vk_cell"  # not inline-parsed: the row token holds its text
    close = state.tokens.pop()
    line, table_end = start_line, state.line
    while line < table_end:
        if line == start_line + 1:
            line += 1
            continue  # the delimiter row
        row = state.push("inline", "", 0)
        row.content, after = md_trim(_line_text(state, line)), line + 1
        if comment_left_open(row.content):  # the comment runs on to its closing "%%"
            after = _comment_end(state, after)
            row.content = md_trim(state.getLines(line, after, state.blkIndent, False))
        row.map = [line, after]
        row.meta["vk_row"] = True
        line = after
    state.line = max(table_end, line)  # a comment left open may run past the table
    state.tokens.append(close)
    return True


def footnote_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A footnote definition ``[^label]: text``, never a link reference definition.

    It is a container, like a list item whose content is indented four columns more than the
    definition (a lazy line continues its paragraph), so the links inside it count. Its tokens
    are ``footnote_open`` (``meta["label"]``), the content's blocks and ``footnote_close``.
    """
    if state.is_code_block(start_line):
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    match = FOOTNOTE.match(state.src, start, state.eMarks[start_line])
    if match is None:
        return False
    if silent:
        return True
    pos = match.end()
    while pos < state.eMarks[start_line] and state.src[pos] in " \t":
        pos += 1
    saved = (
        state.bMarks[start_line],
        state.tShift[start_line],
        state.sCount[start_line],
        state.blkIndent,
    )
    parent = state.parentType
    opening = state.push("footnote_open", "", 1)
    opening.meta = {"label": match.group(1)}
    opening.map = [start_line, start_line + 1]
    state.blkIndent += 4
    state.parentType = "footnote"
    # The first line starts at the text: getLines would otherwise take the label's first
    # four characters for the content's indentation and keep the rest ("te]: x" of "[^note]: x").
    state.bMarks[start_line], state.tShift[start_line] = pos, 0
    state.sCount[start_line] = state.blkIndent
    state.md.block.tokenize(state, start_line, end_line)
    state.bMarks[start_line], state.tShift[start_line], state.sCount[start_line] = saved[:3]
    state.blkIndent = saved[3]
    state.parentType = parent
    state.push("footnote_close", "", -1)
    opening.map = [start_line, max(state.line, start_line + 1)]
    return True


def _closing_math_line(state: StateBlock, start_line: int, end_line: int) -> int:
    """The line after the ``$$`` that closes a block opened at ``start_line``; -1 if none
    does inside the container (a non-blank line indented less than it ends the search)."""
    first = _line_text(state, start_line)
    if MATH in first[2:]:
        return start_line + 1 if not first[2:].split(MATH, 1)[1].strip() else -1
    if _lazy_quote_line(state, start_line):
        end_line = _quote_lines_end(state, start_line + 1, end_line)
    for line in range(start_line + 1, end_line):
        text = _line_text(state, line)
        if text and state.sCount[line] < state.blkIndent:
            return -1
        if MATH in text:
            return line + 1
    return -1


def _raw_line(state: StateBlock, line: int) -> str:
    """The whole source line, with the ``>`` markers a blockquote's content skips."""
    start = state.src.rfind("\n", 0, state.bMarks[line]) + 1
    return state.src[start : state.eMarks[line]]


def _lazy_quote_line(state: StateBlock, line: int) -> bool:
    """True while blockquote's rule asks whether ``line`` (no ``>``) ends the quote or is a
    lazy continuation line: not yet marked lazy (``sCount`` -1), and no ``>`` on it."""
    return (
        state.parentType == "blockquote"
        and state.sCount[line] >= 0
        and not _raw_line(state, line).lstrip().startswith(">")
    )


def _quote_lines_end(state: StateBlock, start: int, end_line: int) -> int:
    """The first line from ``start`` that is no ``>`` line. A ``$$`` on a quote's lazy line
    would open its math block inside the quote (CommonMark's laziness: the line is lazy
    unless, inside the quote, it would start a block), so only the quote's own ``>`` lines
    may close it: a ``$$`` further down the note does not (issue 23)."""
    line = start
    while line < end_line and _raw_line(state, line).lstrip().startswith(">"):
        line += 1
    return line


def math_block_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A ``$$`` math block (it may span blank lines; closed by the next line holding ``$$``):
    a ``math_block`` token, never scanned for links. An unclosed ``$$`` opens no block."""
    if state.is_code_block(start_line) or not _line_text(state, start_line).startswith(MATH):
        return False
    after = _closing_math_line(state, start_line, end_line)
    if after < 0:
        return False
    if not silent:
        token = state.push("math_block", "math", 0)
        token.content = state.getLines(start_line, after, state.blkIndent, True)
        token.map = [start_line, after]
    state.line = after
    return True


def make_parser() -> MarkdownIt:
    """A new lean parser: the "zero" preset plus only the rules vaultkit needs, plus ours.

    ``text_join`` stays off so escapes remain ``text_special`` tokens (``\\#x`` is no tag).
    """
    md = MarkdownIt("zero", {"html": True})
    md.enable(list(BLOCK_RULES))
    md.enable(list(INLINE_RULES))
    md.disable("text_join")
    md.block.ruler.at("paragraph", paragraph_rule)
    md.block.ruler.at("lheading", lheading_rule)
    md.block.ruler.at("table", table_rule)
    md.block.ruler.before(
        "fence",
        "vk_math",
        math_block_rule,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.block.ruler.before(
        "reference", "vk_footnote", footnote_rule, {"alt": ["paragraph", "reference"]}
    )
    md.inline.ruler.at("text", text_rule)
    md.inline.ruler.at("link", with_position(_md_link, "link_open"))
    md.inline.ruler.at("image", with_position(_md_image, "image"))
    md.inline.ruler.before("link", "wikilink", wikilink_rule)
    md.inline.ruler.before("link", "vk_comment", comment_rule)
    md.inline.ruler.before("link", "vk_math", math_rule)
    return md


_PARSER: MarkdownIt | None = None


def link_href(destination: str) -> str | None:
    """The ``href`` markdown-it gives a plain link destination, or ``None`` if it refuses it."""
    md = get_parser()
    href = md.normalizeLink(unescapeAll(destination))
    return href if md.validateLink(href) else None


def get_parser() -> MarkdownIt:
    """The process-wide parser, built on first use (do not mutate it)."""
    global _PARSER
    if _PARSER is None:
        _PARSER = make_parser()
    return _PARSER
