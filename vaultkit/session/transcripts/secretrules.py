"""The credential shapes redaction knows: provider tokens with a fixed prefix, and the words and
commands that put a password next to its name (URLs, flags, headers, "my password is").

Shapes follow the providers' documented token formats (the same ones gitleaks' rules and
detect-secrets' plugins look for); the patterns are our own. Each is a flat scan without nested
quantifiers, so redaction stays linear in the text length, and each runs only when one of its
literal triggers occurs in the text (a cheap ``in`` test).
"""

from __future__ import annotations

import re
from collections.abc import Iterable


class Lazy:
    """A pattern compiled on first use: most texts trip no trigger, and a process that only
    reads (``vaultkit search``) should not pay for compiling a hundred rules it never runs."""

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def re(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled


Rule = tuple[str, tuple[str, ...], Lazy]


def _rule(kind: str, triggers: tuple[str, ...], pattern: str, flags: int = 0) -> Rule:
    return (kind, triggers, Lazy(pattern, flags))


CaseFree = tuple[Lazy, Lazy]


def _ci(*parts: str) -> CaseFree:
    """A case-insensitive pattern, and its plain twin for lowered text (lowercase literals
    only): the twin scans several times faster, and the pair finds the same spans."""
    pattern = "".join(parts)
    return Lazy(pattern, re.IGNORECASE), Lazy(pattern)


_B = r"(?<![A-Za-z0-9_])"  # a token starts at a word edge (``\b`` would allow ``_``)
_E = r"(?![A-Za-z0-9])"

# Order matters: specific providers before the generic shapes that could cover them.
TOKENS: tuple[Rule, ...] = (
    _rule("anthropic", ("sk-ant-",), r"\bsk-ant-[A-Za-z0-9_-]{10,}"),
    _rule("openai", ("sk-",), r"\bsk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}"),
    _rule(
        "github",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
    ),
    _rule(
        "gitlab",
        (
            *(f"gl{k}-" for k in ("pat", "ptt", "rt", "dt", "ft", "soat", "cbt", "imt")),
            *(f"gl{k}-" for k in ("agent", "oas", "ffct", "wt")),
            "GR1348941",
        ),
        _B + r"(?:gl(?:pat|ptt|rt|dt|ft|soat|cbt|imt|agent|oas|ffct|wt)-[A-Za-z0-9_.-]{20,}"
        r"|GR1348941[A-Za-z0-9_-]{20,})",
    ),
    _rule("npm", ("npm_",), _B + r"npm_[A-Za-z0-9]{36,}"),
    _rule("huggingface", ("hf_", "api_org_"), _B + r"(?:hf_|api_org_)[A-Za-z0-9]{30,}"),
    _rule("pypi", ("pypi-",), _B + r"pypi-AgE[A-Za-z0-9_-]{50,}"),
    _rule(
        "aws-access-key",
        ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "A3T"),
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
    ),
    _rule("slack", ("xox", "xapp-"), r"\b(?:xox[abposre]-|xapp-)[A-Za-z0-9-]{10,}"),
    _rule(
        "webhook",
        ("hooks.slack.com", "/api/webhooks/", "webhook.office.com"),
        r"https?://(?:hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}"
        r"|(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/\d{5,}/[A-Za-z0-9_-]{20,}"
        r"|[a-z0-9-]{1,60}\.webhook\.office\.com/[A-Za-z0-9@/_.-]{20,})",
    ),
    _rule("google", ("AIza",), r"\bAIza[0-9A-Za-z_-]{35}"),
    _rule(
        "google-oauth",
        ("GOCSPX-", "ya29."),
        r"\b(?:GOCSPX-[A-Za-z0-9_-]{20,}"
        r"|ya29\.[A-Za-z0-9_-]{20,})",
    ),
    _rule("sendgrid", ("SG.",), r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{20,64}"),
    _rule(
        "stripe",
        ("_live_", "_test_", "whsec_"),
        r"\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})",
    ),
    _rule("digitalocean", ("_v1_",), r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    _rule("shopify", ("shp",), r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    _rule("databricks", ("dapi",), r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    _rule("hashicorp-vault", ("hvs.", "hvb."), r"\b(?:hv[sb]\.[A-Za-z0-9_-]{24,})"),
    _rule("terraform", (".atlasv1.",), r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}"),
    _rule("doppler", ("dp.",), r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_-]{40,}"),
    _rule("linear", ("lin_",), _B + r"lin_(?:api|oauth)_[A-Za-z0-9]{40}"),
    _rule("postman", ("PMAK-",), r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    _rule("newrelic", ("NRAK-", "NRJS-", "NRII-"), r"\bNR(?:AK|JS|II)-[A-Za-z0-9]{20,}"),
    _rule("sentry", ("sntrys_", "sntryu_"), _B + r"sntry[su]_[A-Za-z0-9_=+/-]{40,}"),
    _rule("age", ("AGE-SECRET-KEY-1",), r"\bAGE-SECRET-KEY-1[0-9A-Z]{50,}"),
    _rule(
        "grafana",
        ("glc_", "glsa_"),
        _B + r"(?:glc_[A-Za-z0-9+/]{32,}={0,2}"
        r"|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})",
    ),
    _rule("planetscale", ("pscale_",), _B + r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,}"),
    _rule("pulumi", ("pul-",), r"\bpul-[a-f0-9]{40}\b"),
    _rule("rubygems", ("rubygems_",), _B + r"rubygems_[a-f0-9]{48}\b"),
    _rule("twilio", ("SK",), r"\bSK[0-9a-f]{32}\b"),
    _rule("mailchimp", ("-us",), r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    _rule("mailgun", ("key-",), r"\bkey-[0-9a-f]{32}\b"),
    _rule("sendinblue", ("xkeysib-",), r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b"),
    _rule("telegram", (":AA",), r"\b\d{8,10}:AA[A-Za-z0-9_-]{32,}"),
    _rule(
        "square",
        ("sq0", "EAAA"),
        r"\b(?:sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"
        r"|EAAA[A-Za-z0-9_-]{60,})",
    ),
    _rule("groq", ("gsk_",), _B + r"gsk_[A-Za-z0-9]{48,}"),
    _rule("replicate", ("r8_",), _B + r"r8_[A-Za-z0-9]{37,}"),
    _rule("xai", ("xai-",), r"\bxai-[A-Za-z0-9]{60,}"),
    _rule("perplexity", ("pplx-",), r"\bpplx-[A-Za-z0-9]{40,}"),
    _rule("1password", ("ops_",), _B + r"ops_eyJ[A-Za-z0-9+/=_-]{40,}"),
    _rule("artifactory", ("AKC",), r"\bAKC[a-zA-Z0-9]{60,}"),
    _rule(
        "azure",
        ("Q~",),
        r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}" + _E,
    ),
    _rule("heroku", ("HRKU-",), r"\bHRKU-[A-Za-z0-9_-]{40,}"),
    _rule(
        "jwt",
        ("eyJ",),
        r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}",
    ),
)

# ``scheme://user:password@host``: the user stays, the password goes.
URL_PASSWORD = _ci(
    r"(\b[a-z][a-z0-9+.-]{1,30}://[^\s:/@?#\"'<>]{0,200}:)([^\s@/?#\"'<>]{1,300})(@)"
)

# ``mysql -u root -pS3cret``, ``sshpass -p pw``, ``redis-cli -a pw``, ``curl -u user:pw``.
COMMAND_PASSWORD = Lazy(
    r"(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlimport|mysqlshow)\b"
    r"[^\n|;&]{0,300}?\s-p)([^\s'\"]{1,200}|'[^'\n]{1,200}'|\"[^\"\n]{1,200}\")"
    r"|(\b(?:sshpass\s{1,5}-p|redis-cli\b[^\n|;&]{0,300}?\s-a)\s{0,5})([^\s'\"]{1,200})"
    r"|(\bcurl\b[^\n|;&]{0,300}?\s(?:-u|--user)\s{0,5}[\"']?[^\s:'\"]{1,100}:)([^\s'\"]{1,200})"
)

COMMAND_TRIGGERS = ("mysql", "mariadb", "sshpass", "redis-cli", "curl")
# ``--password pw`` (a flag and its value after a space).
FLAG_PASSWORD = _ci(
    r"((?<![A-Za-z0-9_-])--(?:password|passwd|pass|db-password|token|api-key|secret|auth-token)"
    r"\s{1,5})(?!-)([^\s'\"]{3,200}|'[^'\n]{1,200}'|\"[^\"\n]{1,200}\")"
)

FLAG_TRIGGERS = ("--pass", "--token", "--api-key", "--secret", "--auth-token", "--db-password")
# ``Authorization: Basic …`` and other schemes (``Bearer`` has its own rule).
AUTH_HEADER = _ci(
    r"(\b(?:proxy-)?authorization[\"']?\s{0,5}[:=]\s{0,5}[\"']?"
    r"(?:basic|token|digest|negotiate|ntlm|apikey|sso-key|key)?\s{0,5})"
    r"(?!\[redacted|bearer\b)([A-Za-z0-9._~+/=:-]{8,})"
)
BASIC = Lazy(r"(\bBasic\s{1,5})(?!\[redacted)([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])")
BEARER = _ci(r"(\bbearer\s{1,5})(?!\[redacted)([A-Za-z0-9._~+/=-]{8,})")

AWS_SECRET = _ci(
    r"(aws_?secret_?(?:access_?)?key[\"']?\s{0,5}[:=]\s{0,5}[\"']?)([A-Za-z0-9/+=]{30,})"
)

# A name holding a secret, then ``=`` or ``:``, then its value. The name may carry any prefix
# (``PGPASSWORD``, ``DB_PASSWORD``, ``X-Api-Key``); which names and values count is decided in
# :mod:`redact` (``max_tokens: 4096`` is no secret).
ASSIGN_TRIGGERS = (
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "auth",
    "credential",
    "비밀번호",
    "암호",
)
ASSIGN = _ci(
    r"((?:password|passwd|passphrase|pass|pwd|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|accountkey|private[_-]?key|client[_-]?secret|auth|credentials?|비밀번호|암호)"
    r"[A-Za-z0-9_.-]{0,30}[\"']?\s{0,5}(?::=|=>|[:=])\s{0,5})"
    r"(?!\[redacted)(\"[^\"\n]{1,500}\"|'[^'\n]{1,500}'|`[^`\n]{1,500}`"
    r"|(?>[^\s\"'`,;()\[\]{}<>]{1,500})(?!\())"
)
ASSIGN_NAME_START = Lazy(r"[A-Za-z0-9_.$-]{0,40}$")

# "my password is hunter2", "the pw was: hunter2", "비밀번호는 hunter2".
SAID_TRIGGERS = ("password", "passwd", "passphrase", "pw ", "pin ", "비밀번호", "암호")
SAID = _ci(
    r"(\b(?:password|passwd|passphrase|pw|pin\s?(?:code)?)(?:\s(?:for|of|to|on)(?:\s[^\s.,;:]{1,40}){1,4})?"
    r"\s{1,3}(?:is|was|will\sbe|should\sbe|=)(?:\s{1,3}|\s{0,3}[:\"'`]\s{0,2}))"
    r"(?!\[redacted)([^\s\"'`]{3,200})"
    r"|((?:비밀번호|암호)\s{0,2}(?:는|은|가|이|:|=)\s{0,3}[\"'`]?)(?!\[redacted)([^\s\"'`]{3,200})"
)

CONTEXT_TRIGGERS = ("://", "authorization", "basic", "bearer", "secret")


def _prefilter_words() -> tuple[str, ...]:
    words = {t.lower() for _, triggers, _ in TOKENS for t in triggers}
    words.update(COMMAND_TRIGGERS, FLAG_TRIGGERS, CONTEXT_TRIGGERS, ASSIGN_TRIGGERS, SAID_TRIGGERS)
    words.add("private key")
    return tuple(sorted(words, key=lambda w: (-len(w), w)))  # longest first, stable order


PREFILTER_WORDS = _prefilter_words()
PREFILTER = Lazy("|".join(re.escape(w) for w in PREFILTER_WORDS))
_SHORT = 4096  # below this, a hundred ``in`` tests beat compiling the one-scan pattern


def could_hold_secret(lowered: str) -> bool:
    """Whether the lowered text holds any rule's trigger: most texts have none. A short text is
    tested word by word, a long one in one scan; both answer the same."""
    if len(lowered) < _SHORT:
        return _any_in(PREFILTER_WORDS, lowered)
    return PREFILTER.re.search(lowered) is not None


def _any_in(words: Iterable[str], text: str) -> bool:
    return any(w in text for w in words)
