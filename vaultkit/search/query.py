"""Parse a search query (words, ``"phrases"``, ``prefix*``, ``OR``, ``-excluded``) into FTS5.

A plain word is looked for by its content (:mod:`vaultkit.search.words`): stop words are left
out (unless the query holds nothing else), an English word is found in any of its forms (its
stem as a prefix), and a Chinese or Japanese run loses its question words and particles. The
strict expression (:meth:`Query.match`) wants every content word; the loose units
(:meth:`Query.units`) are each content word alone, so a question whose words no single note
holds still finds the notes that hold most of them (:mod:`vaultkit.search.find`).

The user never writes FTS5 syntax: every term is quoted before it reaches SQLite, so a query
can hold any character, and a malformed query (an unclosed quote, nothing but exclusions) is a
:class:`~vaultkit.errors.VaultkitError` that says what to fix, never an FTS5 traceback.
"""

from __future__ import annotations

import string

from vaultkit.base.record import Record
from vaultkit.errors import VaultkitError
from vaultkit.search.grams import bigrams, cjk_runs, is_cjk
from vaultkit.search.words import (
    cjk_pieces,
    hangul_code,
    is_helping_verb,
    is_particle,
    is_stop_word,
    katakana,
    korean_stem,
    stem_prefix,
)


class Columns(Record):
    """The FTS5 columns a term is looked for in: words, CJK bigrams, CJK single characters."""

    words: str
    grams: str
    unigrams: str


# the ``docs`` table: all text; the ``heads`` table: titles, headings, aliases and tags
DOCS = Columns("{title headings aliases description body}", "{gtitle gbody}", "uni")
HEADS = Columns("{title headings aliases}", "{gtitle}", "utitle")
HINT = (
    'write words, "a phrase", prefix*, a OR b, -excluded; e.g. vaultkit search "schema migration"'
)


class Term(Record):
    """One query term: its text, and whether it is a phrase, a prefix or excluded."""

    text: str
    phrase: bool = False
    prefix: bool = False
    excluded: bool = False
    literal: bool = False  # every word as written: no stop words left out, no stems
    helping: bool = False  # an auxiliary verb after the verb it helps (보여 주는): grammar

    @property
    def plain(self) -> bool:
        """True when the term is read for its content (see the module docstring)."""
        return not (self.phrase or self.prefix or self.literal)

    def needles(self) -> tuple[str, ...]:
        """Lower-cased pieces to look for in a line when placing a hit (see ``locate``)."""
        if not self.plain:
            words = self.text.split() if not self.phrase else [self.text]
            return tuple(w.lower() for w in words if w)
        found: list[str] = []
        if self.helping:
            return ()
        for piece, cjk in _content_pieces(self.text):
            if cjk:
                found.extend(korean_stem(p) for p in cjk_pieces(piece))
            elif _has_token(core := _core(piece)) and not is_stop_word(core):
                found.append(stem_prefix(core))
        return tuple(found)


class Unit(Record):
    """One content word of a query on its own: its FTS5 expressions over ``docs`` and
    ``heads``, its weight in a document's coverage, and the word as shown to the user."""

    docs: str
    heads: str
    weight: float
    word: str
    extra: bool = False  # beside the word itself: a bigram of a long Korean word or of a
    # Katakana word, or the attributive form of a Korean verb or adjective stem
    run: str = ""  # for a bigram of a Chinese or Japanese piece (a Katakana word): the piece
    stem: str = ""  # for a unit of a Korean word: the docs expression of the word's stem, no
    # rarer than which the unit counts (see loose.rarities)


class Query(Record):
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
        """True when a term stands for many words: ``prefix*`` or a stemmed word."""
        return "*" in self.match()

    def units(self) -> tuple[Unit, ...]:
        """The loose units of a one-alternative query: each content word, a Korean word
        without its ending, a long Chinese or Japanese piece as its bigrams (half a word
        each). Empty for a query of several alternatives (``OR``): those mean what they say."""
        if len(self.groups) != 1:
            return ()
        found: dict[str, Unit] = {}
        for term in self.groups[0]:
            if not term.excluded:
                for unit in _units(term):
                    found.setdefault(unit.docs, unit)
        units = tuple(found.values())
        if sum(not u.extra for u in units) > 1:
            return units
        # one word: its bigrams would find notes that do not hold it (a CJK query of one
        # word matches where it is a substring, and nowhere else)
        return tuple(u for u in units if not u.extra)

    def loose_match(self, heads: bool = False) -> str:
        """An FTS5 expression matching the documents that hold any unit (and no excluded
        term), over the ``docs`` table or (``heads``) the ``heads`` table."""
        units = [u.heads if heads else u.docs for u in self.units()]
        expression = "(" + " OR ".join(units) + ")"
        for term in self.groups[0]:
            if term.excluded and (item := term_expression(term, HEADS if heads else DOCS)):
                expression = f"{expression} NOT {item}"
        return expression

    def left_out(self) -> tuple[str, ...]:
        """The words of the query that were not searched for (stop words)."""
        out: list[str] = []
        for terms in self.groups:
            for term in terms:
                if term.plain and not term.excluded:
                    words = [term.text] if term.helping else _stop_words(term.text)
                    out.extend(w for w in words if w not in out)
        return tuple(out)

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
    """A Latin word in the word columns, or where it is glued to CJK text (``CSS는``: kept
    in the unigram column, see :func:`vaultkit.search.grams.glued_words`)."""
    word = _quote(text) + (" *" if prefix else "")
    return f"({columns.words} : {word} OR {columns.unigrams} : {word})"


