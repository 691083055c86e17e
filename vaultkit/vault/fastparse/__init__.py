"""Exact fast path for plain notes: the tokens vaultkit reads from markdown-it, or None if unsure.

:func:`inline_blocks` reproduces, for a subset of Markdown, the ``inline`` tokens (and their
children) that the markdown-it parser of :mod:`vaultkit.vault.wikilink` produces: ATX headings,
paragraphs (their first line may be indented up to three spaces), thematic breaks,
``-``/``*``/``+`` bullet and ``1.``/``1)`` ordered lists (one space after each marker; items
nested at most three columns past their parent's content column and at most
``MAX_LIST_DEPTH`` deep, indented with spaces or tabs, and later paragraphs of an item:
:func:`.lists.list_blocks`), fenced code, column-0 ``$$`` math blocks, HTML comments and
block-tag HTML blocks (skipped: the walk reads nothing of them), column-0 GFM tables whose rows
start with ``|`` or are paragraph lines (one ``vk_row`` token a row line, as
wikilink.table_rule makes), blockquotes and callouts whose ``>`` lines hold any of these blocks
(nested quotes too, lazy lines that continue a paragraph: :func:`.quotes.quote_blocks`),
one-line footnote definitions, and inline code spans, escapes, wikilinks, embeds, simple
``[text](dest)`` and ``[text](<dest>)`` links and images, open and closing HTML tags, a literal
``<`` (Templater's ``<% ... %>``), inline ``$math$`` and ``%%comments%%`` (including a
paragraph extended over the lines of a comment it leaves open).
Anything outside that subset (indented code, other HTML, other tables, setext headings, blocks
other than paragraphs inside list items, other lazy continuation lines, indented ``$$`` math
blocks, link reference definitions, autolinks, malformed wikilinks, unusual links...) makes
it return ``None``, and the caller uses markdown-it. :func:`simple_yaml` does the same for
frontmatter made only of plain ``key: value`` strings, dates and lists of them.

Each module mirrors the markdown-it-py (or PyYAML) rules named in its docstring, one to one:
``blocks`` (paragraph, heading, fence, hr), ``tables``, ``html`` (html_block, math blocks),
``quotes`` (blockquote), ``lists`` (list, footnotes), ``scan`` (the block tokenizer loop),
``inline`` (the inline rules), ``links`` (link, image), ``frontmatter`` (PyYAML's loader);
``plan`` cuts a body into fast and markdown-it regions, ``tokens`` holds what they share.
Link syntax itself is scanned in :mod:`vaultkit.vault.wikisyntax`, shared with markdown-it's
rules. tests/vault/test_fastparse.py proves the results equal on generated vaults, the fixtures
and Hypothesis grammars of nasty variants.
"""

from __future__ import annotations

from vaultkit.vault.fastparse.blocks import block_kinds, body_end, classify
from vaultkit.vault.fastparse.frontmatter import simple_yaml
from vaultkit.vault.fastparse.html import HTML_BLOCK_NAMES, TAG
from vaultkit.vault.fastparse.inline import inline_children
from vaultkit.vault.fastparse.lists import MAX_LIST_DEPTH
from vaultkit.vault.fastparse.plan import Segment, Windows, body_plan, cuts, let_go, windows
from vaultkit.vault.fastparse.scan import expanded, inline_blocks, is_bulk, scan_blocks
from vaultkit.vault.fastparse.tables import ROW_META, escaped_split
from vaultkit.vault.fastparse.tokens import BULK_META, ESCAPABLE, TEXT, InlineBlock, Piece

__all__ = [
    "BULK_META",
    "ESCAPABLE",
    "HTML_BLOCK_NAMES",
    "MAX_LIST_DEPTH",
    "ROW_META",
    "TAG",
    "TEXT",
    "InlineBlock",
    "Piece",
    "Segment",
    "Windows",
    "block_kinds",
    "body_end",
    "body_plan",
    "classify",
    "cuts",
    "escaped_split",
    "expanded",
    "inline_blocks",
    "inline_children",
    "is_bulk",
    "let_go",
    "scan_blocks",
    "simple_yaml",
    "windows",
]
