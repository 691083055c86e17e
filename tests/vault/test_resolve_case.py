"""Name matching lower-cases as JavaScript's ``toLowerCase`` (Obsidian), never case-folds."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata

import pytest
from conftest import require_program

from vaultkit.vault.resolve import build_file_index, match_key, resolve_target

# Node prints, for each input string, its toLowerCase(); strings travel as JSON on stdin.
LOWER_JS = (
    "let d='';process.stdin.on('data',c=>d+=c);process.stdin.on('end',()=>"
    "process.stdout.write(JSON.stringify(JSON.parse(d).map(s=>s.toLowerCase()))))"
)
SIGMA = ["ΣΑΣ", "ΑΣ Β", "Σ", "ΑΣ.", "ΑΣ'Α", "Α.Σ", "ΑΣ\u0301", "ΟΔΥΣΣΕΥΣ", "aΣ1", "1Σ"]
SPECIAL = ["İstanbul", "STRAßE", "ẞ", "ﬁle", "ǅ", "ΐ", "Ⅻ", "Ⓐ", "Ω", "K", "Å", "ﬀ", "ŉ", "ᾼ"]


def _assigned() -> list[str]:
    """Every code point this Python's Unicode database knows (no surrogates, none unassigned:
    node's newer Unicode may map characters Python has not heard of)."""
    return [
        chr(code) for code in range(0x110000) if unicodedata.category(chr(code)) not in ("Cn", "Cs")
    ]


def test_match_key_equals_javascripts_to_lower_case() -> None:
    node = require_program("node", "apt-get install nodejs")  # the reference toLowerCase
    singles = _assigned()
    words = [*SIGMA, *SPECIAL, *(f"A{c}Σ" for c in "ΑΒΓ .-")]
    strings = [*singles, *words]
    done = subprocess.run(
        [node, "-e", LOWER_JS],
        input=json.dumps(strings),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lowered = json.loads(done.stdout)
    assert len(lowered) == len(strings)
    mismatched = [
        (f"U+{ord(s[0]):04X}" if len(s) == 1 else s, js, match_key(s))
        for s, js in zip(strings, lowered, strict=True)
        if unicodedata.normalize("NFC", js) != match_key(s)
    ]
    assert mismatched == [], mismatched[:20]
    assert len(singles) > 100_000, sys.version


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("STRAßE", "straße"),
        ("Straße", "straße"),
        ("ﬁle", "ﬁle"),  # the ligature is not "fi"
        ("İ", "i\u0307"),  # JavaScript gives the same two code points
        ("ΣΑΣ", "σας"),  # final sigma at the end of a word
        ("Ⅻ", "ⅻ"),
        ("Cafe\u0301", "café"),  # NFC first
    ],
)
def test_match_key_lower_cases_without_folding(text: str, key: str) -> None:
    assert match_key(text) == unicodedata.normalize("NFC", key)


@pytest.mark.parametrize(
    ("target", "found"),
    [
        ("Strasse", None),  # no case folding: ß is not ss
        ("STRAßE", "Straße.md"),
        ("straße", "Straße.md"),
        ("ﬁle", None),  # the ligature does not find file.md
        ("FILE", "file.md"),
        ("ΟΔΥΣΣΕΥΣ", None),  # the accent differs: not the same name
        ("ΟΔΥΣΣΕΎΣ", "Οδυσσεύς.md"),
        ("ΟΔΥΣΣΕΎΣ.md", "Οδυσσεύς.md"),
        ("ΘΕΟΣ", "ΘΕΟΣ.md"),  # the name's final sigma is final with or without ".md"
        ("θεοσ", None),  # a sigma written non-final in the link is another name
        ("ΘΕΟΣ.PNG", "ΘΕΟΣ.png"),
    ],
)
def test_resolution_by_lower_case(target: str, found: str | None) -> None:
    index = build_file_index(["Straße.md", "file.md", "Οδυσσεύς.md", "ΘΕΟΣ.md", "ΘΕΟΣ.png"])
    assert resolve_target(index, "a.md", target).path == found