def _cjk(run: str, columns: Columns) -> str:
    if len(run) == 1:
        return f"{columns.unigrams} : {_quote(run)}"
    return f"{columns.grams} : {_quote(' '.join(bigrams(run)))}"


_EDGES = string.punctuation + "¿¡"
PREFIX_MIN = 4  # an English word this long is looked for as a prefix even when it is its stem


def _core(piece: str) -> str:
    """A Latin piece without the punctuation around it (``collapsible?`` -> ``collapsible``)."""
    return piece.strip(_EDGES)


def _pieces(text: str) -> list[tuple[str, bool]]:
    return [part for word in text.split() for part in _parts(word)]


def _content_pieces(text: str) -> list[tuple[str, bool]]:
    """The pieces of a plain term, without a Korean particle glued to a Latin word
    (``CSS는``, ``Evernote에서``: the particle alone would be searched for)."""
    found: list[tuple[str, bool]] = []
    for word in text.split():
        parts = _parts(word)
        found.extend(p for i, p in enumerate(parts) if not (i and p[1] and is_particle(p[0])))
    return found


def _stop_words(text: str) -> list[str]:
    out: list[str] = []
    for piece, cjk in _pieces(text):
        core = piece if cjk else _core(piece)
        if core and is_stop_word(core):
            out.append(core.lower() if not cjk else core)
    return out


def _word_expression(core: str, columns: Columns) -> str:
    """A content word: its stem as a prefix (when stemming shortens it, or the word is long
    enough for its other forms to start with it), else the word."""
    stem = stem_prefix(core)
    if stem != core.lower() or (len(stem) >= PREFIX_MIN and stem.isascii() and stem.isalpha()):
        return _latin(stem, True, columns)  # shortcut finds shortcuts, collaps* collapsed
    return _latin(core, False, columns)


def _units(term: Term) -> list[Unit]:
    if not term.plain:
        expression = term_expression(term)
        heads = term_expression(term, HEADS)
        return [Unit(expression, heads or "", 1.0, term.text)] if expression else []
    units: list[Unit] = []
    if term.helping:
        return units
    for piece, cjk in _content_pieces(term.text):
        if not cjk:
            core = _core(piece)
            if _has_token(core) and not is_stop_word(core):
                units.append(
                    Unit(_word_expression(core, DOCS), _word_expression(core, HEADS), 1.0, core)
                )
            continue
        for sub in cjk_pieces(piece):
            units.extend(_cjk_units(sub))
    return units


# the weight of each bigram of a long Korean word in coverage: a quarter word, since each
# counts no rarer than the word's stem, as the whole word does (see Unit.stem), so at half a
# word a three-syllable word would weigh twice a two-syllable one
KOREAN_GRAM = 0.25
KOREAN_FORM = 0.5  # the weight of the attributive form of a Korean verb or adjective stem
# the weight of one Han or kana character left alone in a Chinese or Japanese run (新 of 新しい,
# 作 of 作る): it is found wherever a word holds it (更新, 作成), so it says half a word; a
# one-syllable Korean word (창, 앱) stands between spaces and is a word
LONE_CHAR = 0.5
# endings cut off a verb or adjective stem (not a noun's particles): 빠르게, 만들려면, 저장해서
VERB_ENDINGS = frozenset(
    ["게", "면", "으면", "려면", "으려면", "려고", "고", "기", "해서", "어서", "아서"]
)


