"""The stdlib frontmatter reader agrees with PyYAML on what the note writer emits, without yaml."""

from __future__ import annotations

import subprocess
import sys

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from vaultkit.base.leanmeta import is_degraded, meta_str, read_meta, split_frontmatter

WRITER_FIELDS = {
    "title": "Parser: tokens, \"quotes\" and 'apostrophes' — 한국어 제목 " * 3,
    "date": "2026-11-30T10:05:00+09:00",
    "project": "demo",
    "type": "handoff-summary",
    "source": "claude-code",
    "session_id": "0c4e1a2b-1111-2222-3333-444455556666",
    "git_branch": "feat/x",
    "tags": ["session", "파서", "a: b"],
    "auto_saved": True,
    "quality": "degraded",
    "degraded_reason": "no-markers",
    "distill_retries": 1,
}


def dumped(meta: dict[str, object], *, unicode: bool) -> str:
    return "---\n" + yaml.safe_dump(meta, allow_unicode=unicode, sort_keys=False) + "---\nbody\n"


def test_reads_every_writer_field_like_yaml_does() -> None:
    for unicode in (True, False):
        meta, body = read_meta(dumped(WRITER_FIELDS, unicode=unicode))
        assert meta == WRITER_FIELDS
        assert body == "body\n"


# YAML also treats U+0085, U+2028 and U+2029 as line breaks; the lean reader does not (the note
# writer's fields never contain them), so they are left out here.
chars = st.characters(exclude_categories=["Cs"], exclude_characters="\x85\u2028\u2029")
scalar = st.one_of(
    st.text(chars, max_size=120),
    st.integers(-(10**9), 10**9),
    st.booleans(),
    st.none(),
)


@settings(max_examples=80, deadline=None)
@given(
    values=st.dictionaries(
        st.from_regex(r"[a-z][a-z_]{0,12}", fullmatch=True),
        st.one_of(scalar, st.lists(st.text(chars, max_size=40))),
        max_size=8,
    ),
    unicode=st.booleans(),
)
def test_agrees_with_yaml_on_generated_mappings(values: dict[str, object], unicode: bool) -> None:
    text = dumped(values, unicode=unicode)
    # The mapping ends at the first "---" line; a value such as "0---" also contains "---\n".
    expected = yaml.safe_load(text[4 : text.index("\n---\n", 3) + 1]) or {}
    assert read_meta(text)[0] == expected


def test_a_value_ending_in_dashes_is_not_the_closing_fence() -> None:
    assert read_meta("---\na: 0---\n---\nbody\n")[0] == {"a": "0---"}


def test_a_no_break_space_value_is_text_not_separator() -> None:
    assert read_meta("---\na: \xa0\n---\nbody\n")[0] == {"a": "\xa0"}  # Hypothesis found it


def test_seed_style_and_hand_written_frontmatter() -> None:
    text = "---\ntitle: 파서 작업\ntags: [a, 'b c']\nquality: Degraded\n---\n# 요약\n"
    meta, body = read_meta(text)
    assert meta["tags"] == ["a", "b c"]
    assert is_degraded(meta) and meta_str(meta, "title") == "파서 작업"
    assert body == "# 요약\n"


def test_no_frontmatter_and_unclosed_frontmatter_are_body() -> None:
    assert split_frontmatter("# Just a note\n") == ("", "# Just a note\n")
    assert read_meta("---\ntitle: x\nno closing fence\n")[0] == {}


def test_quality_is_read_from_frontmatter_only() -> None:
    assert not is_degraded(read_meta("---\ntitle: x\n---\nquality: degraded\n")[0])


def test_session_start_path_never_imports_yaml_or_heavy_libraries() -> None:
    code = (
        "import sys, vaultkit.continuity.startup as s, vaultkit.base.leanmeta;"
        "s.compose({'source': 'startup', 'cwd': '.'}, {}, spawn=None);"
        "heavy = [m for m in ('yaml', 'frontmatter', 'typer', 'networkx', 'markdown_it')"
        " if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_non_ascii_digits_stay_text_like_yaml_reads_them() -> None:
    # Hypothesis found this: YAML writes U+AA50 (CHAM DIGIT ZERO) unquoted and reads it back as
    # text; Python's int() and the regex \d accept it as a digit.
    values = {"a": "\uaa50", "b": "١٢", "c": 7}
    text = "---\n" + yaml.safe_dump(values, allow_unicode=True) + "---\nbody\n"
    assert read_meta(text)[0] == values
