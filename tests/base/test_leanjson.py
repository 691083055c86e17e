"""base.leanjson and base.leanglob give what json and fnmatch give, for every input (Hypothesis),
and a hook process that uses them loads neither json nor re."""

from __future__ import annotations

import fnmatch
import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vaultkit.base import leanglob, leanjson

SCALARS = st.none() | st.booleans() | st.integers() | st.text()
VALUES = st.recursive(
    SCALARS | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
JSONISH = st.text(alphabet='{}[]",:.-+eE0123456789 \t\n\rtruefalsnul\\u\x01é', max_size=30)


def outcome(function: object, document: object) -> tuple[str, object]:
    try:
        return "value", repr(function(document))  # type: ignore[operator]
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


def test_the_fast_path_is_there_on_cpython() -> None:
    assert leanjson._SCAN is not None and leanjson._QUOTE is not None


@pytest.mark.slow
@given(VALUES, st.sampled_from([None, 1, 2]))
def test_loads_reads_what_json_writes(value: object, indent: int | None) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    assert repr(leanjson.loads(text)) == repr(json.loads(text))
    assert repr(leanjson.loads(text.encode())) == repr(json.loads(text.encode()))


@given(JSONISH)
def test_loads_fails_where_json_fails_with_the_same_error(text: str) -> None:
    assert outcome(leanjson.loads, text) == outcome(json.loads, text)
    data = text.encode("utf-8", "surrogatepass")
    assert outcome(leanjson.loads, data) == outcome(json.loads, data)


@pytest.mark.parametrize(
    "document",
    [
        "",
        " ",
        "{} x",
        "\ufeff{}",
        b"\xef\xbb\xbf{}",
        '{"a": 1',
        '"\x01"',
        "NaN",
        "[-Infinity]",
        '{"a": 1}'.encode("utf-16"),
        b"\xff\xfe",
        "[" * 5000 + "]" * 5000,
    ],
)
def test_unusual_documents_behave_as_in_json(document: str | bytes) -> None:
    assert outcome(leanjson.loads, document) == outcome(json.loads, document)


@given(st.dictionaries(st.text(), SCALARS, max_size=8), st.sampled_from([None, 1, 2]))
def test_dumps_writes_flat_records_byte_for_byte_as_json(
    data: dict[str, object], indent: int | None
) -> None:
    assert leanjson.dumps(data, indent=indent) == json.dumps(
        data, ensure_ascii=False, indent=indent
    )


@pytest.mark.parametrize(
    "data", [{"a": [1, 2]}, {"a": {"b": None}}, {"f": 1.5}, {"n": float("nan")}, {1: "x"}]
)
def test_dumps_hands_anything_else_to_json(data: dict[object, object]) -> None:
    assert leanjson.dumps(data, indent=1) == json.dumps(data, ensure_ascii=False, indent=1)  # type: ignore[arg-type]


PATTERN = st.text(alphabet="ab.*", max_size=8)
NAME = st.text(alphabet="ab.", max_size=10)


@given(NAME, PATTERN)
def test_glob_segments_match_as_fnmatchcase(name: str, pattern: str) -> None:
    assert leanglob.matches(name, pattern) == fnmatch.fnmatchcase(name, pattern)


@pytest.mark.parametrize(
    ("name", "pattern"),
    [
        ("rollout-1.jsonl", "rollout-*.jsonl"),
        ("a.jsonl", "?.jsonl"),
        ("b.jsonl", "[ab].jsonl"),
        ("x.jsonl", "[!x].jsonl"),
        ("*.jsonl", "*.jsonl"),
        ("A.JSONL", "*.jsonl"),
    ],
)
def test_other_glob_syntax_goes_to_fnmatch(name: str, pattern: str) -> None:
    assert leanglob.matches(name, pattern) == fnmatch.fnmatchcase(name, pattern)


def test_a_process_using_them_loads_neither_json_nor_re() -> None:
    code = (
        "import sys; before = set(sys.modules);"
        "from vaultkit.base import leanjson, leanglob;"
        "v = leanjson.loads(b'{\"a\": [1, \"x\"]}'); leanjson.dumps({'a': 'b'}, indent=1);"
        "assert leanglob.matches('s.jsonl', '*.jsonl');"
        "print(sorted({'json', 're', 'enum', 'fnmatch'} & (set(sys.modules) - before)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