def _cjk_units(piece: str) -> list[Unit]:
    stem = korean_stem(piece)
    if len(stem) >= 3 and _syllables(stem):
        # a long Korean word is often a compound or keeps an ending the list lacks
        # (슬라이드쇼로 -> 슬라이드쇼, where the note says 슬라이드): its bigrams count too,
        # in a query of several words (see Query.units)
        head = _head(stem)
        whole = Unit(_cjk(stem, DOCS), _cjk(stem, HEADS), 1.0, stem, stem=head)
        grams = [
            Unit(_cjk(g, DOCS), _cjk(g, HEADS), KOREAN_GRAM, g, True, stem=head)
            for g in bigrams(stem)
        ]
        return [whole, *grams]
    if stem != piece or len(piece) <= 2 or not any(is_cjk(c) for c in piece[:1]):
        weight = LONE_CHAR if len(stem) == 1 and not _syllables(stem) else 1.0
        whole = Unit(_cjk(stem, DOCS), _cjk(stem, HEADS), weight, stem)
        return [whole, *_attributive(stem, piece[len(stem) :])]
    if _syllables(piece):  # a Korean word: whole
        return [Unit(_cjk(piece, DOCS), _cjk(piece, HEADS), 1.0, piece)]
    return _gram_units(piece)


def _gram_units(piece: str) -> list[Unit]:
    """A Chinese or Japanese piece of three or more characters: a Katakana (loan)word whole,
    its bigrams sharing one word's weight beside it (キーボードショートカット finds a note
    that says ショートカット); any other piece as its bigrams, half a word each. In both, a
    bigram across a word boundary is left out by its rarity (:func:`loose.rarities`)."""
    pairs = bigrams(piece)
    if all(katakana(c) for c in piece):
        whole = Unit(_cjk(piece, DOCS), _cjk(piece, HEADS), 1.0, piece)
        share = 1.0 / len(pairs)
        grams = [Unit(_cjk(g, DOCS), _cjk(g, HEADS), share, g, True, piece) for g in pairs]
        return [whole, *grams]
    return [Unit(_cjk(g, DOCS), _cjk(g, HEADS), 0.5, g, run=piece) for g in pairs]


def _syllables(text: str) -> bool:
    """True when ``text`` is all Hangul syllables (a Korean word)."""
    return all("\uac00" <= c <= "\ud7af" for c in text)


def _attributive(stem: str, ending: str) -> list[Unit]:
    """When ``ending`` (cut off a Korean word) follows a verb or adjective and ``stem`` ends
    in an open syllable, the stem's attributive form as an extra unit: 빠르게 is cut to 빠르,
    where a note says 빠른 (the same syllable with the final ㄴ)."""
    last = hangul_code(stem[-1])
    if ending not in VERB_ENDINGS or last is None or last % 28:
        return []
    form = stem[:-1] + chr(0xAC00 + last + 4)  # final 4: ㄴ
    return [Unit(_cjk(form, DOCS), _cjk(form, HEADS), KOREAN_FORM, form, True, stem=_head(stem))]


def _head(word: str) -> str:
    """The docs expression of a Korean word's first two syllables, the part that says what it
    is: Korean adds to a word's end (endings the list lacks: 링크한, 숨기거; suffixes:
    보관소 beside 보관함), so a form much rarer than its first syllables is an uncommon form
    of them, and one note holding it by chance should not weigh as if it named a rare word."""
    return _cjk(word[:2], DOCS)


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
    if term.helping:
        return None
    if term.phrase and not any(True for _ in cjk_runs(term.text)):
        return _latin(term.text, term.prefix, columns) if _has_token(term.text) else None
    pieces: list[str] = []
    for piece, cjk in (_content_pieces if term.plain else _pieces)(term.text):
        if not term.plain:
            if cjk:
                pieces.append(_cjk(piece, columns))
            elif _has_token(piece):
                pieces.append(_latin(piece, term.prefix, columns))
        elif cjk:
            pieces.extend(_cjk(sub, columns) for sub in cjk_pieces(piece))
        elif _has_token(core := _core(piece)) and not is_stop_word(core):
            pieces.append(_word_expression(core, columns))
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
        last = groups[-1][-1] if groups[-1] else None
        plain = not (quoted or prefix or excluded)
        helping = plain and last is not None and last.plain and is_helping_verb(last.text, raw)
        term = Term(raw.strip(), phrase=quoted, prefix=prefix, excluded=excluded, helping=helping)
        groups[-1].append(term)
    kept: list[tuple[Term, ...]] = []
    for terms in groups:
        if not any(not t.excluded and term_expression(t) for t in terms):
            # nothing but stop words: search for them as written ("how to", "如何")
            terms = [Term(t.text, t.phrase, t.prefix, t.excluded, literal=True) for t in terms]
        if not any(not t.excluded and term_expression(t) for t in terms):
            what = "nothing to search for" if len(groups) == 1 else "an OR side with no term"
            if terms and all(t.excluded for t in terms):
                what += " (only excluded words: -word leaves out notes that hold it)"
                hint = f"add a word to find: vaultkit search -- 'WORD -{terms[0].text}'"
                raise VaultkitError(f"search query {text!r}: {what}", hint=hint)
            raise VaultkitError(f"search query {text!r}: {what}", hint=HINT)
        kept.append(tuple(terms))
    return Query(text, tuple(kept))
