"""Character n-grams for Chinese, Japanese and Korean text, so a substring of a word is found.

FTS5's ``unicode61`` tokenizer keeps a run of CJK characters as one token (there are no spaces
between Chinese or Japanese words, and a Korean word carries its particles), so a query for part
of a run finds nothing. A ``trigram`` index finds substrings but nothing shorter than three
characters, while most CJK words are one or two characters long. vaultkit therefore indexes every
CJK run twice more, beside the words: as overlapping bigrams (``데이터`` → ``데이 이터``) and as
single characters. A one-character query matches the unigram column; a query of two or more
characters becomes the phrase of its bigrams, which matches exactly where the query is a
substring, because the phrase's bigrams must stand next to each other in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

# Blocks whose characters are written without spaces between words (or, for Hangul, with
# particles glued to the word): Han (CJK unified ideographs and extensions, compatibility
# ideographs), Hiragana, Katakana (and its phonetic extensions and half-width forms), Hangul
# syllables and jamo, and the CJK symbols block's iteration marks.
_RANGES = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA960, 0xA97F),  # Hangul Jamo extended A
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xD7B0, 0xD7FF),  # Hangul Jamo extended B
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3134F),  # CJK extensions B-H (supplementary planes)
)


@lru_cache(maxsize=1)
def _glued() -> re.Pattern[str]:
    """A Latin word touching a CJK character (compiled when files are indexed: a search that
    only reads the index does not pay for it)."""
    cjk = "".join(f"{chr(low)}-{chr(high)}" for low, high in _RANGES)
    return re.compile(f"[A-Za-z0-9]+(?=[{cjk}])|(?<=[{cjk}])[A-Za-z0-9]+")


RUN_BREAK = "x"


def is_cjk(char: str) -> bool:
    """True for a character of a script written without spaces between words (see module doc)."""
    code = ord(char)
    if code < 0x1100:
        return False
    return any(low <= code <= high for low, high in _RANGES)


def cjk_runs(text: str) -> Iterator[str]:
    """The maximal runs of CJK characters in ``text``, in order."""
    start = -1
    for i, char in enumerate(text):
        if is_cjk(char):
            if start < 0:
                start = i
        elif start >= 0:
            yield text[start:i]
            start = -1
    if start >= 0:
        yield text[start:]


def bigrams(run: str) -> list[str]:
    """Overlapping bigrams of one run; a one-character run is its own single gram."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def bigram_text(text: str) -> str:
    """What the bigram column holds: every CJK run as its bigrams, runs apart by ``RUN_BREAK``.

    Without the break, the runs ``xab`` and ``bcy`` would give the adjacent tokens ``ab bc``
    and the query ``abc`` would match across the gap. ``RUN_BREAK`` is a Latin token that no
    bigram query ever contains."""
    return f" {RUN_BREAK} ".join(" ".join(bigrams(run)) for run in cjk_runs(text))


def glued_words(text: str) -> list[str]:
    """The Latin words (letters and digits) written against CJK text with no space between
    (``CSS는``, ``Webビューアー``): the tokenizer keeps each as one token with the CJK run, so
    the word columns never hold the Latin word alone."""
    return _glued().findall(text)


def unigram_text(text: str) -> str:
    """What the unigram column holds: every CJK character, space-separated, then the Latin
    words glued to CJK text (:func:`glued_words`), so a search for ``CSS`` finds ``CSS는``."""
    chars = " ".join(" ".join(run) for run in cjk_runs(text))
    glued = " ".join(glued_words(text))
    return f"{chars} {glued}" if glued else chars
