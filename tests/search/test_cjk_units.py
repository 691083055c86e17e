"""How Korean questions become search units: particles after a final consonant, auxiliary
verbs, a particle glued to a Latin word."""

from __future__ import annotations

from pathlib import Path

from vaultkit.search.find import Filters
from vaultkit.search.query import parse_query
from vaultkit.search.recall import search_folder
from vaultkit.search.words import is_stop_word, korean_stem


def _note(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def _words(query: str) -> list[tuple[str, float]]:
    return [(u.word, round(u.weight, 3)) for u in parse_query(query).units()]


def test_a_particle_of_a_final_consonant_leaves_one_syllable() -> None:
    assert korean_stem("창으로") == "창"  # 으로 follows a final consonant only
    assert korean_stem("앱으로는") == "앱"
    assert korean_stem("방법으로도") == "방법"
    assert korean_stem("나로") == "나로"  # 로 alone would leave one syllable: kept


def test_auxiliary_verbs_and_their_endings_are_grammar() -> None:
    assert all(is_stop_word(w) for w in ["있는지", "하는지", "되는", "법", "안에"])
    assert not is_stop_word("있")  # nothing after it: not a form of the verb
    assert not is_stop_word("하늘")  # 늘 is no ending
    assert _words("노트들이 연결되어 있는지 보는 법") == [("노트", 1.0), ("연결", 1.0)]


def test_a_korean_particle_glued_to_a_latin_word_is_left_out(tmp_path: Path) -> None:
    _note(tmp_path, "스니펫.md", "# CSS 스니펫\n\nCSS 파일을 폴더에 넣어요.\n")
    _note(tmp_path, "테마.md", "# 테마\n\n테마는 커뮤니티에서 받아요.\n")
    assert _words("CSS는 Evernote에서") == [("CSS", 1.0), ("Evernote", 1.0)]
    hits = search_folder(tmp_path, "CSS는", Filters()).hits
    assert [(h.path, h.complete) for h in hits] == [("스니펫.md", True)]  # no 는 needed
    assert parse_query('"CSS는"').units()[0].word == "CSS는"  # a phrase is as written
