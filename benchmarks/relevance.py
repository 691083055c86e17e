"""A generated session store with known answers, for judging search relevance (stdlib only).

Each topic is a wiki note whose body states one fact; every note also carries filler sentences
drawn from a shared pool of the same vocabulary, and handoff summaries name several topics
each, so the right note has to win on the fact's words, not on being the only match. A query
is answered when the topic's wiki note is in the top three.
"""

from __future__ import annotations

import random
from pathlib import Path

TOPICS: tuple[tuple[str, str, str], ...] = (
    (
        "Payment retries",
        "The gateway retries a declined card at most 7 times with exponential backoff.",
        "declined card backoff",
    ),
    (
        "Currency rounding",
        "Amounts are rounded half to even (banker's rounding) after conversion.",
        "banker's rounding",
    ),
    (
        "Import deduplication",
        "Duplicate rows are detected by a SHA-256 fingerprint of date, amount and payee.",
        "fingerprint payee",
    ),
    (
        "Schema migrations",
        "Each migration runs inside a transaction and records its number in user_version.",
        "user_version",
    ),
    (
        "Backup rotation",
        "Nightly backups keep fourteen daily and six monthly copies.",
        "monthly copies",
    ),
    (
        "Login throttling",
        "After five failed logins the account is locked for fifteen minutes.",
        "failed logins locked",
    ),
    (
        "Report export",
        "Reports export to CSV and XLSX; PDF export was dropped in November.",
        "PDF dropped",
    ),
    (
        "Search tokenizer",
        "Korean text is indexed with bigrams so two-letter words are found.",
        "two-letter words",
    ),
    (
        "Cache invalidation",
        "The cache key includes the schema version, so a migration empties it.",
        "migration empties",
    ),
    (
        "Webhook signing",
        "Webhooks are signed with HMAC-SHA256 over the raw body and a timestamp.",
        "HMAC raw body",
    ),
    (
        "Time zones",
        "All timestamps are stored in UTC and shown in the user's own zone.",
        "stored in UTC",
    ),
    (
        "Rate limits",
        "The public API allows 600 requests per minute for each token.",
        "600 requests",
    ),
    (
        "Feature flags",
        "Flags are read once at start-up from flags.toml; there is no hot reload.",
        "hot reload",
    ),
    ("Error budget", "The monthly error budget is 43 minutes of downtime.", "43 minutes downtime"),
    (
        "Log retention",
        "Application logs are kept for 30 days, audit logs for seven years.",
        "audit logs years",
    ),
    (
        "Password hashing",
        "Passwords are hashed with Argon2id at a memory cost of 64 MiB.",
        "argon2id",
    ),
    (
        "Queue workers",
        "Two queue workers run per core and a job times out after 90 seconds.",
        "job times out",
    ),
    (
        "Dark mode",
        "Dark mode follows the operating system unless the user picked a theme.",
        "operating system theme",
    ),
    (
        "Email digests",
        "The weekly digest is sent on Monday at 07:00 local time.",
        "weekly digest Monday",
    ),
    ("Attachment limits", "Uploads over 25 MB are refused with a clear error.", "uploads refused"),
    (
        "Offline mode",
        "The mobile app queues edits while offline and replays them in order.",
        "replays in order",
    ),
    ("Accessibility", "Every button has an accessible name and contrast meets WCAG AA.", "WCAG"),
    (
        "Budget categories",
        "Groceries and dining are separate categories since the November split.",
        "groceries dining",
    ),
    ("Tax export", "The tax export groups deductible expenses by quarter.", "deductible expenses"),
    (
        "Bank sync",
        "Bank sync polls every six hours and never stores credentials.",
        "never stores credentials",
    ),
    (
        "Sync conflicts",
        "When two devices edit one entry, the later edit wins and the other is kept as a copy.",
        "later edit wins",
    ),
    (
        "Recurring payments",
        "Recurring payments are generated three days before they fall due.",
        "fall due",
    ),
    (
        "Import encodings",
        "Files in Windows-1252 are converted to UTF-8 before parsing.",
        "windows-1252",
    ),
    ("Session timeout", "Idle sessions expire after twelve hours.", "idle expire"),
    (
        "Merchant names",
        "Merchant names are normalised: case folded and store numbers removed.",
        "store numbers",
    ),
    ("카테고리 규칙", "규칙은 위에서 아래로 적용되고 처음 일치한 규칙이 이긴다.", "일치"),
    ("환율 캐시", "환율은 하루에 한 번 가져와 캐시에 저장한다.", "율"),
    ("예산 알림", "예산의 80%를 넘으면 사용자에게 알림을 보낸다.", "사용자"),
    ("データ移行", "古いデータは夜間に移行し、完了後に検証する。", "検証"),
    ("通知設定", "通知は設定画面からいつでもオフにできる。", "画面"),
    ("数据备份", "数据每天凌晨备份一次。", "凌晨"),
)
FILLER = (
    "We looked at the cache and the queue again before lunch.",
    "The schema review is still open; nobody has merged it yet.",
    "Payments, imports and reports were all mentioned in standup.",
    "A migration plan was sketched but not agreed.",
    "The export code needs tests; the sync code too.",
    "Tokens, sessions and logins came up in the security chat.",
    "Budget numbers were copied into the monthly report.",
    "규칙과 캐시에 대해 다시 이야기했다.",
    "データと設定の話をした。",
)
CASES: tuple[tuple[str, str], ...] = tuple(
    (query, f"wiki/{title}.md") for title, _, query in TOPICS
)


def _note(title: str, body: str, rng: random.Random) -> str:
    filler = " ".join(rng.sample(FILLER, 3))
    return f"---\ntitle: {title}\ntags: [topic]\n---\n# {title}\n\n{filler}\n\n{body}\n\n{filler}\n"


def write_store(store: Path, seed: int = 11) -> Path:
    """Write the store (``wiki/`` topic notes, ``summary/`` handoffs) and return its folder."""
    rng = random.Random(seed)
    (store / "wiki").mkdir(parents=True)
    (store / "summary").mkdir()
    for title, fact, _ in TOPICS:
        (store / "wiki" / f"{title}.md").write_text(_note(title, fact, rng), encoding="utf-8")
    titles = [title for title, _, _ in TOPICS]
    for n in range(12):
        named = rng.sample(titles, 4)
        text = f"# Session {n}\n\nWorked on {', '.join(named)}. " + " ".join(rng.sample(FILLER, 4))
        (store / "summary" / f"2026-11-{n + 1:02d}_1000_s{n:07d}_Session {n}.md").write_text(
            text + "\n", encoding="utf-8"
        )
    return store
