"""Questions as models ask them: stop words, stems, Korean endings, Chinese and Japanese runs,
and the documents holding every word ranked before those holding some."""

from __future__ import annotations

from pathlib import Path

import pytest

from vaultkit.search.find import Filters
from vaultkit.search.query import parse_query
from vaultkit.search.recall import search_folder
from vaultkit.search.words import cjk_pieces, korean_stem, stem_prefix


def _note(folder: Path, name: str, text: str) -> None:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _top(folder: Path, query: str) -> str:
    hits = search_folder(folder, query, Filters(limit=5)).hits
    return hits[0].path if hits else ""


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    _note(
        tmp_path,
        "Callouts.md",
        "# Callouts\n\nA callout is a box.\n\n## Foldable callouts\n\n"
        "Add a minus sign to collapse the callout by default.\n",
    )
    _note(tmp_path, "Tables.md", "# Tables\n\nHow do I make a table? Use pipes, I do.\n")
    _note(tmp_path, "태그.md", "# 태그\n\n## 노트에 태그 추가\n\n본문에 #태그를 쓰면 돼요.\n")
    _note(tmp_path, "표.md", "# 표\n\n표를 어떻게 만드나요? 파이프를 써요.\n")
    _note(tmp_path, "别名.md", "# 别名\n\n## 为笔记添加别名\n\n在属性中写 aliases。\n")
    _note(tmp_path, "表格.md", "# 表格\n\n如何创建表格？使用竖线。\n")
    _note(tmp_path, "タグ.md", "# タグ\n\n## ノートにタグを追加する\n\n本文に書きます。\n")
    _note(tmp_path, "表.md", "# 表\n\n表を作るにはどうすればいいですか？\n")
    return tmp_path


@pytest.mark.parametrize(
    ("question", "right"),
    [
        ("How do I make a callout collapsible?", "Callouts.md"),  # stop words, collaps*
        ("callouts folding", "Callouts.md"),  # callout*, fold*
        ("태그를 어떻게 추가하나요?", "태그.md"),  # particle and ending cut off
        ("如何给笔记添加别名", "别名.md"),  # question word cut out, bigrams ranked
        ("ノートにタグを追加するにはどうすればいいですか？", "タグ.md"),
    ],
)
def test_a_question_finds_the_note_that_answers_it(vault: Path, question: str, right: str) -> None:
    assert _top(vault, question) == right


def test_notes_holding_every_word_come_before_partial_ones(vault: Path) -> None:
    hits = search_folder(vault, "callout pipes", Filters()).hits
    assert {h.path for h in hits} == {"Callouts.md", "Tables.md"}
    assert not any(h.complete for h in hits)  # no note holds both
    hits = search_folder(vault, "collapse callout", Filters()).hits
    assert [(h.path, h.complete) for h in hits] == [("Callouts.md", True)]


def test_a_query_of_nothing_but_stop_words_is_searched_as_written(vault: Path) -> None:
    hits = search_folder(vault, "how do I", Filters()).hits
    assert [h.path for h in hits] == ["Tables.md"]
    assert parse_query("how do I").left_out() == ()
    assert parse_query("how do I add tags").left_out() == ("how", "do", "i")


def test_phrases_and_prefixes_are_not_stemmed_or_thinned(vault: Path) -> None:
    assert _top(vault, '"How do I make"') == "Tables.md"
    assert parse_query('"the callout"').units()[0].word == "the callout"


def test_stems_keep_the_part_of_the_word_the_stem_shares() -> None:
    assert stem_prefix("collapsible") == "collaps"
    assert stem_prefix("study") == "stud"  # stem "studi": only the shared part
    assert stem_prefix("tag") == "tag"  # too short to shorten
    assert stem_prefix("Größe") == "größe"  # not ASCII: as written


def test_korean_endings_and_cjk_stop_strings() -> None:
    assert korean_stem("태그를") == "태그"
    assert korean_stem("추가하나요") == "추가"
    assert korean_stem("나가") == "나가"  # one syllable would be left: kept
    assert cjk_pieces("如何给笔记添加别名") == ["笔记添加别名"]  # 给 leads: cut
    assert cjk_pieces("コールアウトを折りたたむ") == ["コールアウト", "折"]
    # Japanese: cut where the script changes, the Hiragana between (grammar) left out
    assert cjk_pieces("ショートカットを覚えていないときにコマンドを実行するには") == [
        "ショートカット",
        "覚",
        "コマンド",
        "実行",
    ]
    assert cjk_pieces("すばやく") == []  # Hiragana alone: grammar too ...
    assert parse_query("すばやく").match()  # ... so a query of nothing else is taken as written
    # a Han character standing alone between cuts is a function word: 在 (at), 会 (will)
    assert cjk_pieces("在哪里可以看到当前笔记") == ["当前笔记"]
    assert cjk_pieces("满了会怎样") == ["满"]
    assert cjk_pieces("现在") == ["现在"]  # ... but not inside a word


