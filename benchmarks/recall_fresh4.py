"""A fifth held-out set for the recall benchmark, written after ``recall_fresh3.py`` had been
read while tuning: 20 more topics of Obsidian's help vault, none named by the other sets and
spread over its sections, each asked the way a model or a user asks, in English, Korean,
Chinese and Japanese (stdlib only).

Written and committed before it was ever run, the right notes picked by reading them, never by
running a search; about half the questions use the note's own words, half describe the need in
other words. Right notes are named by ``permalink`` frontmatter, as in ``recall_queries.py``;
no text of the vault is copied here.
"""

from __future__ import annotations

from benchmarks.recall_queries import LANGUAGES, Case, Questions, question_cases

FRESH4 = "fresh4"  # the form of these cases, reported apart from the other sets

# permalink(s) -> {language: question}
TOPICS: Questions = (
    (
        ("bases/views/cards",),
        {
            "en": "How do I show the notes of a base as a grid of cards with a cover image?",
            "ko": "베이스에서 노트를 커버 이미지가 붙은 카드 형태로 보려면 어떻게 하나요?",
            "zh": "怎么让 Bases 里的笔记以带封面图的卡片网格显示？",
            "ja": "ベースのノートをカバー画像付きのカードで並べて表示するには？",
        },
    ),
    (
        ("import/onenote",),
        {
            "en": "My OneNote notebooks are only on my PC and were never synced to OneDrive. "
            "Can I still move them into Obsidian?",
            "ko": "OneNote 노트북이 제 PC에만 있고 OneDrive에 동기화한 적이 없어요. "
            "그래도 Obsidian으로 옮길 수 있나요?",
            "zh": "我的 OneNote 笔记本只存在电脑上，从来没同步到 OneDrive，还能搬到 Obsidian 吗？",
            "ja": "OneNoteのノートブックがPCにしかなく、OneDriveに同期したこともありません。"
            "それでもObsidianに移せますか？",
        },
    ),
    (
        ("import/csv",),
        {
            "en": "I keep a list of books in a spreadsheet saved as CSV. Can each row "
            "become a note of its own?",
            "ko": "엑셀로 정리한 책 목록을 CSV로 저장해 뒀는데, 행마다 노트 하나씩 만들 수 있나요?",
            "zh": "我有一份导出成 CSV 的表格，能把每一行都变成一篇单独的笔记吗？",
            "ja": "表計算ソフトから書き出したCSVがあります。1行ずつ別々のノートにできますか？",
        },
    ),
    (
        ("import/google-keep",),
        {
            "en": "How do I import my Google Keep notes, and do checklists keep their indentation?",
            "ko": "Google Keep 메모를 가져오려면 어떻게 하나요? 체크리스트 들여쓰기도 그대로 "
            "유지되나요?",
            "zh": "怎么导入 Google Keep 里的笔记？清单的缩进会保留吗？",
            "ja": "Google Keepのメモをインポートするには？チェックリストのインデントは残りますか？",
        },
    ),
    (
        ("publish/media",),
        {
            "en": "Which image formats work best for images I upload to my Publish site?",
            "ko": "Publish 사이트에 이미지를 올릴 때 어떤 형식을 쓰는 게 가장 좋나요?",
            "zh": "往 Publish 网站上传图片，用什么格式最好？",
            "ja": "Publishサイトに画像をアップロードするなら、どの形式がおすすめですか？",
        },
    ),
    (
        ("publish/limitations",),
        {
            "en": "Why do my Dataview tables show in the app but not on my published site?",
            "ko": "앱에서는 잘 보이는 Dataview 표가 왜 게시한 사이트에서는 안 나오나요?",
            "zh": "为什么 Dataview 生成的表格在应用里能看到，发布到网站上就不显示了？",
            "ja": "アプリでは表示されるDataviewの表が、公開したサイトに出てこないのはなぜ？",
        },
    ),
    (
        ("publish/collaborate",),
        {
            "en": "Can a coworker push changes to my published site without paying for "
            "Publish themselves?",
            "ko": "동료가 Publish를 따로 결제하지 않아도 제 사이트에 변경 사항을 올릴 수 있나요?",
            "zh": "同事自己不买 Publish，也能往我的网站上发布修改吗？",
            "ja": "同僚が自分でPublishを契約しなくても、私のサイトに変更を公開できますか？",
        },
    ),
    (
        ("sync/collaborate",),
        {
            "en": "How do I invite another user to a shared remote vault, and can we both "
            "edit the same note live?",
            "ko": "원격 보관함을 다른 사람과 공유하려면 어떻게 초대하나요? 같은 노트를 동시에 "
            "편집할 수도 있나요?",
            "zh": "怎么邀请别人共享我的远程仓库？两个人能同时实时编辑同一篇笔记吗？",
            "ja": "リモート保管庫を共有するにはどうやって招待しますか？"
            "同じノートを同時に編集できますか？",
        },
    ),
    (
        ("sync/security",),
        {
            "en": "What happens if I forget my Sync encryption password?",
            "ko": "Sync 암호화 비밀번호를 잊어버리면 어떻게 되나요?",
            "zh": "忘了 Sync 的加密密码会怎么样？",
            "ja": "Syncの暗号化パスワードを忘れたらどうなりますか？",
        },
    ),
    (
        ("refunds",),
        {
            "en": "I paid for Sync a few days ago and changed my mind. Can I get my money back?",
            "ko": "며칠 전에 Sync를 결제했는데 마음이 바뀌었어요. 돈을 돌려받을 수 있나요?",
            "zh": "前几天买了 Sync，现在不想用了，钱能退回来吗？",
            "ja": "数日前にSyncを購入しましたが、やっぱりやめたいです。お金は戻ってきますか？",
        },
    ),
    (
        ("sales-tax",),
        {
            "en": "Where do I enter my VAT number so I'm not charged tax?",
            "ko": "세금이 붙지 않게 하려면 VAT 번호를 어디에 입력하나요?",
            "zh": "在哪里填增值税号才能不被收税？",
            "ja": "税金がかからないようにするには、VAT番号をどこで登録しますか？",
        },
    ),
    (
        ("early-access",),
        {
            "en": "Can I try new features before they're officially released?",
            "ko": "정식 출시 전에 새 기능을 미리 써 볼 수 있나요?",
            "zh": "能不能在正式发布之前抢先用上新功能？",
            "ja": "正式リリースの前に新機能を先に試すことはできますか？",
        },
    ),
    (
        ("drag-and-drop",),
        {
            "en": "When I drag a file from my computer's file manager into a note, is it "
            "copied into the vault or only linked?",
            "ko": "컴퓨터 파일 탐색기에서 파일을 노트로 끌어오면 보관함에 복사되나요, "
            "아니면 링크만 걸리나요?",
            "zh": "从电脑的文件管理器把文件拖进笔记，是复制到仓库里，还是只加一个链接？",
            "ja": "パソコンのエクスプローラーからファイルをノートに引っ張ってくると、"
            "保管庫にコピーされますか？それともリンクだけですか？",
        },
    ),
    (
        ("sidebar",),
        {
            "en": "On my phone the sidebars are hidden. How do I open them?",
            "ko": "휴대폰에서는 사이드바가 숨겨져 있는데 어떻게 여나요?",
            "zh": "手机上侧边栏是隐藏的，怎么把它打开？",
            "ja": "スマホだとサイドバーが隠れています。どうやって開きますか？",
        },
    ),
    (
        ("teams/deploy",),
        {
            "en": "Can we stop people on our team from changing the plugins and settings we "
            "roll out with Obsidian?",
            "ko": "회사에서 배포한 Obsidian의 플러그인이나 설정을 팀원들이 마음대로 바꾸지 "
            "못하게 할 수 있나요?",
            "zh": "能不能不让团队成员随便改我们统一配置好的 Obsidian 插件和设置？",
            "ja": "チームに配布したObsidianのプラグインや設定を、メンバーが勝手に変えられない"
            "ようにできますか？",
        },
    ),
    (
        ("web-clipper/logic",),
        {
            "en": "Can I use if and else conditions in a Web Clipper template?",
            "ko": "Web Clipper 템플릿에서 if/else 조건문을 쓸 수 있나요?",
            "zh": "Web Clipper 模板里能写 if/else 条件判断吗？",
            "ja": "Web Clipperのテンプレートでif/elseの条件分岐は使えますか？",
        },
    ),
    (
        ("updates",),
        {
            "en": "Obsidian says I need a newer installer. Do I have to uninstall the app first?",
            "ko": "Obsidian이 설치 파일을 새로 받아야 한다고 하는데, 먼저 앱을 지워야 하나요?",
            "zh": "Obsidian 提示我要装新版安装包，需要先把旧的卸载掉吗？",
            "ja": "Obsidianに新しいインストーラーが必要と言われました。"
            "先にアンインストールすべきですか？",
        },
    ),
    (
        ("ios",),
        {
            "en": "Can I put an Obsidian widget on my iPhone's Lock Screen to create a new note?",
            "ko": "아이폰 잠금 화면에 새 노트를 만드는 Obsidian 위젯을 넣을 수 있나요?",
            "zh": "能在 iPhone 锁屏上放一个新建笔记的 Obsidian 小组件吗？",
            "ja": "iPhoneのロック画面に、新規ノートを作るObsidianのウィジェットを置けますか？",
        },
    ),
    (
        ("translations",),
        {
            "en": "Spanish is my first language. How can I help bring the app's interface "
            "into Spanish?",
            "ko": "Obsidian 화면에 어색하게 번역된 문구가 보여요. 한국어 번역에 직접 "
            "참여하려면 어떻게 해야 하나요?",
            "zh": "发现 Obsidian 界面里有些中文翻译不太对，想帮忙改进，该怎么参与？",
            "ja": "Obsidianの画面の日本語訳に誤りを見つけました。翻訳の改善に協力するには"
            "どうすればいいですか？",
        },
    ),
    (
        ("credit",),
        {
            "en": "I'd like to give a friend a year of Sync as a present. How do I do that?",
            "ko": "친구에게 Sync 1년 이용권을 선물하고 싶은데 어떻게 하나요?",
            "zh": "我想送朋友一年的 Sync 当礼物，要怎么操作？",
            "ja": "友達にSyncを1年分プレゼントしたいのですが、どうすればいいですか？",
        },
    ),
)


def cases(languages: tuple[str, ...] = LANGUAGES) -> list[Case]:
    """Every question of the fourth fresh set in ``languages``."""
    return question_cases(FRESH4, TOPICS, languages)
