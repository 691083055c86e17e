"""A fourth held-out set for the recall benchmark, written after ``recall_fresh2.py`` had been
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

FRESH3 = "fresh3"  # the form of these cases, reported apart from the other sets

# permalink(s) -> {language: question}
TOPICS: Questions = (
    (
        ("plugins/search",),
        {
            "en": "How can I find notes that mention one word but leave out the ones "
            "that also mention another word?",
            "ko": "어떤 단어는 들어 있고 다른 단어는 없는 노트만 찾으려면 어떻게 해야 하나요?",
            "zh": "怎样只找出包含某个词、但不包含另一个词的笔记？",
            "ja": "ある単語を含み、別の単語を含まないノートだけを探すにはどうすればいいですか？",
        },
    ),
    (
        ("sync/settings",),
        {
            "en": "How do I exclude a folder from syncing with Obsidian Sync?",
            "ko": "Obsidian Sync에서 특정 폴더를 동기화에서 제외하려면 어떻게 하나요?",
            "zh": "怎么在 Obsidian Sync 里把某个文件夹排除在同步之外？",
            "ja": "Obsidian Syncで特定のフォルダを同期の対象から外すにはどうすればいいですか？",
        },
    ),
    (
        ("sync/messages",),
        {
            "en": "What does it mean when the sync icon at the bottom of the window turns red?",
            "ko": "창 아래쪽에 있는 동기화 아이콘이 빨간색으로 바뀌면 무슨 뜻인가요?",
            "zh": "窗口底部的同步图标变成红色是什么意思？",
            "ja": "ウィンドウ下部の同期アイコンが赤くなったのはどういう意味ですか？",
        },
    ),
    (
        ("sync/headless", "headless"),
        {
            "en": "Is there a way to keep a vault synced on a Linux server where the desktop "
            "app isn't installed?",
            "ko": "데스크톱 앱이 설치되지 않은 리눅스 서버에서도 보관함을 계속 동기화할 "
            "방법이 있나요?",
            "zh": "有没有办法在没装桌面应用的 Linux 服务器上保持仓库同步？",
            "ja": "デスクトップアプリを入れていないLinuxサーバーで保管庫を同期し続ける方法は"
            "ありますか？",
        },
    ),
    (
        ("publish/security",),
        {
            "en": "Can I make my published site private so only people I give a password to "
            "can open it?",
            "ko": "게시한 사이트를 비공개로 해서 비밀번호를 알려 준 사람만 볼 수 있게 "
            "할 수 있나요?",
            "zh": "能不能把发布的网站设成私密的，只让我给了密码的人访问？",
            "ja": "公開したサイトを非公開にして、パスワードを教えた人だけが"
            "見られるようにできますか？",
        },
    ),
    (
        ("publish/customize",),
        {
            "en": "How do I add a favicon and my own CSS to my Publish site?",
            "ko": "Publish 사이트에 파비콘과 직접 만든 CSS를 넣으려면 어떻게 하나요?",
            "zh": "怎么给我的 Publish 网站加上网站图标（favicon）和自定义 CSS？",
            "ja": "Publishのサイトにファビコンや独自のCSSを追加するにはどうすればいいですか？",
        },
    ),
    (
        ("formulas",),
        {
            "en": "In a base, how can I add a column that works out a value from other "
            "properties, like price times quantity?",
            "ko": "베이스에서 가격 곱하기 수량처럼 다른 속성 값으로 계산한 열을 추가하려면 "
            "어떻게 하나요?",
            "zh": "在 Base 里怎么加一列，用其他属性算出值来，比如价格乘以数量？",
            "ja": "ベースで、価格×数量のようにほかのプロパティから値を計算する列を"
            "追加するにはどうすればいいですか？",
        },
    ),
    (
        ("bases/views/table",),
        {
            "en": "Can a base table show the total or the average of a column at the bottom?",
            "ko": "베이스 표에서 열 맨 아래에 합계나 평균을 표시할 수 있나요?",
            "zh": "Base 的表格能在某一列底部显示合计或平均值吗？",
            "ja": "ベースの表で、列の一番下に合計や平均を表示できますか？",
        },
    ),
    (
        ("web-clipper/templates",),
        {
            "en": "How do I make Web Clipper use a particular template automatically when I "
            "clip pages from a certain website?",
            "ko": "특정 웹사이트에서 클리핑할 때 Web Clipper가 자동으로 정해 둔 템플릿을 쓰게 "
            "하려면 어떻게 하나요?",
            "zh": "怎样让网页剪藏器在剪藏某个网站的页面时自动使用指定的模板？",
            "ja": "特定のサイトのページをクリップするとき、Web Clipperで決まったテンプレートが"
            "自動で使われるようにするには？",
        },
    ),
    (
        ("web-clipper/filters",),
        {
            "en": "How do I change the date format of a variable in a Web Clipper template?",
            "ko": "Web Clipper 템플릿에서 변수의 날짜 형식을 바꾸려면 어떻게 하나요?",
            "zh": "在网页剪藏器模板里，怎么修改变量的日期格式？",
            "ja": "Web Clipperのテンプレートで変数の日付形式を変えるにはどうすればいいですか？",
        },
    ),
    (
        ("cli",),
        {
            "en": "Can I write a shell script that creates notes and searches my vault "
            "through the running Obsidian app?",
            "ko": "실행 중인 Obsidian 앱을 통해 노트를 만들고 볼트를 검색하는 셸 스크립트를 "
            "작성할 수 있나요?",
            "zh": "我能不能写个 shell 脚本，通过正在运行的 Obsidian 来新建笔记、搜索仓库？",
            "ja": "起動中のObsidianを使ってノートを作成したり保管庫を検索したりする"
            "シェルスクリプトは書けますか？",
        },
    ),
    (
        ("settings",),
        {
            "en": "Where do I change which languages the spellchecker uses?",
            "ko": "맞춤법 검사에 사용할 언어는 어디에서 바꾸나요?",
            "zh": "在哪里设置拼写检查使用的语言？",
            "ja": "スペルチェックで使う言語はどこで変更できますか？",
        },
    ),
    (
        ("advanced-syntax",),
        {
            "en": "Can I draw a flowchart inside a note just by typing text?",
            "ko": "텍스트만 입력해서 노트 안에 순서도를 그릴 수 있나요?",
            "zh": "能不能只靠输入文本就在笔记里画出流程图？",
            "ja": "テキストを書くだけでノートの中にフローチャートを描けますか？",
        },
    ),
    (
        ("html",),
        {
            "en": "Why doesn't bold text show up as bold when I put it inside a div tag "
            "in my note?",
            "ko": "노트에서 div 태그 안에 굵은 글씨를 넣으면 왜 굵게 표시되지 않나요?",
            "zh": "为什么我在笔记里把粗体文字放进 div 标签后就不显示成粗体了？",
            "ja": "ノートでdivタグの中に太字を書くと、太字にならないのはなぜですか？",
        },
    ),
    (
        ("edit-and-read",),
        {
            "en": "How do I switch between Live Preview and source mode while editing a note?",
            "ko": "노트를 편집할 때 실시간 미리보기와 원본 모드를 어떻게 전환하나요?",
            "zh": "编辑笔记时怎么在实时预览和源码模式之间切换？",
            "ja": "ノートの編集中にライブプレビューとソースモードを切り替えるには"
            "どうすればいいですか？",
        },
    ),
    (
        ("tabs",),
        {
            "en": "How do I pin a tab so that links I click in it open in a new tab?",
            "ko": "탭을 고정해서 그 탭에서 링크를 누르면 새 탭으로 열리게 하려면 어떻게 하나요?",
            "zh": "怎么锁定一个标签页，让在里面点的链接都在新标签页里打开？",
            "ja": "タブをピン留めして、そのタブのリンクが新しいタブで開くようにするには？",
        },
    ),
    (
        ("file-formats",),
        {
            "en": "What kinds of files besides Markdown, such as pictures or videos, "
            "can Obsidian open?",
            "ko": "Obsidian에서 마크다운 말고 사진이나 동영상 같은 파일은 어떤 형식까지 "
            "열 수 있나요?",
            "zh": "除了 Markdown，Obsidian 还能打开哪些文件，比如图片或视频？",
            "ja": "Obsidianでは、Markdown以外に画像や動画などどんなファイルを開けますか？",
        },
    ),
    (
        ("import/apple-notes",),
        {
            "en": "How do I import my notes from Apple Notes, and will locked notes come "
            "across too?",
            "ko": "Apple Notes의 노트를 가져오려면 어떻게 하나요? 잠긴 노트도 같이 옮겨지나요?",
            "zh": "怎么把 Apple Notes 里的笔记导入进来？加了锁的笔记也能导入吗？",
            "ja": "Apple Notesのノートを取り込むにはどうすればいいですか？"
            "ロックされたメモも移せますか？",
        },
    ),
    (
        ("discounts",),
        {
            "en": "I'm a student; is there a cheaper price for Sync or Publish?",
            "ko": "학생인데 Sync나 Publish를 더 저렴하게 이용할 방법이 있나요?",
            "zh": "我是学生，Sync 或 Publish 有便宜一点的价格吗？",
            "ja": "学生ですが、SyncやPublishを安く使える方法はありますか？",
        },
    ),
    (
        ("teams/license",),
        {
            "en": "How does my company buy Obsidian licenses for its staff, and can we pay "
            "with a purchase order?",
            "ko": "회사에서 직원들이 쓸 Obsidian 라이선스를 사려면 어떻게 하나요? "
            "구매 주문서로 결제할 수 있나요?",
            "zh": "公司要怎么给员工购买 Obsidian 许可证？可以用采购订单付款吗？",
            "ja": "会社で社員向けにObsidianのライセンスを購入するには？注文書で支払えますか？",
        },
    ),
)


def cases(languages: tuple[str, ...] = LANGUAGES) -> list[Case]:
    """Every question of the third fresh set in ``languages``."""
    return question_cases(FRESH3, TOPICS, languages)
