"""Secret redaction: every provider pattern, assignments, PEM blocks, and linear running time."""

from __future__ import annotations

import pytest

from vaultkit.session.transcripts.redact import redact

# Fake secrets are assembled at run time so no secret-shaped literal sits in the repository.
ALNUM = "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7"


def fake(prefix: str, length: int, alphabet: str = ALNUM) -> str:
    body = (alphabet * (length // len(alphabet) + 1))[:length]
    return prefix + body


CASES = [
    ("anthropic", fake("sk-" + "ant-api03-", 40)),
    ("openai", fake("sk-", 40)),
    ("openai", fake("sk-" + "proj-", 48)),
    ("github", fake("gh" + "p_", 36)),
    ("github", fake("gh" + "o_", 36)),
    ("github", fake("github" + "_pat_", 60)),
    ("aws-access-key", fake("AK" + "IA", 16, "ABCDEFGHIJKLMNOP234567")),
    ("slack", fake("xo" + "xb-", 30)),
    ("slack", fake("xo" + "xp-", 30)),
    ("google", fake("AI" + "za", 35)),
    ("stripe", fake("sk" + "_live_", 24)),
    ("jwt", "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0" + ".abcDEF_123-xyz"),
]


@pytest.mark.parametrize(("kind", "secret"), CASES)
def test_provider_tokens_are_replaced(kind: str, secret: str) -> None:
    text = f"before {secret} after"
    out = redact(text)
    assert secret not in out
    assert out == f"before [REDACTED:{kind}] after"


def test_pem_private_key_block_is_replaced_whole() -> None:
    body = "\n".join(fake("", 64) for _ in range(5))
    pem = "-----BEGIN RSA " + "PRIVATE KEY-----\n" + body + "\n-----END RSA " + "PRIVATE KEY-----"
    out = redact(f"key:\n{pem}\ndone")
    assert out == "key:\n[REDACTED:private-key]\ndone"


def test_unterminated_pem_block_is_cut_to_the_next_blank_line() -> None:
    pem = "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" + fake("", 64)
    out = redact(f"{pem}\n\nvisible")
    assert out == "[REDACTED:private-key]\n\nvisible"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password=hunter22", "password=[REDACTED:password]"),
        ("DB_PASSWORD: 'pa ss word'", "DB_PASSWORD: [REDACTED:password]"),
        ('"client_secret": "abcdef"', '"client_secret": [REDACTED:secret]'),
        ("token = abcd1234", "token = [REDACTED:token]"),
        ("api_key=zzzz9999", "api_key=[REDACTED:api-key]"),
        ("export API-KEY=qwerty12", "export API-KEY=[REDACTED:api-key]"),
        ("Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer [REDACTED:bearer]"),
    ],
)
def test_assignments_and_bearer_headers(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_aws_secret_assignment() -> None:
    secret = fake("", 40, "abcdEFGH1234/+")
    assert redact(f"aws_secret_access_key = {secret}") == (
        "aws_secret_access_key = [REDACTED:aws-secret]"
    )


def test_provider_key_inside_an_assignment_is_redacted_once() -> None:
    key = fake("sk-" + "ant-", 30)
    assert redact(f"ANTHROPIC_API_KEY={key}") == "ANTHROPIC_API_KEY=[REDACTED:anthropic]"


def test_ordinary_code_is_left_alone() -> None:
    text = "def login(token: str) -> None:\n    tokens = split(sk)\n    return askey"
    assert redact(text) == text


@pytest.mark.timeout(60)  # a hang guard for catastrophic backtracking; speed is benchmarked
@pytest.mark.parametrize(
    "hostile",
    [
        "password" * 100_000,
        "a" * 1_000_000,
        "-----BEGIN RSA PRIVATE KEY-----" * 20_000,
        "eyJaaaaa." * 100_000,
        "token=" * 100_000,
        "sk-" * 200_000,
        "Bearer " * 100_000,
    ],
)
def test_hostile_inputs_finish(hostile: str) -> None:
    """Inputs built to make a backtracking pattern explode finish (a quadratic or exponential
    pattern would not within the guard) and nothing of them is lost but what is redacted."""
    out = redact(hostile)
    assert 0 < len(out) <= len(hostile)  # markers are shorter than what they replace