def test_the_words_of_a_question_frame_are_left_out() -> None:
    assert parse_query("Where can I see how many headings there are").left_out() == (
        "where",
        "can",
        "i",
        "see",
        "how",
        "many",
        "there",
        "are",
    )
    assert [u.word for u in parse_query("Sync 저장 공간은 얼마나 되나요?").units()] == [
        "Sync",
        "저장",
        "공간",
    ]
    assert korean_stem("저장해") == "저장"  # 해 (from 하다), 게, 면, 된 are endings too
    assert korean_stem("빠르게") == "빠르"
    assert korean_stem("올리면") == "올리"
    assert korean_stem("연결된") == "연결"
    assert korean_stem("화면") == "화면"  # one syllable would be left: a noun, kept
    assert cjk_pieces("如何") == []


def test_aliases_description_and_tags_are_searchable(tmp_path: Path) -> None:
    _note(
        tmp_path,
        "Dog.md",
        "---\naliases: [Canine, 강아지]\ndescription: A loyal pet.\ntags: [animals/mammal]\n---\n"
        "Barks.\n",
    )
    _note(tmp_path, "Other.md", "Nothing about it, a canine is mentioned here once.\n")
    for query in ("canine", "강아지", "loyal pet", "mammal"):
        assert _top(tmp_path, query) == "Dog.md", query


def test_an_index_of_the_old_schema_rebuilds_itself(tmp_path: Path) -> None:
    import sqlite3

    from vaultkit.search.corpus import vault_corpus

    _note(tmp_path, "Dog.md", "---\naliases: [Canine]\n---\nBarks.\n")
    index = vault_corpus(tmp_path).index_path
    index.parent.mkdir(parents=True)
    conn = sqlite3.connect(index)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute("INSERT INTO meta VALUES ('schema', 'vaultkit-search-2')")
    conn.commit()
    conn.close()
    found = search_folder(tmp_path, "canine", Filters())
    assert found.refresh.rebuilt
    assert [h.path for h in found.hits] == ["Dog.md"]


def test_a_question_matching_very_many_notes_is_ranked_from_their_titles(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vaultkit.search import loose
    from vaultkit.search.corpus import vault_corpus
    from vaultkit.search.find import search
    from vaultkit.search.index import opened

    question = parse_query("How do I make a callout collapsible?")
    with opened(vault_corpus(vault)) as (conn, _):
        everything = [h.path for h in search(conn, question, Filters())]
        monkeypatch.setattr(loose, "COMMON", 1)
        bounded = [h.path for h in search(conn, question, Filters())]
    assert everything[0] == "Callouts.md" and "Tables.md" in everything  # "make" in its body
    assert bounded == ["Callouts.md"]  # over "common" matches: title and heading candidates


def test_a_long_korean_word_finds_the_note_by_its_parts(tmp_path: Path) -> None:
    # 슬라이드쇼 is in no note; its bigrams 슬라 라이 이드 are in the note about slides
    _note(tmp_path, "슬라이드.md", "# 슬라이드\n\n마크다운 노트를 슬라이드로 보여줘요.\n")
    _note(tmp_path, "회의.md", "# 회의\n\n회의에서 발표를 해요. 발표 자료를 준비해요.\n")
    assert _top(tmp_path, "노트를 슬라이드쇼로 발표하려면?") == "슬라이드.md"


def test_a_korean_verb_stem_also_finds_its_attributive_form(tmp_path: Path) -> None:
    # 빠르게 (quickly) is cut to 빠르; the note says 빠른 (quick), the same stem with a final ㄴ
    _note(tmp_path, "빠른 전환기.md", "# 빠른 전환기\n\n노트 이름을 입력해 열어요.\n")
    text = "# 파일 목록\n\n노트를 클릭해서 이동해요. 다른 노트도 있어요.\n"
    _note(tmp_path, "파일 목록.md", text)
    for i in range(4):
        _note(tmp_path, f"기타{i}.md", f"# 기타 {i}\n\n다른 이야기예요.\n")
    assert _top(tmp_path, "다른 노트로 빠르게 이동하려면?") == "빠른 전환기.md"
    assert [(u.word, u.extra) for u in parse_query("만들려면 빠르게").units()][-2:] == [
        ("빠르", False),
        ("빠른", True),
    ]
    assert [u.word for u in parse_query("노트로 빠르게").units()] == ["노트", "빠르", "빠른"]


def test_a_long_note_holding_words_by_chance_ranks_below_a_short_one(tmp_path: Path) -> None:
    # Long holds the rarer pair (apple, banana), Short a commoner one (apple, cherry): by the
    # words' rarity alone Long would come first; its length says it holds them by chance.
    filler = "lorem ipsum dolor sit amet\n" * 200
    _note(tmp_path, "Long.md", f"# Long\n\n{filler}An apple and a banana.\n{filler}")
    _note(tmp_path, "Short.md", "# Short\n\nAn apple and a cherry.\n")
    for i in range(2):
        _note(tmp_path, f"C{i}.md", f"# C{i}\n\nA cherry.\n")
    for i in range(4):
        _note(tmp_path, f"F{i}.md", f"# F{i}\n\nNothing here.\n")
    hits = search_folder(tmp_path, "apple banana cherry", Filters(limit=5)).hits
    assert [h.path for h in hits[:2]] == ["Short.md", "Long.md"]
    assert not any(h.complete for h in hits)
