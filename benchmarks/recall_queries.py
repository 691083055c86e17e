"""Queries with known right notes for Obsidian's help vault, in English, Korean, Chinese and
Japanese, each asked as keywords and as the question a model writes (stdlib only).

A right note is named by its ``permalink`` frontmatter, which every translation of the help
vault keeps from the English note, so one answer holds in every language. A topic may accept
more than one note where the vault really answers it twice. Written for this benchmark from the
notes' subjects; no text of the vault is copied here.
"""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "ko", "zh", "ja")
FORMS = ("keywords", "question")


@dataclass(frozen=True, slots=True)
class Case:
    """One query: its language, its form, its text and the permalinks of the right notes."""

    lang: str
    form: str
    text: str
    right: tuple[str, ...]


# a set of questions alone: permalink(s) -> {language: question}
Questions = tuple[tuple[tuple[str, ...], dict[str, str]], ...]


def question_cases(form: str, topics: Questions, languages: tuple[str, ...]) -> list[Case]:
    """Every question of ``topics`` in ``languages``, as cases of ``form``."""
    return [
        Case(lang, form, by_lang[lang], right) for right, by_lang in topics for lang in languages
    ]


# permalink(s) -> {language: (keywords, question)}
TOPICS: tuple[tuple[tuple[str, ...], dict[str, tuple[str, str]]], ...] = (
    (
        ("callouts",),
        {
            "en": ("callout collapsible", "How do I make a callout collapsible?"),
            "ko": ("콜아웃 중첩", "콜아웃을 접을 수 있게 하려면 어떻게 하나요?"),
            "zh": ("可折叠标注", "如何让标注可以折叠？"),
            "ja": (
                "コールアウト 折りたたみ",
                "コールアウトを折りたたみ可能にするにはどうすればいいですか？",
            ),
        },
    ),
    (
        ("tags",),
        {
            "en": ("nested tags", "How can I add a tag to a note?"),
            "ko": ("중첩 태그", "태그를 어떻게 추가하나요?"),
            "zh": ("嵌套标签", "怎么给笔记添加标签？"),
            "ja": ("ネストされたタグ", "ノートにタグを追加するにはどうすればいいですか？"),
        },
    ),
    (
        ("aliases",),
        {
            "en": ("aliases", "How do I give a note another name so links find it?"),
            "ko": ("별칭", "노트에 별칭을 추가하려면 어떻게 해야 하나요?"),
            "zh": ("别名", "如何给笔记添加别名"),
            "ja": ("エイリアス", "ノートにエイリアスを追加する方法は？"),
        },
    ),
    (
        ("properties",),
        {
            "en": ("property types", "What kinds of property types can a note have?"),
            "ko": ("속성 유형", "노트에 속성을 어떻게 추가하나요?"),
            "zh": ("属性类型", "笔记的属性有哪些类型？"),
            "ja": ("プロパティ タイプ", "ノートにプロパティを追加するにはどうすればいいですか？"),
        },
    ),
    (
        ("embeds",),
        {
            "en": ("embed image note", "How do I embed one note inside another?"),
            "ko": ("임베드 이미지", "다른 노트를 노트 안에 임베드하는 방법은?"),
            "zh": ("插入图片", "如何在笔记中插入另一篇笔记？"),
            "ja": ("埋め込み 画像", "別のノートをノートの中に埋め込むには？"),
        },
    ),
    (
        ("links",),
        {
            "en": ("link heading block", "How can I link to a specific heading in another note?"),
            "ko": ("제목 링크 블록", "다른 노트의 특정 제목에 링크하려면 어떻게 하나요?"),
            "zh": ("链接 标题 块", "怎样链接到另一篇笔记中的某个标题？"),
            "ja": (
                "見出し リンク ブロック",
                "別のノートの特定の見出しにリンクするにはどうすればいいですか？",
            ),
        },
    ),
    (
        ("folding",),
        {
            "en": ("fold headings", "Can I collapse headings and lists while editing?"),
            "ko": ("제목 접기", "편집할 때 제목과 목록을 접을 수 있나요?"),
            "zh": ("折叠标题", "编辑时可以折叠标题和列表吗？"),
            "ja": ("見出し 折りたたみ", "編集中に見出しやリストを折りたためますか？"),
        },
    ),
    (
        ("hotkeys",),
        {
            "en": ("hotkeys", "How do I change a keyboard shortcut?"),
            "ko": ("단축키 설정", "키보드 단축키를 어떻게 바꾸나요?"),
            "zh": ("设置快捷键", "如何修改键盘快捷键？"),
            "ja": (
                "ホットキー 設定",
                "キーボードショートカットを変更するにはどうすればいいですか？",
            ),
        },
    ),
    (
        ("plugins/daily-notes",),
        {
            "en": ("daily note template", "How do I create a note for today automatically?"),
            "ko": ("일일 노트 템플릿", "매일 노트를 자동으로 만들려면 어떻게 하나요?"),
            "zh": ("日记 模板", "怎么每天自动创建一篇日记？"),
            "ja": ("デイリーノート テンプレート", "毎日のノートを自動で作成するには？"),
        },
    ),
    (
        ("plugins/templates",),
        {
            "en": ("template folder variables", "How do I insert a template with today's date?"),
            "ko": ("템플릿 변수", "현재 날짜가 들어간 템플릿을 삽입하려면?"),
            "zh": ("模板变量", "如何插入带有当前日期的模板？"),
            "ja": ("テンプレート 変数", "現在の日付を含むテンプレートを挿入するには？"),
        },
    ),
    (
        ("plugins/graph",),
        {
            "en": ("graph view filters", "How can I see how my notes are connected visually?"),
            "ko": ("그래프 뷰 필터", "노트들이 어떻게 연결되어 있는지 시각적으로 보려면?"),
            "zh": ("关系图谱 筛选", "怎样查看笔记之间的关系？"),
            "ja": ("グラフビュー フィルター", "ノート同士のつながりを視覚的に見るには？"),
        },
    ),
    (
        ("plugins/backlinks",),
        {
            "en": ("backlinks", "Which notes link to the note I am reading?"),
            "ko": ("백링크", "지금 보고 있는 노트에 링크한 노트는 어떤 것인가요?"),
            "zh": ("反向链接", "哪些笔记链接到了当前笔记？"),
            "ja": ("バックリンク", "今読んでいるノートにリンクしているノートはどれですか？"),
        },
    ),
    (
        ("plugins/file-recovery", "sync/version-history"),
        {
            "en": ("snapshot restore", "How do I get back a note I deleted by mistake?"),
            "ko": ("스냅샷 복원", "실수로 삭제한 노트를 되찾으려면 어떻게 하나요?"),
            "zh": ("恢复快照", "误删的笔记怎么找回？"),
            "ja": ("スナップショット 復元", "誤って削除したノートを取り戻すには？"),
        },
    ),
    (
        ("plugins/canvas",),
        {
            "en": ("canvas cards", "How do I add cards to a canvas?"),
            "ko": ("캔버스 카드", "캔버스에 카드를 추가하는 방법은?"),
            "zh": ("白板 卡片", "如何在白板上添加卡片？"),
            "ja": ("キャンバス カード", "キャンバスにカードを追加するには？"),
        },
    ),
    (
        ("sync/version-history",),
        {
            "en": ("sync version history", "How do I restore an older version of a synced note?"),
            "ko": ("버전 기록 동기화", "동기화된 노트의 이전 버전을 복원하려면?"),
            "zh": ("版本历史 同步", "如何恢复同步笔记的旧版本？"),
            "ja": ("バージョン履歴 同期", "同期したノートの古いバージョンを復元するには？"),
        },
    ),
    (
        ("publish/domains",),
        {
            "en": ("custom domain publish", "Can I use my own domain name for my Publish site?"),
            "ko": ("사용자 지정 도메인", "Publish 사이트에 내 도메인을 쓸 수 있나요?"),
            "zh": ("自定义域名", "可以为发布网站使用自己的域名吗？"),
            "ja": ("カスタムドメイン", "Publishサイトに独自ドメインを使えますか？"),
        },
    ),
    (
        ("snippets",),
        {
            "en": ("CSS snippets", "Where do I put my own CSS to change how Obsidian looks?"),
            "ko": ("CSS 스니펫", "외형을 바꾸는 내 CSS는 어디에 넣나요?"),
            "zh": ("CSS 代码片段", "在哪里添加自己的 CSS 来改变外观？"),
            "ja": ("CSSスニペット", "見た目を変えるための独自のCSSはどこに置きますか？"),
        },
    ),
    (
        ("themes",),
        {
            "en": ("install theme", "How do I install a new theme?"),
            "ko": ("테마 설치", "새 테마를 어떻게 설치하나요?"),
            "zh": ("安装主题", "怎么安装新的主题？"),
            "ja": ("テーマ インストール", "新しいテーマをインストールするには？"),
        },
    ),
    (
        ("manage-vaults",),
        {
            "en": ("move vault folder", "How do I move my vault to a different folder?"),
            "ko": ("보관함 이동", "보관함을 다른 폴더로 옮기려면 어떻게 하나요?"),
            "zh": ("移动仓库", "如何把仓库移动到其他文件夹？"),
            "ja": ("保管庫 移動", "保管庫を別のフォルダに移動するにはどうすればいいですか？"),
        },
    ),
    (
        ("backup",),
        {
            "en": ("backup external drive", "What is the best way to back up my notes?"),
            "ko": ("백업 외장 드라이브", "노트를 백업하는 가장 좋은 방법은 무엇인가요?"),
            "zh": ("备份 外置存储", "备份笔记的最好方法是什么？"),
            "ja": ("バックアップ 外部ドライブ", "ノートをバックアップする最良の方法は何ですか？"),
        },
    ),
    (
        ("import/evernote",),
        {
            "en": ("evernote enex", "How do I bring my notes over from Evernote?"),
            "ko": ("Evernote 들여오기", "Evernote에서 노트를 옮겨 오려면 어떻게 하나요?"),
            "zh": ("Evernote 导入", "怎样把笔记从 Evernote 迁移过来？"),
            "ja": ("Evernote インポート", "Evernoteからノートを移行するにはどうすればいいですか？"),
        },
    ),
    (
        ("multiple-cursors",),
        {
            "en": ("multiple cursors", "How can I edit several lines at the same time?"),
            "ko": ("다중 커서", "여러 줄을 동시에 편집하려면?"),
            "zh": ("多光标", "如何同时编辑多行文字？"),
            "ja": ("マルチカーソル", "複数の行を同時に編集するには？"),
        },
    ),
    (
        ("2fa",),
        {
            "en": ("two-factor authentication", "How do I turn on 2FA for my account?"),
            "ko": ("2단계 인증", "계정에 2FA를 켜려면 어떻게 하나요?"),
            "zh": ("两步验证", "怎么为账户开启两步验证？"),
            "ja": ("2要素認証", "アカウントで2FAを有効にするにはどうすればいいですか？"),
        },
    ),
    (
        ("plugins/bookmarks",),
        {
            "en": ("bookmark group", "How do I bookmark a file so I can find it quickly?"),
            "ko": ("북마크 그룹", "파일을 빨리 찾을 수 있게 북마크하려면?"),
            "zh": ("书签组", "如何收藏文件以便快速找到？"),
            "ja": (
                "ブックマーク グループ",
                "ファイルをすぐに見つけられるようにブックマークするには？",
            ),
        },
    ),
)


def cases(languages: tuple[str, ...] = LANGUAGES) -> list[Case]:
    """Every query of ``languages``, keywords and question forms."""
    out: list[Case] = []
    for right, by_lang in TOPICS:
        for lang in languages:
            keywords, question = by_lang[lang]
            out.append(Case(lang, "keywords", keywords, right))
            out.append(Case(lang, "question", question, right))
    return out
