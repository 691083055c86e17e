"""The credential corpus (``benchmarks/credentials.txt``) expanded into texts and their secrets,
for the redaction test and benchmark."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

CORPUS = Path(__file__).resolve().parent / "credentials.txt"
_ALPHABETS = {
    "A": "FaKe0NoT1rEaL2TeSt3DuMmY4",
    "H": "fa6ede0adbee1f2c3",
    "U": "FAKE0NOT1REAL2TEST3",
    "L": "FaKeNoTrEaLTeStDuMmY",
    "D": "0123456789",
}
_FIELD = re.compile(r"\{([AHULD]):(\d+)\}")


class Form(NamedTuple):
    """One credential form: its name, the text it sits in, and the secret part of that text."""

    name: str
    text: str
    secret: str


def _expand(template: str, seed: int) -> str:
    def fill(match: re.Match[str]) -> str:
        alphabet, count = _ALPHABETS[match.group(1)], int(match.group(2))
        start = (seed * 7 + match.start()) % len(alphabet)
        return "".join(alphabet[(start + i) % len(alphabet)] for i in range(count))

    return _FIELD.sub(fill, template.replace("\\n", "\n"))


def load(path: Path = CORPUS) -> list[Form]:
    """Every form of the corpus, expanded."""
    forms: list[Form] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if not line.strip() or line.startswith("#"):
            continue
        name, template = line.split("\t", 1)
        text = _expand(template, number)
        before, rest = text.split("«", 1)
        secret, after = rest.split("»", 1)
        forms.append(Form(name, before + secret + after, secret))
    return forms
