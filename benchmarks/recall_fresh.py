"""A second held-out set for the recall benchmark, written after the first one had been read
while tuning: 18 more topics of Obsidian's help vault, none named by ``recall_queries.py`` or
``recall_heldout.py``, each asked the way a model asks, in English, Korean, Chinese and
Japanese (stdlib only).

Written and committed before any ranking change of its round was tried, and never used to
pick one: a change is judged by this set and the first held-out set together. Right notes are
named by ``permalink`` frontmatter, as in ``recall_queries.py``; no text of the vault is copied
here.
"""

from __future__ import annotations

from benchmarks.recall_queries import LANGUAGES, Case, Questions, question_cases

FRESH = "fresh"  # the form of these cases, reported apart from the other sets

# permalink(s) -> {language: question}
TOPICS: Questions = (
    (
        ("plugins/footnotes",),
        {
            "en": "Is there a panel that lists all the footnotes in the note I'm editing?",
            "ko": "편집 중인 노트의 모든 각주를 한눈에 보여 주는 패널이 있나요?",
            "zh": "有没有能列出当前笔记所有脚注的面板？",
            "ja": "編集中のノートの脚注を一覧で表示するパネルはありますか？",
        },
    ),
    (
        ("pop-out-windows",),
        {
            "en": "How can I open a note in its own separate window?",
            "ko": "노트를 별도의 창으로 열려면 어떻게 하나요?",
            "zh": "如何在单独的窗口中打开笔记？",
            "ja": "ノートを別のウィンドウで開くにはどうすればいいですか？",
        },
    ),
    (
        ("plugins/note-composer",),
        {
            "en": "How do I merge two notes into one without breaking links to them?",
            "ko": "링크가 깨지지 않게 두 노트를 하나로 합치려면 어떻게 하나요?",
            "zh": "如何把两篇笔记合并成一篇，同时不破坏指向它们的链接？",
            "ja": "リンクを壊さずに2つのノートを1つに統合するには？",
        },
    ),
    (
        ("plugins/slash-commands",),
        {
            "en": "Can I run a command by typing a slash while I'm writing?",
            "ko": "글을 쓰다가 슬래시를 입력해서 명령을 실행할 수 있나요?",
            "zh": "写作时可以输入斜杠来执行命令吗？",
            "ja": "書いている途中でスラッシュを入力してコマンドを実行できますか？",
        },
    ),
    (
        ("symlinks",),
        {
            "en": "Is it safe to use symlinks to keep some files outside my vault folder?",
            "ko": "심볼릭 링크로 일부 파일을 보관소 폴더 밖에 두어도 안전한가요?",
            "zh": "用符号链接把一些文件放在仓库文件夹之外安全吗？",
            "ja": "シンボリックリンクで一部のファイルを保管庫の外に置いても大丈夫ですか？",
        },
    ),
    (
        ("plugins/web-viewer",),
        {
            "en": "Can I browse web pages inside Obsidian instead of switching to my browser?",
            "ko": "브라우저로 전환하지 않고 Obsidian 안에서 웹 페이지를 볼 수 있나요?",
            "zh": "能否在 Obsidian 里直接浏览网页，而不用切换到浏览器？",
            "ja": "ブラウザに切り替えずにObsidianの中でWebページを見られますか？",
        },
    ),
    (
        ("sync/region",),
        {
            "en": "How do I move my synced vault to a server in a different region?",
            "ko": "동기화된 보관소를 다른 지역의 서버로 옮기려면 어떻게 하나요?",
            "zh": "如何把同步的仓库迁移到其他地区的服务器？",
            "ja": "同期している保管庫を別の地域のサーバーに移すには？",
        },
    ),
    (
        ("plugins/format-converter",),
        {
            "en": "How do I convert Markdown written in other apps to Obsidian's format "
            "across my whole vault?",
            "ko": "다른 앱에서 쓴 마크다운을 보관소 전체에서 Obsidian 형식으로 "
            "변환하려면 어떻게 하나요?",
            "zh": "怎么把整个仓库里其他应用写的 Markdown 转换成 Obsidian 的格式？",
            "ja": "他のアプリで書いたMarkdownを保管庫全体でObsidianの形式に変換するには？",
        },
    ),
    (
        ("web-clipper/highlight",),
        {
            "en": "How do I highlight text on a web page and keep the highlights in Obsidian?",
            "ko": "웹 페이지의 텍스트에 하이라이트를 하고 Obsidian에 저장하려면 어떻게 하나요?",
            "zh": "如何在网页上高亮文字并把高亮保存到 Obsidian？",
            "ja": "Webページのテキストをハイライトして Obsidian に保存するには？",
        },
    ),
    (
        ("uri",),
        {
            "en": "How can another app open a specific note in Obsidian with a link?",
            "ko": "다른 앱에서 링크로 Obsidian의 특정 노트를 열 수 있나요?",
            "zh": "其他应用如何通过链接打开 Obsidian 中的某篇笔记？",
            "ja": "他のアプリからリンクでObsidianの特定のノートを開くには？",
        },
    ),
    (
        ("plugins/outgoing-links",),
        {
            "en": "Where can I see all the links going out from the note I have open?",
            "ko": "열려 있는 노트에서 나가는 링크를 모두 어디서 볼 수 있나요?",
            "zh": "在哪里可以看到当前打开的笔记里链接出去的所有链接？",
            "ja": "開いているノートから出ているリンクをすべて確認できる場所は？",
        },
    ),
    (
        ("status-bar",),
        {
            "en": "What is the strip of information in the bottom right corner of the window?",
            "ko": "창 오른쪽 아래 구석에 표시되는 정보 줄은 무엇인가요?",
            "zh": "窗口右下角显示信息的那一栏是什么？",
            "ja": "ウィンドウの右下に表示されている情報のバーは何ですか？",
        },
    ),
    (
        ("configuration-folder",),
        {
            "en": "Where does Obsidian keep a vault's settings files, "
            "and can I rename that folder?",
            "ko": "Obsidian은 보관소의 설정 파일을 어디에 두고, 그 폴더 이름을 바꿀 수 있나요?",
            "zh": "Obsidian 把仓库的设置文件放在哪里？那个文件夹可以改名吗？",
            "ja": "Obsidianは保管庫の設定ファイルをどこに保存しますか？"
            "そのフォルダ名は変えられますか？",
        },
    ),
    (
        ("attachments",),
        {
            "en": "Where do images I paste into a note get saved, and how do I change that folder?",
            "ko": "노트에 붙여 넣은 이미지는 어디에 저장되고, 그 폴더를 어떻게 바꾸나요?",
            "zh": "粘贴到笔记里的图片保存在哪里？怎么更改那个文件夹？",
            "ja": "ノートに貼り付けた画像はどこに保存され、その保存先はどう変えますか？",
        },
    ),
    (
        ("publish/analytics",),
        {
            "en": "Can I track how many people visit my Obsidian Publish site?",
            "ko": "Obsidian Publish 사이트의 방문자 수를 추적할 수 있나요?",
            "zh": "能统计我的 Obsidian Publish 网站有多少访客吗？",
            "ja": "Obsidian Publishのサイトの訪問者数を計測できますか？",
        },
    ),
    (
        ("publish/permalinks",),
        {
            "en": "How do I change the URL of a page on my published site?",
            "ko": "게시한 사이트에서 페이지의 URL을 바꾸려면 어떻게 하나요?",
            "zh": "如何更改已发布网站上某个页面的网址？",
            "ja": "公開サイトのページのURLを変更するには？",
        },
    ),
    (
        ("plugins/tags",),
        {
            "en": "How can I see every tag in my vault with the number of notes that use it?",
            "ko": "보관소의 모든 태그와 각 태그를 쓰는 노트 수를 어떻게 볼 수 있나요?",
            "zh": "怎么查看仓库里所有标签以及每个标签对应的笔记数量？",
            "ja": "保管庫のすべてのタグと、それぞれを使っているノートの数を見るには？",
        },
    ),
    (
        ("ribbon",),
        {
            "en": "How can I hide or reorder the icons on the toolbar "
            "at the left edge of the window?",
            "ko": "창 왼쪽 가장자리 도구 모음의 아이콘을 숨기거나 순서를 바꾸려면 어떻게 하나요?",
            "zh": "如何隐藏或重新排列窗口左侧工具栏上的图标？",
            "ja": "ウィンドウ左端のツールバーのアイコンを非表示にしたり並べ替えたりするには？",
        },
    ),
)


def cases(languages: tuple[str, ...] = LANGUAGES) -> list[Case]:
    """Every fresh question of ``languages``."""
    return question_cases(FRESH, TOPICS, languages)
