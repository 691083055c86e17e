"""Replace secrets (provider keys, tokens, private keys, passwords in URLs, flags, headers,
assignments and sentences) with markers, and drop what was marked ``<private>…</private>``.

:func:`redact` is the one entry point: notes, transcripts renderings, the distilling LLM's input
and output, titles before they become file names, and memory at injection time all go through
it. Every pattern is a flat scan (:mod:`secretrules`), so redaction is linear in the text length;
PEM blocks are cut with a search for their end instead of a lazy regex.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from vaultkit.session.transcripts import secretrules as rules

_PEM_BEGIN = rules.Lazy(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = rules.Lazy(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PRIVATE_OPEN = rules.Lazy(r"<private>", re.IGNORECASE)
_PRIVATE_CLOSE = rules.Lazy(r"</private>", re.IGNORECASE)


def _words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


_WORDS = rules.Lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\x00-\x7f]+")
_SECRET_WORDS = _words(
    "password passwd passphrase pass pwd secret token apikey accesskey accountkey privatekey "
    "authtoken credential credentials auth 비밀번호 암호"
)
_SUFFIXES = ("password", "passwd", "pwd", "secret", "token", "apikey")
# The only words that may follow the secret's name: ``secret_key_base``, ``token_prod``.
_OK_AFTER = _words(
    "base value val str b64 base64 hex raw plain text data v1 v2 prod production dev staging "
    "test live main default key"
)
_NOT_KEY_BEFORE = _words(
    "public pub primary foreign sort partition cache dict map lookup index unique row hot short "
    "group composite hash sorting registry ssh gpg the a"
)
_PLACEHOLDER = rules.Lazy(
    r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]*>|\{\{[^{}]*\}\}"
    r"|(.)\1*|\.\.\.|[~.]{0,2}/[\w./-]*|!\w+|(?:self|cls|os|env|config|settings|args|opts|options"
    r"|request|req|process|ctx|context|this)\.[\w.\[\]\"']+)$"
)
_PLAIN_VALUES = _words(
    "none null nil true false yes no undefined required optional str string int bool bytes any "
    "object number boolean dict list secret secrets password token redacted hidden masked empty "
    "missing invalid incorrect wrong correct changed expired stored saved set unset not the a an "
    "in on at of to from for with by it its this that same different needed given default "
    "example placeholder env environment prompt input stdin file keychain vault also only still "
    "now being hashed encrypted generated rotated shown printed logged visible"
)


def _marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def _redact_pem(text: str) -> str:
    out: list[str] = []
    pos = 0
    while True:
        begin = _PEM_BEGIN.re.search(text, pos)
        if begin is None:
            break
        out.append(text[pos : begin.start()])
        end = _PEM_END.re.search(text, begin.end())
        if end is not None:
            pos = end.end()
        else:
            blank = text.find("\n\n", begin.end())
            pos = len(text) if blank < 0 else blank
        out.append(_marker("private-key"))
    out.append(text[pos:])
    return "".join(out)


def _bare(value: str) -> str:
    return (
        value[1:-1] if len(value) >= 2 and value[0] in "\"'`" and value[-1] == value[0] else value
    )


def _plain(value: str) -> bool:
    """A value that names no secret: a placeholder, a type, a path, code or an ordinary word."""
    bare = _bare(value).strip()
    return not bare or bare.lower() in _PLAIN_VALUES or _PLACEHOLDER.re.match(bare) is not None


def _random_looking(value: str) -> bool:
    bare = _bare(value)
    classes = sum(
        (
            any(c.islower() for c in bare),
            any(c.isupper() for c in bare),
            any(c.isdigit() for c in bare),
        )
    )
    return len(bare) >= 12 and classes >= 2


def _name_kind(name: str) -> tuple[str, bool] | None:
    """(kind, strong) for a name that holds a secret; None for ``max_tokens`` or ``author``.
    A weak name (``key``, ``auth``) counts only with a random-looking value."""
    words = [w.lower() for w in _WORDS.re.findall(name)]
    for i in range(len(words) - 1, -1, -1):
        word = words[i]
        after = words[i + 1 :]
        if word == "key" and i > 0 and words[i - 1] not in _NOT_KEY_BEFORE:
            kind = "api-key" if words[i - 1] == "api" else "secret"
        elif word in _SECRET_WORDS:
            kind = _assign_kind(word)
        elif word.endswith(_SUFFIXES):  # ``PGPASSWORD``, ``csrftoken``
            kind = _assign_kind(next(s for s in _SUFFIXES if word.endswith(s)))
        else:
            continue
        if any(w not in _OK_AFTER and not w.isdigit() for w in after):
            return None  # ``token.meta``, ``password_file``, ``token_limit``
        return kind, word not in ("auth", "credential", "credentials", "pass")
    if words and words[-1] == "key":
        return "secret", False
    return None


def _assign_kind(word: str) -> str:
    if word in ("password", "passwd", "passphrase", "pass", "pwd", "비밀번호", "암호"):
        return "password"
    if word in ("token", "authtoken"):
        return "token"
    if word == "apikey":
        return "api-key"
    return "secret"


def _assignment(text: str) -> Callable[[re.Match[str]], str]:
    def repl(match: re.Match[str]) -> str:
        head, value = match.group(1), match.group(2)
        start = rules.ASSIGN_NAME_START.re.search(text, max(0, match.start() - 40), match.start())
        name = (text[start.start() : match.start()] if start else "") + head
        found = _name_kind(name.rstrip(" \t:=>\"'"))
        if found is None or _plain(value):
            return match.group(0)
        kind, strong = found
        if not strong and not _random_looking(value):
            return match.group(0)
        if len(_bare(value)) < 4 and value[0] not in "\"'`":
            return match.group(0)
        return head + _marker(kind)

    return repl


def _keep_group(kind: str, *, check: bool = True) -> Callable[[re.Match[str]], str]:
    """Replace the value group after each non-empty prefix group with the ``kind`` marker."""

    def repl(match: re.Match[str]) -> str:
        groups = match.groups()
        for i in range(0, len(groups) - 1, 2):
            head, value = groups[i], groups[i + 1]
            if head is not None and value is not None:
                if check and _plain(value):
                    return match.group(0)
                tail = match.group(0)[len(head) + len(value) :]
                return head + _marker(kind) + tail
        return match.group(0)

    return repl


def _sub(pair: rules.CaseFree, repl: Callable[[re.Match[str]], str], text: str) -> str:
    """``re.sub`` of a case-insensitive rule, scanning the lowered text with its plain twin."""
    anycase, plain = pair[0].re, pair[1].re
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer: no twin
        return anycase.sub(repl, text)
    out: list[str] = []
    pos = 0
    for found in plain.finditer(lowered):
        match = anycase.match(text, found.start())
        if match is None:  # cannot happen: the two read the same span
            continue
        out.append(text[pos : match.start()])
        out.append(repl(match))
        pos = match.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def _redact_tokens(text: str) -> str:
    for kind, triggers, pattern in rules.TOKENS:
        if any(t in text for t in triggers):
            text = pattern.re.sub(_marker(kind), text)
    return text


def _redact_context(text: str) -> str:
    """Secrets recognised by what stands next to them: a URL's ``user:``, a flag, a header."""
    lowered = text.lower()
    if "://" in text:
        text = _sub(rules.URL_PASSWORD, _keep_group("password"), text)
    if any(t in lowered for t in rules.COMMAND_TRIGGERS):
        text = rules.COMMAND_PASSWORD.re.sub(_keep_group("password"), text)
    if any(t in lowered for t in rules.FLAG_TRIGGERS):
        text = _sub(rules.FLAG_PASSWORD, _keep_group("password"), text)
    if "authorization" in lowered:
        text = _sub(rules.AUTH_HEADER, _keep_group("authorization"), text)
    if "Basic" in text:
        text = rules.BASIC.re.sub(_keep_group("basic-auth", check=False), text)
    if "bearer" in lowered:
        text = _sub(rules.BEARER, _keep_group("bearer", check=False), text)
    if "secret" in lowered:
        text = _sub(rules.AWS_SECRET, _keep_group("aws-secret", check=False), text)
    return text


