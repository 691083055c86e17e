"""Parse a search query (words, ``"phrases"``, ``prefix*``, ``OR``, ``-excluded``) into FTS5.

The user never writes FTS5 syntax: every term is quoted before it reaches SQLite, so a query
can hold any character, and a malformed query (an unclosed quote, nothing but exclusions) is a
:class:`~vaultkit.errors.VaultkitError` that says what to fix, never an FTS5 traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

from vaultkit.errors import VaultkitError
from vaultkit.search.grams import bigrams, cjk_runs, is_cjk


@dataclass(frozen=True, slots=True)
class Columns:
    """The FTS5 columns a term is looked for in: words, CJK bigrams, CJK single characters."""

    words: str
    grams: str
    unigrams: str


DOCS = Columns("{title headings body}", "{gtitle gbody}", "uni")  # the ``docs`` table: all text
HEADS = Columns("{title headings}", "{gtitle}", "utitle")  # the ``heads`` table: titles, headings
HINT = (
    'write words, "a phrase", prefix*, a OR b, -excluded; e.g. vaultkit search "schema migration"'
)


@dataclass(frozen=True, slots=True)
class Term:
    """One query term: its text, and whether it is a phrase, a prefix or excluded."""

    text: str
    phrase: bool = False
    prefix: bool = False
    excluded: bool = False

    def needles(self) -> tuple[str, ...]:
        """Lower-cased pieces to look for in a line when placing a hit (see ``locate``)."""
        words = self.text.split() if not self.phrase else [self.text]
        return tuple(w.lower() for w in words if w)


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: alternatives (joined by OR), each a list of terms (joined by AND)."""

    text: str
    groups: tuple[tuple[Term, ...], ...]

    def match(self) -> str:
        """The FTS5 MATCH expression over the ``docs`` table."""
        return " OR ".join(f"({_group(terms)})" for terms in self.groups)

    def heads_match(self, every: bool = False) -> str:
        """An FTS5 expression over the ``heads`` table matching the documents whose title or
        headings hold a wanted term (``every``: all the wanted terms of an alternative): the
        candidates of a very common query."""
        joiner = " AND " if every else " OR "
        parts = []
        for terms in self.groups:
            wanted = [e for t in terms if not t.excluded and (e := term_expression(t, HEADS))]
            parts.append("(" + joiner.join(wanted) + ")")
        return " OR ".join(parts)

    def has_phrase(self) -> bool:
        """True when matching compares positions: a term of several tokens (a quoted phrase,
        ``foo-bar``) or of two or more CJK characters (the phrase of its bigrams)."""
        return any(_positional(t.text) for terms in self.groups for t in terms)

    def has_prefix(self) -> bool:
        return any(t.prefix for terms in self.groups for t in terms)

    def heads_imply_match(self, every: bool = False) -> bool:
        """True when a document matching :meth:`heads_match` matches the query too: nothing is
        excluded and (unless ``every``) each alternative is one term (what a title holds, the
        document holds)."""
        if any(t.excluded for terms in self.groups for t in terms):
            return False
        return every or all(len(terms) == 1 for terms in self.groups)

    def needles(self) -> tuple[str, ...]:
        return tuple(
            n for terms in self.groups for t in terms if not t.excluded for n in t.needles()
        )


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _latin(text: str, prefix: bool, columns: Columns) -> str:
    return f"{columns.words} : {_quote(text)}" + (" *" if prefix else "")


def _cjk(run: str, columns: Columns) -> str:
    if len(run) == 1:
        return f"{columns.unigrams} : {_quote(run)}"
    return f"{columns.grams} : {_quote(' '.join(bigrams(run)))}"


def _parts(text: str) -> list[tuple[str, bool]]:
    """Split a term into (piece, is_cjk) runs."""
    parts: list[tuple[str, bool]] = []
    for char in text:
        cjk = is_cjk(char)
        if parts and parts[-1][1] == cjk:
            parts[-1] = (parts[-1][0] + char, cjk)
        else:
            parts.append((char, cjk))
    return parts


def _positional(text: str) -> bool:
    text = text.strip()
    return any(not c.isalnum() for c in text) or any(len(run) > 1 for run in cjk_runs(text))


def _has_token(text: str) -> bool:
    return any(c.isalnum() for c in text)


def term_expression(term: Term, columns: Columns = DOCS) -> str | None:
    """The FTS5 expression of one term (None when it holds nothing searchable)."""
    if term.phrase and not any(True for _ in cjk_runs(term.text)):
        return _latin(term.text, term.prefix, columns) if _has_token(term.text) else None
    pieces: list[str] = []
    for word in term.text.split():
        for piece, cjk in _parts(word):
            if cjk:
                pieces.append(_cjk(piece, columns))
            elif _has_token(piece):
                pieces.append(_latin(piece, term.prefix, columns))
    if not pieces:
        return None
    return pieces[0] if len(pieces) == 1 else "(" + " AND ".join(pieces) + ")"


def _group(terms: tuple[Term, ...]) -> str:
    wanted = [e for t in terms if not t.excluded and (e := term_expression(t))]
    unwanted = [e for t in terms if t.excluded and (e := term_expression(t))]
    expression = " AND ".join(wanted)
    for item in unwanted:
        expression = f"{expression} NOT {item}"
    return expression


def _tokens(text: str) -> list[tuple[str, bool, bool, bool]]:
    """(text, quoted, excluded, prefix) tokens; raises on an unclosed quote."""
    tokens: list[tuple[str, bool, bool, bool]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        excluded = text[i] == "-" and i + 1 < n and not text[i + 1].isspace()
        start = i + 1 if excluded else i
        if start < n and text[start] == '"':
            end = text.find('"', start + 1)
            if end < 0:
                raise VaultkitError(f"search query {text!r}: unclosed quote", hint=HINT)
            prefix = end + 1 < n and text[end + 1] == "*"
            tokens.append((text[start + 1 : end], True, excluded, prefix))
            i = end + 2 if prefix else end + 1
            continue
        end = start
        while end < n and not text[end].isspace():
            end += 1
        word = text[start:end]
        tokens.append((word.rstrip("*"), False, excluded, word.endswith("*")))
        i = end
    return tokens


# Control characters never reach SQLite: FTS5 reads a NUL as the end of the query string.
_CONTROLS = dict.fromkeys((*range(32), 127), " ")


def parse_query(text: str) -> Query:
    """Parse ``text``; raises :class:`VaultkitError` for an empty or malformed query."""
    groups: list[list[Term]] = [[]]
    for raw, quoted, excluded, prefix in _tokens(text.translate(_CONTROLS)):
        if raw == "OR" and not (quoted or excluded or prefix):
            groups.append([])
            continue
        groups[-1].append(Term(raw.strip(), phrase=quoted, prefix=prefix, excluded=excluded))
    for terms in groups:
        if not any(not t.excluded and term_expression(t) for t in terms):
            what = "nothing to search for" if len(groups) == 1 else "an OR side with no term"
            if terms and all(t.excluded for t in terms):
                what += " (only excluded words: -word leaves out notes that hold it)"
                hint = f"add a word to find: vaultkit search -- 'WORD -{terms[0].text}'"
                raise VaultkitError(f"search query {text!r}: {what}", hint=hint)
            raise VaultkitError(f"search query {text!r}: {what}", hint=HINT)
    return Query(text, tuple(tuple(g) for g in groups))
