"""The redaction rules compile on first use, and the two prefilter paths answer the same."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vaultkit.session.transcripts import secretrules as rules
from vaultkit.session.transcripts.redact import redact

_PAD = "ordinary words about notes and links. " * 200  # past the short-text bound


def test_importing_redact_compiles_no_rule() -> None:
    probe = (
        "from vaultkit.session.transcripts import redact as r, secretrules as s\n"
        "print(r.redact('a plain sentence about callouts'))\n"
        "lazies = [p for _, _, p in s.TOKENS] + [s.COMMAND_PASSWORD, s.BASIC, *s.ASSIGN]\n"
        "print(sum(p._compiled is not None for p in lazies))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "a plain sentence about callouts"
    assert out[1] == "0"


@pytest.mark.parametrize("word", rules.PREFILTER_WORDS)
def test_short_and_long_prefilter_agree(word: str) -> None:
    short = f"see {word} here"
    long = _PAD + short
    assert len(short) < rules._SHORT < len(long)
    assert rules.could_hold_secret(short)
    assert rules.could_hold_secret(long)
    assert rules.PREFILTER.re.search(short) is not None


def test_plain_text_passes_both_paths() -> None:
    assert not rules.could_hold_secret("a plain sentence")
    assert not rules.could_hold_secret(_PAD)


def test_a_secret_in_a_long_text_is_redacted() -> None:
    token = "gh" + "p_" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7Ab3dE6gH9"
    out = redact(_PAD + f"export GITHUB_TOKEN={token}\n")
    assert token not in out
    assert "[REDACTED:" in out
