"""Replace secrets (provider keys, tokens, private keys, password assignments) with markers, and
drop what the user marked ``<private>…</private>``.

Every pattern is a flat character-class scan with no nested quantifiers, so redaction is linear in
the text length; PEM blocks are cut with ``str.find`` instead of a lazy regex.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----")

# (kind, literal triggers, pattern); order matters: specific providers before generic shapes.
# A pattern only runs when one of its triggers occurs in the text (a cheap ``in`` test).
_TOKENS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("anthropic", ("sk-ant-",), re.compile(r"\bsk-ant-[A-Za-z0-9_-]{10,}")),
    ("openai", ("sk-",), re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    (
        "github",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"),
    ),
    ("aws-access-key", ("AKIA", "ASIA"), re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b")),
    ("slack", ("xox",), re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("google", ("AIza",), re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("stripe", ("_live_", "_test_"), re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    (
        "jwt",
        ("eyJ",),
        re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}"),
    ),
)
_PRIVATE_OPEN = re.compile(r"<private>", re.IGNORECASE)
_PRIVATE_CLOSE = re.compile(r"</private>", re.IGNORECASE)
_ASSIGN_TRIGGERS = ("pass", "pwd", "secret", "token", "key")

_BEARER = re.compile(r"(?i)(\bBearer\s{1,5})(?!\[REDACTED)[A-Za-z0-9._~+/=-]{8,}")

_AWS_SECRET = re.compile(
    r"(?i)(aws_?secret_?(?:access_?)?key[\"']?\s{0,5}[:=]\s{0,5}[\"']?)[A-Za-z0-9/+=]{30,}"
)

_ASSIGN = re.compile(
    r"(?i)(?<![A-Za-z0-9])((?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|private[_-]?key|client[_-]?secret)[A-Za-z0-9_.-]{0,30}[\"']?\s{0,5}[:=]\s{0,5})"
    r"(?!\[REDACTED)(\"[^\"\n]{1,500}\"|'[^'\n]{1,500}'|(?>[^\s\"'`,;()\[\]{}<>]{4,500})(?!\())"
)


def _assign_kind(name: str) -> str:
    lowered = name.lower()
    if lowered.startswith(("password", "passwd", "pwd")):
        return "password"
    if lowered.startswith("token"):
        return "token"
    if lowered.startswith(("api", "apikey")):
        return "api-key"
    return "secret"


def _marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def _redact_pem(text: str) -> str:
    out: list[str] = []
    pos = 0
    while True:
        begin = _PEM_BEGIN.search(text, pos)
        if begin is None:
            break
        out.append(text[pos : begin.start()])
        end = _PEM_END.search(text, begin.end())
        if end is not None:
            pos = end.end()
        else:
            blank = text.find("\n\n", begin.end())
            pos = len(text) if blank < 0 else blank
        out.append(_marker("private-key"))
    out.append(text[pos:])
    return "".join(out)


def _sub_group(kind_of: Callable[[re.Match[str]], str]) -> Callable[[re.Match[str]], str]:
    def repl(match: re.Match[str]) -> str:
        return match.group(1) + _marker(kind_of(match))

    return repl


def redact(text: str) -> str:
    """``text`` with every recognised secret replaced by ``[REDACTED:kind]``."""
    if not text:
        return text
    if "PRIVATE KEY-----" in text:
        text = _redact_pem(text)
    for kind, triggers, pattern in _TOKENS:
        if any(t in text for t in triggers):
            text = pattern.sub(_marker(kind), text)
    lowered = text.lower()
    if "bearer" in lowered:
        text = _BEARER.sub(_sub_group(lambda _m: "bearer"), text)
    if "secret" in lowered:
        text = _AWS_SECRET.sub(_sub_group(lambda _m: "aws-secret"), text)
    if any(t in lowered for t in _ASSIGN_TRIGGERS):
        text = _ASSIGN.sub(_sub_group(lambda m: _assign_kind(m.group(1))), text)
    return text


def strip_private(text: str) -> str:
    """``text`` without its ``<private>…</private>`` spans (tags in any case, spans over lines);
    an unclosed ``<private>`` drops the rest of the text. Linear: each span is cut by a search."""
    start = _PRIVATE_OPEN.search(text)
    if start is None:
        return text
    kept: list[str] = []
    pos = 0
    while start is not None:
        kept.append(text[pos : start.start()])
        end = _PRIVATE_CLOSE.search(text, start.end())
        if end is None:
            return "".join(kept)
        pos = end.end()
        start = _PRIVATE_OPEN.search(text, pos)
    kept.append(text[pos:])
    return "".join(kept)
