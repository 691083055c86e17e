"""The ``@@@TITLE@@@`` / ``@@@HANDOFF@@@`` / ``@@@WIKI@@@`` parser."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vaultkit.session.distill.markers import TITLE_MAX, parse_markers

GOOD = "@@@TITLE@@@\nFix the parser\n@@@HANDOFF@@@\n## Done\n- x\n@@@WIKI@@@\nSee [[Other]]\n"


def test_clean_answer() -> None:
    parsed = parse_markers(GOOD)
    assert parsed.title == "Fix the parser"
    assert parsed.handoff == "## Done\n- x"
    assert parsed.wiki == "See [[Other]]"
    assert parsed.missing == ()
    assert parsed.complete


def test_preamble_crlf_whitespace_and_decoration_are_tolerated() -> None:
    text = "Sure! Here it is:\r\n  @@@TITLE@@@  \r\n\r\n**Title**\r\n## @@@HANDOFF@@@\r\nH\r\n"
    text += "**@@@WIKI@@@**\r\nW\r\n"
    parsed = parse_markers(text)
    assert (parsed.title, parsed.handoff, parsed.wiki, parsed.missing) == ("Title", "H", "W", ())


def test_code_fenced_answer_loses_only_the_wrapping_fence() -> None:
    inner = "@@@WIKI@@@\n```python\nprint(1)\n```\nend"
    text = f"```markdown\n@@@TITLE@@@\nT\n@@@HANDOFF@@@\nH\n{inner}\n```\n"
    parsed = parse_markers(text)
    assert parsed.handoff == "H"
    assert parsed.wiki == "```python\nprint(1)\n```\nend"


def test_a_balanced_fence_at_the_end_of_a_part_is_kept() -> None:
    parsed = parse_markers("@@@HANDOFF@@@\nrun:\n```\npytest\n```\n@@@WIKI@@@\nw")
    assert parsed.handoff == "run:\n```\npytest\n```"


def test_missing_markers_are_reported() -> None:
    parsed = parse_markers("@@@TITLE@@@\nOnly a title\n")
    assert parsed.missing == ("HANDOFF", "WIKI")
    assert not parsed.complete
    assert parse_markers("no markers at all").missing == ("TITLE", "HANDOFF", "WIKI")


def test_empty_part_is_not_complete_and_inline_markers_do_not_count() -> None:
    assert not parse_markers("@@@HANDOFF@@@\n\n@@@WIKI@@@\nw").complete
    parsed = parse_markers("text @@@HANDOFF@@@ inline\n@@@WIKI@@@\nw")
    assert "HANDOFF" in parsed.missing


def test_title_is_the_first_non_empty_line_and_bounded() -> None:
    parsed = parse_markers("@@@TITLE@@@\n\n# " + "t" * 500 + "\nsecond\n@@@HANDOFF@@@\nh")
    assert parsed.title == "t" * TITLE_MAX


def _norm(text: str) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip()


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=200),
    st.text(max_size=200).filter(lambda t: "@@@" not in t),
    st.text(max_size=200).filter(lambda t: "@@@" not in t),
)
def test_parts_round_trip_through_the_marker_format(pre: str, handoff: str, wiki: str) -> None:
    text = f"{pre.replace('@@@', '')}\n@@@TITLE@@@\nT\n@@@HANDOFF@@@\n{handoff}\n@@@WIKI@@@\n{wiki}"
    parsed = parse_markers(text)
    assert parsed.missing == ()
    assert parsed.title == "T"
    if "`" not in handoff and "~" not in handoff:
        assert parsed.handoff == _norm(handoff)
    if "`" not in wiki and "~" not in wiki:
        assert parsed.wiki == _norm(wiki)
