"""How Korean, Chinese and Japanese questions become search units: particles after a final
consonant, auxiliary verbs, function characters, Katakana words and bigrams across words."""

from __future__ import annotations

from pathlib import Path

from vaultkit.search.corpus import vault_corpus
from vaultkit.search.find import Filters
from vaultkit.search.grams import glued_words
from vaultkit.search.index import opened
from vaultkit.search.loose import rarities
from vaultkit.search.query import parse_query
from vaultkit.search.recall import search_folder
from vaultkit.search.words import cjk_pieces, is_stop_word, korean_stem


def _note(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def _words(query: str) -> list[tuple[str, float]]:
    return [(u.word, round(u.weight, 3)) for u in parse_query(query).units()]


def test_a_particle_of_a_final_consonant_leaves_one_syllable() -> None:
    assert korean_stem("창으로") == "창"  # 으로 follows a final consonant only
    assert korean_stem("앱으로는") == "앱"
    assert korean_stem("방법으로도") == "방법"
    assert korean_stem("나로") == "나로"  # 로 alone would leave one syllable: kept
    assert korean_stem("앱에서") == "앱"  # 에서 ends no word but as a particle
    assert korean_stem("탭까지") == "탭"
    assert korean_stem("앱에") == "앱에"  # 에 alone would leave one syllable: kept


def test_auxiliary_verbs_and_their_endings_are_grammar() -> None:
    assert all(is_stop_word(w) for w in ["있는지", "하는지", "되는", "법", "안에"])
    assert not is_stop_word("있")  # nothing after it: not a form of the verb
    assert not is_stop_word("하늘")  # 늘 is no ending
    assert _words("노트들이 연결되어 있는지 보는 법") == [("노트", 1.0), ("연결", 1.0)]


def test_seeing_and_a_helping_giving_verb_are_grammar() -> None:
    assert all(is_stop_word(w) for w in ["보고", "보여", "보이는"])  # see, show: as "see"
    assert not is_stop_word("보기")  # a view (읽기 보기): a word
    query = parse_query("각주를 한눈에 보여 주는 패널")
    assert [u.word for u in query.units()] == ["각주", "한눈", "패널"]
    assert query.left_out() == ("보여", "주는")
    assert "주는" not in query.match()
    assert _words("알려 줘 메뉴") == [("알려", 1.0), ("메뉴", 1.0)]  # 줘 helps 알려 (tell)
    assert _words("노트 주는 메뉴") == [("노트", 1.0), ("주는", 1.0), ("메뉴", 1.0)]
    assert ("주요", 1.0) in _words("데이터 주요 항목")  # 주요 (main) is no form of 주다
    assert [u.word for u in parse_query("주는").units()] == ["주는"]  # nothing else: as written


def test_a_korean_particle_glued_to_a_latin_word_is_left_out(tmp_path: Path) -> None:
    _note(tmp_path, "스니펫.md", "# CSS 스니펫\n\nCSS 파일을 폴더에 넣어요.\n")
    _note(tmp_path, "테마.md", "# 테마\n\n테마는 커뮤니티에서 받아요.\n")
    assert _words("CSS는 Evernote에서") == [("CSS", 1.0), ("Evernote", 1.0)]
    hits = search_folder(tmp_path, "CSS는", Filters()).hits
    assert [(h.path, h.complete) for h in hits] == [("스니펫.md", True)]  # no 는 needed
    assert parse_query('"CSS는"').units()[0].word == "CSS는"  # a phrase is as written


def test_chinese_function_characters_cut_a_run() -> None:
    assert cjk_pieces("把仓库移动到文件夹") == ["仓库移动到文件夹"]  # a leading 把
    assert cjk_pieces("折叠标题和列表") == ["折叠标题", "列表"]  # a conjunction
    assert cjk_pieces("在白板上添加卡片") == ["白板上添加卡片"]  # 上 is inside the piece
    assert cjk_pieces("插入到笔记中") == ["插入到笔记"]  # a trailing postposition
    assert cjk_pieces("在线") == ["在线"]  # two characters: kept whole
    assert cjk_pieces("同时") == ["同时"]
    assert cjk_pieces("如何打开所有笔记") == ["打开", "笔记"]  # 所有: all
    assert cjk_pieces("画面と同期") == ["画面", "同期"]  # Japanese: not cut so


def test_a_katakana_word_is_one_word_its_bigrams_share_another() -> None:
    assert _words("ショートカットを変更") == [
        ("ショートカット", 1.0),
        *((g, round(1 / 6, 3)) for g in ["ショ", "ョー", "ート", "トカ", "カッ", "ット"]),
        ("変更", 1.0),
    ]
    assert _words("ショートカット") == [("ショートカット", 1.0)]  # alone: as a substring


def test_a_han_character_alone_counts_half_a_korean_syllable_whole() -> None:
    assert _words("新しいノートを作る") == [
        ("新", 0.5),  # found in 更新, 最新 too: half a word
        ("ノート", 1.0),
        ("ノー", 0.5),
        ("ート", 0.5),
        ("作", 0.5),
    ]
    assert _words("창 배치를") == [("창", 1.0), ("배치", 1.0)]  # a Korean word between spaces


def test_a_bigram_across_a_word_boundary_counts_for_nothing(tmp_path: Path) -> None:
    for i in range(6):
        _note(tmp_path, f"n{i}.md", f"# 第{i}篇\n\n查看笔记。有多种笔记。\n")
    _note(tmp_path, "x.md", "# 其他\n\n记有一处。\n")
    units = parse_query("查看笔记有").units()
    assert [u.word for u in units] == ["查看", "看笔", "笔记", "记有"]
    with opened(vault_corpus(tmp_path), update=True) as (conn, _):
        rarity = rarities(conn, units)
    by_word = {u.word: rarity[u.docs] for u in units}
    assert by_word["看笔"] > 0 and by_word["笔记"] > 0  # 看笔: no rarer than both sides
    assert by_word["记有"] > 0  # at the end: kept
    units = parse_query("查看笔记有多").units()  # 记有 now between 笔记 and 有多
    with opened(vault_corpus(tmp_path), update=True) as (conn, _):
        rarity = rarities(conn, units)
    assert {u.word: rarity[u.docs] for u in units}["记有"] == 0.0


def test_a_katakana_compound_loses_the_bigram_between_its_words(tmp_path: Path) -> None:
    for i in range(4):
        _note(tmp_path, f"k{i}.md", f"# キー{i}\n\nキーボードとショートカット。\n")
    units = parse_query("キーボードショートカットを変更").units()
    with opened(vault_corpus(tmp_path), update=True) as (conn, _):
        rarity = rarities(conn, units)
    zero = {u.word for u in units if rarity[u.docs] == 0.0}
    assert zero == {"ドシ"}  # held by no note, between two that every note holds


def test_a_bigram_before_a_repeated_word_is_judged_at_its_place(tmp_path: Path) -> None:
    for i in range(6):
        _note(tmp_path, f"n{i}.md", f"# 第{i}篇\n\n链接。预览。\n")
    units = parse_query("链接预览链接").units()
    assert [u.word for u in units] == ["链接", "接预", "预览", "览链"]  # 链接 is kept once
    with opened(vault_corpus(tmp_path), update=True) as (conn, _):
        rarity = rarities(conn, units)
    by_word = {u.word: rarity[u.docs] for u in units}
    assert by_word["接预"] == 0.0
    assert by_word["览链"] == 0.0  # between 预览 and the second 链接, not at the run's end
    assert by_word["链接"] > 0 and by_word["预览"] > 0


def test_a_korean_word_counts_no_rarer_than_its_first_syllables(tmp_path: Path) -> None:
    for i in range(5):
        _note(tmp_path, f"v{i}.md", f"# 노트 {i}\n\n보관함에 저장하고 링크를 바꾸세요.\n")
    _note(tmp_path, "x.md", "# 기타\n\n보관소에서 링크한 것을 바꾼 다음.\n")
    assert _words("보관소 태그") == [("보관소", 1.0), ("보관", 0.25), ("관소", 0.25), ("태그", 1.0)]
    assert _words("빠르게 태그")[1] == ("빠른", 0.5)  # the attributive form: half a word
    units = parse_query("보관소 링크한 바꾸게").units()
    assert [u.word for u in units if u.stem] == [
        "보관소",
        "보관",
        "관소",
        "링크한",
        "링크",
        "크한",
        "바꾼",
    ]
    with opened(vault_corpus(tmp_path), update=True) as (conn, _):
        rarity = rarities(conn, units)
    by_word = {u.word: rarity[u.docs] for u in units}
    assert by_word["보관소"] == by_word["관소"] == by_word["보관"] < by_word["링크한"] + 1
    assert by_word["링크한"] == by_word["크한"] == by_word["링크"]
    assert by_word["바꾼"] == by_word["바꾸"]  # the attributive form: as its stem
    alone = parse_query("보관소").units()  # one word: its stem is counted for it
    with opened(vault_corpus(tmp_path), update=True) as (conn, _):
        assert rarities(conn, alone)[alone[0].docs] == by_word["보관"]


def test_a_chance_holder_of_a_rare_korean_form_does_not_win(tmp_path: Path) -> None:
    for i in range(8):
        text = f"# 노트 {i}\n\n보관함의 노트와 태그를 저장해요. 긴 문장이 여기에 있어요.\n"
        _note(tmp_path, f"n{i}.md", text)
    _note(
        tmp_path, "태그.md", "# 태그 패널\n\n보관함의 모든 태그와 각 태그의 노트 수를 보여 줘요.\n"
    )
    _note(
        tmp_path,
        "들여오기.md",
        "# 들여오기\n\n다른 보관소의 노트를 들여와요. 태그도 그대로 와요.\n",
    )
    hits = search_folder(tmp_path, "보관소의 모든 태그와 태그 노트 수를 보려면", Filters()).hits
    assert hits[0].path == "태그.md"  # 보관소 counts as 보관, which both hold


def test_a_conjunction_inside_a_chinese_word_is_not_a_cut(tmp_path: Path) -> None:
    assert cjk_pieces("参与") == ["参与"]  # participate: 与 is part of the word
    assert cjk_pieces("涉及项目") == ["涉及项目"]
    assert cjk_pieces("标题和列表与链接") == ["标题", "列表", "链接"]
    _note(tmp_path, "a.md", "# 甲\n\n欢迎参与项目。\n")
    _note(tmp_path, "b.md", "# 乙\n\n参考资料。\n")
    hits = search_folder(tmp_path, "参与", Filters()).hits
    assert [h.path for h in hits if h.complete] == ["a.md"]  # the substring guarantee


def test_a_short_latin_word_glued_to_cjk_text_is_found(tmp_path: Path) -> None:
    assert glued_words("CSS는 스타일, Webビューアー, plain words, 中文abc") == ["CSS", "Web", "abc"]
    _note(tmp_path, "a.md", "# 가\n\nCSS는 스타일을 바꿔요.\n")
    _note(tmp_path, "b.md", "# ビューアー\n\nWebビューアーで開く。\n")
    _note(tmp_path, "c.md", "# 다\n\nThe css of a theme.\n")
    assert sorted(h.path for h in search_folder(tmp_path, "CSS", Filters()).hits) == [
        "a.md",
        "c.md",
    ]
    hits = search_folder(tmp_path, "CSS는", Filters()).hits
    assert sorted(h.path for h in hits if h.complete) == ["a.md", "c.md"]  # the particle: left out
    web = search_folder(tmp_path, "web", Filters()).hits
    assert [h.path for h in web] == ["b.md"]
    assert web[0].snippet == "Webビューアーで開く。"  # the note's own text, as written
