"""A third held-out set for the recall benchmark, written after ``recall_fresh.py`` had been
read while tuning: 12 more topics of Obsidian's help vault, none named by the other sets, each
asked the way a model asks, in English, Korean, Chinese and Japanese (stdlib only).

Written and committed before any ranking change of its round was tried, the right notes
picked by reading them, never by running a search: a change is kept only if this set does not
fall. Right notes are named by ``permalink`` frontmatter, as in ``recall_queries.py``; no text
of the vault is copied here.
"""

from __future__ import annotations

from benchmarks.recall_queries import LANGUAGES, Case, Questions, question_cases

FRESH2 = "fresh2"  # the form of these cases, reported apart from the other sets

# permalink(s) -> {language: question}
TOPICS: Questions = (
    (
        ("bases/views/map",),
        {
            "en": "Can I show my notes as pins on a map using a location property?",
            "ko": "위치 속성을 이용해서 노트를 지도 위에 표시할 수 있나요?",
            "zh": "能不能根据位置属性把笔记显示在地图上？",
            "ja": "位置のプロパティを使ってノートを地図上に表示できますか？",
        },
    ),
    (
        ("plugins/file-explorer",),
        {
            "en": "How do I sort the files in the file explorer by modified time?",
            "ko": "파일 탐색기에서 파일을 수정한 시간순으로 정렬하려면 어떻게 하나요?",
            "zh": "怎样让文件列表里的文件按修改时间排序？",
            "ja": "ファイルエクスプローラーでファイルを更新日時順に並べ替えるには？",
        },
    ),
    (
        ("embed-web-pages",),
        {
            "en": "How do I put a YouTube video or another website inside a note?",
            "ko": "노트 안에 유튜브 동영상이나 다른 웹사이트를 넣으려면 어떻게 해야 하나요?",
            "zh": "怎么在笔记里嵌入一个 YouTube 视频或者别的网站？",
            "ja": "ノートの中にYouTube動画や他のウェブサイトを埋め込む方法は？",
        },
    ),
    (
        ("web-clipper/reader",),
        {
            "en": "Does the Web Clipper have a clutter-free view for reading articles?",
            "ko": "Web Clipper에 광고 없이 기사만 깔끔하게 읽을 수 있는 모드가 있나요?",
            "zh": "网页剪藏器有没有去掉杂乱内容、只看正文的阅读模式？",
            "ja": "Web Clipperに記事だけをすっきり読めるモードはありますか？",
        },
    ),
    (
        ("web-clipper/interpreter",),
        {
            "en": "Can the Web Clipper use an AI model to summarize a page before I save it?",
            "ko": "Web Clipper가 AI 모델로 페이지를 요약해서 저장할 수 있나요?",
            "zh": "网页剪藏器能用 AI 模型先总结网页再保存吗？",
            "ja": "Web ClipperでAIモデルを使ってページを要約してから保存できますか？",
        },
    ),
    (
        ("publish/seo",),
        {
            "en": "How do I get my Publish site to show up in Google, and where is its sitemap?",
            "ko": "Publish 사이트가 구글 검색에 나오게 하려면 어떻게 하고, 사이트맵은 어디 있나요?",
            "zh": "怎样让我的 Publish 网站出现在谷歌搜索结果里？站点地图在哪里？",
            "ja": "Publishのサイトをグーグル検索に表示させるには？サイトマップはどこですか？",
        },
    ),
    (
        ("publish/social-share",),
        {
            "en": "Which image appears when someone shares a link to my published note "
            "on social media, and can I pick it?",
            "ko": "누군가 SNS에 내 게시된 노트 링크를 공유하면 어떤 이미지가 보이고, "
            "직접 정할 수 있나요?",
            "zh": "别人在社交媒体上分享我发布的笔记链接时显示哪张图片？我能自己指定吗？",
            "ja": "公開したノートのリンクがSNSで共有されたとき表示される画像は自分で選べますか？",
        },
    ),
    (
        ("plugin-security",),
        {
            "en": "Is it risky to install third-party plugins, and what does restricted mode do?",
            "ko": "서드파티 플러그인을 설치해도 위험하지 않나요? 제한 모드는 무엇을 하나요?",
            "zh": "安装第三方插件有风险吗？安全模式是做什么的？",
            "ja": "サードパーティ製のプラグインを入れても危なくないですか？"
            "制限モードとは何ですか？",
        },
    ),
    (
        ("language",),
        {
            "en": "How do I switch the app's interface to another language?",
            "ko": "앱 화면을 다른 언어로 바꾸려면 어떻게 하나요?",
            "zh": "怎么把软件界面切换成其他语言？",
            "ja": "アプリの表示言語を別の言語に切り替えるにはどうすればいいですか？",
        },
    ),
    (
        ("import/notion",),
        {
            "en": "Can I move my Notion workspace with its databases over to Obsidian?",
            "ko": "Notion 워크스페이스를 데이터베이스까지 Obsidian으로 옮길 수 있나요?",
            "zh": "可以把 Notion 的工作区连同数据库一起搬到 Obsidian 吗？",
            "ja": "Notionのワークスペースをデータベースごとobsidianに移行できますか？",
        },
    ),
    (
        ("data-storage",),
        {
            "en": "Are my notes kept as plain text files on my own computer or in a database?",
            "ko": "내 노트는 내 컴퓨터에 일반 텍스트 파일로 저장되나요, "
            "아니면 데이터베이스에 저장되나요?",
            "zh": "我的笔记是以纯文本文件保存在自己电脑上，还是存在数据库里？",
            "ja": "ノートは自分のパソコンにプレーンテキストのファイルとして保存されますか？",
        },
    ),
    (
        ("editing-shortcuts",),
        {
            "en": "What are the default keyboard shortcuts for moving the cursor "
            "and selecting text?",
            "ko": "커서를 옮기고 텍스트를 선택하는 기본 키보드 단축키는 무엇인가요?",
            "zh": "移动光标和选择文本的默认键盘快捷键有哪些？",
            "ja": "カーソル移動やテキスト選択の標準のキーボードショートカットは何ですか？",
        },
    ),
)


def cases(languages: tuple[str, ...] = LANGUAGES) -> list[Case]:
    """Every question of the second fresh set in ``languages``."""
    return question_cases(FRESH2, TOPICS, languages)
