"""Held-out questions for the recall benchmark: other notes of Obsidian's help vault than
``recall_queries.py`` names, asked the way a model asks, in English, Korean, Chinese and
Japanese (stdlib only).

Written before any ranking change was tried on them and never used to tune one: a change to
ranking or tokenising is kept only if it lifts both this set and ``recall_queries.py``. Right
notes are named by ``permalink`` frontmatter, as there. No text of the vault is copied here.
"""

from __future__ import annotations

from benchmarks.recall_queries import LANGUAGES, Case, Questions, question_cases

HELDOUT = "held-out"  # the form of these cases, reported apart from the main set

# permalink(s) -> {language: question}
TOPICS: Questions = (
    (
        ("plugins/word-count",),
        {
            "en": "How can I see how many words are in my note?",
            "ko": "노트에 단어가 몇 개인지 어떻게 볼 수 있나요?",
            "zh": "怎么查看笔记有多少个字？",
            "ja": "ノートの単語数を確認するにはどうすればいいですか？",
        },
    ),
    (
        ("plugins/quick-switcher",),
        {
            "en": "How do I jump to another note quickly by typing its name?",
            "ko": "이름을 입력해서 다른 노트로 빠르게 이동하려면 어떻게 하나요?",
            "zh": "如何通过输入名称快速跳转到另一篇笔记？",
            "ja": "名前を入力して別のノートにすばやく移動するには？",
        },
    ),
    (
        ("plugins/command-palette",),
        {
            "en": "How can I run a command when I don't remember its shortcut?",
            "ko": "단축키를 모를 때 명령을 실행하려면 어떻게 하나요?",
            "zh": "不记得快捷键时怎么执行命令？",
            "ja": "ショートカットを覚えていないときにコマンドを実行するには？",
        },
    ),
    (
        ("plugins/file-recovery", "sync/version-history"),
        {
            "en": "How do I get back an earlier version of a note I overwrote by mistake?",
            "ko": "실수로 덮어쓴 노트의 이전 버전을 되살리려면 어떻게 하나요?",
            "zh": "不小心覆盖了笔记，怎么恢复之前的版本？",
            "ja": "誤って上書きしたノートの以前の状態を復元するには？",
        },
    ),
    (
        ("plugins/outline",),
        {
            "en": "Where can I see a list of all the headings in the current note?",
            "ko": "현재 노트의 모든 제목 목록을 어디서 볼 수 있나요?",
            "zh": "在哪里可以看到当前笔记的所有标题列表？",
            "ja": "今のノートの見出しの一覧はどこで見られますか？",
        },
    ),
    (
        ("plugins/random-note",),
        {
            "en": "Is there a way to open a random note from my vault?",
            "ko": "보관함에서 아무 노트나 무작위로 열 수 있나요?",
            "zh": "有没有办法随机打开一篇笔记？",
            "ja": "保管庫からランダムにノートを開く方法はありますか？",
        },
    ),
    (
        ("plugins/workspaces",),
        {
            "en": "How do I save my layout of panes and switch back to it later?",
            "ko": "창 배치를 저장해 두었다가 나중에 다시 불러오려면?",
            "zh": "如何保存窗口布局，之后再切换回来？",
            "ja": "画面のレイアウトを保存して後で切り替えるには？",
        },
    ),
    (
        ("plugins/page-preview",),
        {
            "en": "Can I see what a linked note contains by hovering over the link?",
            "ko": "링크 위에 마우스를 올리면 연결된 노트 내용을 볼 수 있나요?",
            "zh": "鼠标悬停在链接上能预览链接的笔记吗？",
            "ja": "リンクにマウスを乗せてリンク先のノートをプレビューできますか？",
        },
    ),
    (
        ("plugins/unique-note",),
        {
            "en": "How do I create a new note named with the current date and time?",
            "ko": "현재 날짜와 시간으로 이름 붙은 새 노트를 만들려면?",
            "zh": "如何创建以当前时间戳命名的新笔记？",
            "ja": "現在の日時を名前にした新しいノートを作るには？",
        },
    ),
    (
        ("plugins/slides",),
        {
            "en": "How can I present my note as a slideshow?",
            "ko": "노트를 슬라이드쇼로 발표하려면 어떻게 하나요?",
            "zh": "怎么把笔记当作幻灯片来演示？",
            "ja": "ノートをスライドショーとして発表するには？",
        },
    ),
    (
        ("plugins/audio-recorder",),
        {
            "en": "How do I record a voice memo into my vault?",
            "ko": "음성 메모를 녹음해서 보관함에 넣으려면?",
            "zh": "如何录制语音备忘录保存到库里？",
            "ja": "音声メモを録音して保管庫に保存するには？",
        },
    ),
    (
        ("sync/plans",),
        {
            "en": "How much storage do I get with Sync and what happens when it is full?",
            "ko": "Sync 저장 공간은 얼마나 되고 가득 차면 어떻게 되나요?",
            "zh": "Sync 有多少存储空间，满了会怎样？",
            "ja": "Syncのストレージはどれくらいで、いっぱいになるとどうなりますか？",
        },
    ),
)


def cases(languages: tuple[str, ...] = LANGUAGES) -> list[Case]:
    """Every held-out question of ``languages``."""
    return question_cases(HELDOUT, TOPICS, languages)