def _redact_words(text: str) -> str:
    """Secrets named in the text: ``PGPASSWORD=…``, ``"api_key": "…"``, "my password is …"."""
    lowered = text.lower()
    if any(t in lowered for t in rules.ASSIGN_TRIGGERS):
        text = _sub(rules.ASSIGN, _assignment(text), text)
    if any(t in lowered for t in rules.SAID_TRIGGERS):
        text = _sub(rules.SAID, _keep_group("password"), text)
    return text


def redact(text: str) -> str:
    """``text`` without its ``<private>`` spans and with every recognised secret replaced by
    ``[REDACTED:kind]``; idempotent. Injection calls it again on what it reads from the store."""
    if not text:
        return text
    lowered = text.lower()
    if "private" in lowered:
        text = strip_private(text)
    if not rules.could_hold_secret(lowered):
        return text
    if "PRIVATE KEY" in text:
        text = _redact_pem(text)
    text = _redact_tokens(text)
    text = _redact_context(text)
    return _redact_words(text)


def strip_private(text: str) -> str:
    """``text`` without its ``<private>…</private>`` spans (tags in any case, spans over lines).
    An unclosed ``<private>`` drops the rest of the text, and a ``</private>`` with no opening
    drops what comes before it (a span split over two messages or JSON strings stays private
    however the pieces are cut). Linear: each span is cut by a search."""
    kept: list[str] = []
    pos = 0
    start = _PRIVATE_OPEN.re.search(text)
    close = _PRIVATE_CLOSE.re.search(text)
    while start is not None or close is not None:
        if close is not None and (start is None or close.start() < start.start()):
            kept.clear()  # an orphan close: everything so far was inside a span
        else:
            assert start is not None
            kept.append(text[pos : start.start()])
            if close is None:
                return "".join(kept)
        pos = close.end()
        if start is not None and start.start() < pos:
            start = _PRIVATE_OPEN.re.search(text, pos)
        close = _PRIVATE_CLOSE.re.search(text, pos)
    if pos == 0:
        return text
    kept.append(text[pos:])
    return "".join(kept)
