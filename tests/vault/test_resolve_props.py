"""Link resolution properties (never raises, stays in the index, order-free) and a scale guard."""

from __future__ import annotations

import random
import unicodedata

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vaultkit.vault.model import Link, Note
from vaultkit.vault.resolve import Memo, build_file_index, match_key, resolve_all, resolve_target

# Few distinct letters so names collide often; "." and ".." and dot-folders appear too.
SEGMENT = st.sampled_from(
    ["a", "A", "b", "ab", "Note", "note", "노트", unicodedata.normalize("NFD", "노트"), "é", "."]
) | st.text(alphabet="aAb.é -#", min_size=0, max_size=4)
FOLDERS = st.lists(SEGMENT, max_size=3)
SUFFIX = st.sampled_from(["", ".md", ".md", ".MD", ".png", ".canvas"])


@st.composite
def vault_paths(draw: st.DrawFn) -> str:
    return "/".join([*draw(FOLDERS), draw(SEGMENT) + draw(SUFFIX)])


@st.composite
def link_targets(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["", "", "/", "./", "../", "../../", " "]))
    return prefix + "/".join(draw(st.lists(SEGMENT, max_size=4))) + draw(SUFFIX)


PATHS = st.lists(vault_paths(), max_size=25)


@settings(max_examples=200, deadline=None)
@given(paths=PATHS, source=vault_paths(), target=link_targets(), data=st.data())
def test_resolution_is_total_closed_and_order_independent(
    paths: list[str], source: str, target: str, data: st.DataObject
) -> None:
    index = build_file_index(paths)
    result = resolve_target(index, source, target)
    if not target.strip():
        assert result.path == source
    elif result.path is not None:
        assert result.path in index.paths
    assert set(result.candidates) <= set(index.paths)
    assert not result.candidates or result.candidates[0] == result.path
    assert len(set(result.candidates)) == len(result.candidates)
    shuffled = data.draw(st.permutations(paths + paths[:3]))
    assert resolve_target(build_file_index(shuffled), source, target) == result


@settings(max_examples=200, deadline=None)
@given(paths=PATHS, source=vault_paths(), data=st.data())
def test_a_files_own_vault_path_always_finds_it(
    paths: list[str], source: str, data: st.DataObject
) -> None:
    index = build_file_index(paths)
    if not index.paths:
        return
    path = data.draw(st.sampled_from(index.paths))
    assume(path == path.strip())  # link text is trimmed, so " x.md" is only reachable by path
    same_key = [
        p for p in index.paths if match_key(p) in (match_key(path), match_key(path) + ".md")
    ]
    for target in (path, "/" + path):
        result = resolve_target(index, source, target)
        assert result.path is not None
        assert match_key(result.path) == match_key(path)
        assert result.exact is (len(same_key) == 1)


@settings(max_examples=100, deadline=None)
@given(paths=PATHS, aliases=st.lists(SEGMENT, max_size=4), target=link_targets())
def test_aliases_only_ever_annotate_ghosts(
    paths: list[str], aliases: list[str], target: str
) -> None:
    plain = resolve_target(build_file_index(paths), "s.md", target)
    index = build_file_index(paths, dict.fromkeys(paths, aliases))
    result = resolve_target(index, "s.md", target)
    assert (result.path, result.candidates) == (plain.path, plain.candidates)
    assert not result.alias_of or result.path is None
    assert set(result.alias_of) <= set(index.notes)


DUPLICATED = st.lists(
    st.tuples(st.sampled_from(["", "x", "x/y", "z", "X"]), st.sampled_from(["a", "A", "b"])),
    min_size=1,
    max_size=12,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(files=DUPLICATED, extra=PATHS, targets=st.lists(link_targets(), max_size=5), data=st.data())
def test_memo_answers_exactly_like_resolving_each_link_afresh(
    files: list[tuple[str, str]], extra: list[str], targets: list[str], data: st.DataObject
) -> None:
    """Whatever order links come in, and whichever note asked first, the memo's answer is the
    one resolve_target gives: a name several folders share depends on the asking folder."""
    paths = [f"{folder}/{name}.md".lstrip("/") for folder, name in files] + extra
    index = build_file_index(paths, dict.fromkeys(paths, ("b",)))
    sources = st.sampled_from([*paths, "x/new.md", "q/r.md"])
    names = st.sampled_from(["a", "A", "b", "x/a", "y/a", *targets])
    asks = data.draw(st.lists(st.tuples(sources, names), min_size=1, max_size=30))
    memo = Memo(index)
    for source, target in asks + asks[::-1]:
        assert memo.resolve(source, target) == resolve_target(index, source, target)


@pytest.mark.slow
def test_scale_100k_files_and_100k_links_is_not_quadratic() -> None:
    rng = random.Random(7)
    paths = [f"area{i % 300}/topic{i % 37}/note{i}.md" for i in range(90_000)]
    paths += [f"shared{i}/Common{i % 500}.md" for i in range(9_000)]
    paths += [f"assets/img{i}.png" for i in range(1_000)]
    names = [f"note{rng.randrange(120_000)}" for _ in range(70_000)]
    names += [f"Common{rng.randrange(500)}" for _ in range(20_000)]
    names += [f"../topic{rng.randrange(40)}/note{rng.randrange(90_000)}" for _ in range(10_000)]
    per_note = 20
    notes = [
        Note(paths[i], links=tuple(Link("wikilink", t) for t in names[j : j + per_note]))
        for i, j in zip(range(0, 90_000, 18), range(0, len(names), per_note), strict=False)
    ]
    index = build_file_index(paths)
    resolved = resolve_all(index, notes)
    assert len(index.paths) == 100_000
    assert len(resolved) == 100_000
    assert sum(r.resolution.path is None for r in resolved) > 1_000  # names above note89999
    assert sum(r.resolution.ambiguous for r in resolved) > 10_000  # the Common<n> links
