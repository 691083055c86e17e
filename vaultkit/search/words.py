"""The content words of a query: stop words of English, Korean, Chinese and Japanese left out,
English words reduced to their Snowball stem, Korean particles and endings cut off.

A question ("How do I add a tag?", "태그를 어떻게 추가하나요?", "如何给笔记添加别名") holds words
that every note holds too; only its content words say what is wanted. Nothing here touches the
index: stems are looked for as prefixes (``tag*`` finds tags and tagged), and a CJK piece is
still found as a substring, so what is indexed stays as it is.
"""

from __future__ import annotations

from functools import lru_cache

MIN_STEM = 3  # a stem shorter than this is looked for as the whole word


def _split(text: str) -> list[str]:
    return text.split()


ENGLISH = frozenset(
    _split(
        """a about above after again all am an and any are as at be because been before being
    below between both but by can could did do does doing done down during each else ever every
    few for from further get gets getting got had has have having he her here hers him his how
    however i if in into is it its itself just let lets like may me might more most much must my
    myself need needs no nor not now of off on once only or other our ours out over own please
    same shall she should so some such than that the their theirs them then there these they
    this those through to too under until up upon us use used using very via want wants was we
    were what whats when where whether which while who whom whose why will with within without
    would you your yours yourself
    able another anything best kind kinds one ones several something specific thing things
    way ways
    see many happen happens happened"""
    )
)
# Korean words (eojeol) that say nothing a note could be told apart by, and the particles and
# endings cut off a word's end (longest first) when what is left has two syllables or more.
KOREAN = frozenset(
    _split(
        """어떻게 어떤 무엇 무엇인가요 무엇이 뭔가요 뭐가 왜 언제 어디 어디서 어디에 어디에서 누가
    방법 방법은 방법이 방법을 있나요 있습니까 있을까요 있어요 있는 있게 수 할 하나요 해야
    하나요 해요 합니까 하려면 되나요 돼요 됩니까 인가요 입니까 가요 나요 내 제 저 나 우리
    그 이 저것 이것 그것 좀 꼭 더 또 및 등 것 거 건가요 싶어요 싶습니다 주세요 알려줘
    알려주세요 가능한가요 가능할까요 가장 좋은 다른 지금 때 것인가요 여러
    몇 얼마 얼마나 볼 보려면 보는 모든 되고 되면 법
    보고 보면 보여 보여요 보이는 보이고 보이게 보이면 보이지 보인 보일 봐 봤
    안에 안의 위에 위의 아래에 밖에 앞에 뒤에 옆에 사이에"""
    )
)
KOREAN_ENDINGS = tuple(
    sorted(
        _split(
            """하려면 하나요 할까요 는지 합니까 하는 하기 하고 해야 하면 했나요 했어요 되나요
        되는 되어 되었나요 있는지 있는 인가요 에서는 에서 으로는 으로도 으로서 으로써 으로
        에게 한테 까지 부터 처럼 보다 이나 이란 이라는 라는 은 는 이 가 을 를 에 의 로 와 과
        도 만 요 나 으려면 려면 려고 하게 해서 어서 아서 으면 들이 들을 들은 들의 들에 들 할
        해 게 면 된"""
        ),
        key=len,
        reverse=True,
    )
)
_ENDING_SET = frozenset(KOREAN_ENDINGS)
# Chinese and Japanese strings cut out of a run of characters (longest first). Single Han
# characters are left in (most are parts of words too), but for a few sentence particles.
CHINESE = (
    "如何 怎么样 怎么 怎样 什么 哪些 哪个 哪里 为什么 是否 能否 可以 能够 一下 一个 一篇 一种"
    " 有哪些 有没有 我们 我的 你的 自己的 自己 以便 之间 的时候 时候 吗 呢 吧 的 了 么"
    " 多少 看到 之后 以后 然后"
    # the counterparts of English stop words (all, every, some, other, another, via, this,
    # these, that, those, need, should, if, but, because, or, and, may, already, again, same)
    " 所有 全部 每个 一些 某些 其他 其它 另一个 另一篇 另一 通过 这个 这些 那个 那些 需要 应该"
    " 如果 但是 因为 或者 以及 并且 可能 已经 再次 相同"
)
JAPANESE = (
    "するにはどうすればいいですか どうすればいいですか どうすればよいですか にするには するには"
    " にはどうすれば どうすれば いいですか よいですか ですか ますか でしょうか ください"
    " 方法は 方法 には ための ために ように こと もの どれですか どれ どこ なに 何ですか 何"
    " できますか できる する して した です ます"
)
_STRINGS = tuple(sorted(_split(CHINESE + " " + JAPANESE), key=len, reverse=True))
# Japanese particles: cut when they follow a word written in Han or Katakana.
_PARTICLES = frozenset("をにはがのでともへや")
# Han characters that, left standing alone between the cuts, are function words (the
# counterparts of English stop words: at, will, can, let, for, and, or, again, after, see,
# now, another, above, before, all), not part of a word; Chinese, then Japanese.
_LONE = frozenset("在会能要把被让给和与或就都也还再很又从对向后是" + "見今後別時上下前全")
# Chinese function characters a piece does not start with (a preposition or adverb before the
# word it governs: 把仓库, 给笔记, 在白板上, 再切换), does not end with (a postposition of place
# or time: 笔记中, 白板上, 编辑时; in, on, when) and conjunctions it is cut at (标题和列表).
_LEADING = frozenset("在把被让给从向为再又也都就很将")
_TRAILING = frozenset("中上里时内")
_JOINING = frozenset("和与或及")


# The first syllables of the auxiliary verbs 있다 (be, have), 하다 (do) and 되다 (become): one
# of these with nothing but an ending after it (있는지, 하는지, 될까요) is grammar.
_AUXILIARY = frozenset("있하할한해했되될된돼됐")


def is_stop_word(word: str) -> bool:
    """True for an English or Korean word that is left out of a query's content words."""
    return word.lower() in ENGLISH or word in KOREAN or _auxiliary(word)


def _auxiliary(word: str) -> bool:
    return len(word) > 1 and word[0] in _AUXILIARY and word[1:] in _ENDING_SET


# The forms of 주다 (give) that follow a verb's connective form as an auxiliary (보여 주는,
# 알려 줘: show, tell someone): grammar, like 있다 after one.
_GIVING = frozenset(_split("주는 주고 주면 주세요 주나요 주려면 주어 줄 준 줘 줘요"))
_CONNECTIVE = frozenset((0, 1, 4, 6, 9, 10, 14))  # the vowels of -아/-어 (ㅏㅐㅓㅕㅘㅙㅝ)


def is_helping_verb(previous: str, word: str) -> bool:
    """True for a form of 주다 right after a word that ends in a verb's connective form (a
    syllable with the vowel of -아/-어 and no final: 보여, 알려, 바꿔, 해)."""
    code = hangul_code(previous[-1]) if previous else None
    if word not in _GIVING or code is None or code % 28:
        return False
    return code // 28 % 21 in _CONNECTIVE


def is_particle(word: str) -> bool:
    """True for a Korean particle or ending standing alone (``CSS는`` -> ``는``)."""
    return word in _ENDING_SET


@lru_cache(maxsize=1)
def _stemmer() -> object | None:
    try:
        import Stemmer  # type: ignore[import-not-found]  # PyStemmer: Snowball, in C
    except ImportError:  # pragma: no cover - a dependency; without it words are not stemmed
        return None
    stemmer: object = Stemmer.Stemmer("english")
    return stemmer


def stem_prefix(word: str) -> str:
    """What to look for as a prefix so every form of ``word`` is found: the part of the word
    its English stem keeps (``collapsible`` -> ``collaps``, ``study`` -> ``stud``); the word
    itself when that would be shorter than ``MIN_STEM`` or the word is not ASCII letters."""
    lowered = word.lower()
    stemmer = _stemmer()
    if stemmer is None or not (lowered.isascii() and lowered.isalpha()):
        return lowered
    stem: str = stemmer.stemWord(lowered)  # type: ignore[attr-defined]
    common = 0
    while common < min(len(stem), len(lowered)) and stem[common] == lowered[common]:
        common += 1
    return lowered[:common] if common >= MIN_STEM else lowered


# Particles that start with 으, which follows only a syllable with a final consonant (창으로,
# 앱으로는; after a vowel the particle is 로): cut even when one syllable is left.
AFTER_FINAL = ("으로는", "으로도", "으로서", "으로써", "으로")
# Particles of two syllables that end no word but as a particle (앱에서, 탭까지, 창처럼: in,
# up to, like): cut even when one syllable, a one-syllable noun, is left.
ALWAYS_PARTICLES = ("에서는", "에서", "에게", "까지", "부터", "처럼")


def korean_stem(word: str) -> str:
    """A Korean word without its particle or ending (``태그를`` -> ``태그``)."""
    for ending in AFTER_FINAL:
        if word.endswith(ending) and len(word) == len(ending) + 1 and _final(word[0]):
            return word[0]
    for ending in ALWAYS_PARTICLES:
        if word.endswith(ending) and len(word) == len(ending) + 1:
            return word[0]
    for ending in KOREAN_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            return word[: -len(ending)]
    return word


def _final(syllable: str) -> bool:
    """True for a Hangul syllable that ends in a consonant (its final, batchim)."""
    code = hangul_code(syllable)
    return code is not None and code % 28 != 0


def hangul_code(char: str) -> int | None:
    """A Hangul syllable's place in its block, ``(initial * 21 + vowel) * 28 + final`` (final
    0: none), or None for any other character."""
    code = ord(char) - 0xAC00
    return code if 0 <= code < 11172 else None


def _hangul(char: str) -> bool:
    return "\uac00" <= char <= "\ud7af" or "\u1100" <= char <= "\u11ff"


def _hiragana(char: str) -> bool:
    return "\u3040" <= char <= "\u309f"


def katakana(char: str) -> bool:
    """True for a Katakana character (the prolonged sound mark ``ー`` included)."""
    return (
        "\u30a0" <= char <= "\u30ff"
        or "\u31f0" <= char <= "\u31ff"
        or ("\uff66" <= char <= "\uff9f")
    )


def _script(char: str) -> str:
    return "hiragana" if _hiragana(char) else "katakana" if katakana(char) else "han"


def _japanese_words(piece: str) -> list[str]:
    """A piece of a Japanese run cut where the script changes, its Hiragana left out: the
    content of a Japanese sentence is written in Han and Katakana, and what Hiragana holds
    between them is grammar (particles, endings, auxiliaries: ``覚えていないときに`` ->
    ``覚``), whose bigrams would match every note."""
    words: list[str] = []
    for char in piece:
        if words and _script(words[-1][-1]) == _script(char):
            words[-1] += char
        else:
            words.append(char)
    return [w for w in words if not _hiragana(w[0])]


def cjk_pieces(run: str) -> list[str]:
    """The content pieces of one run of CJK characters: a Hangul word as it is (its ending is
    cut by :func:`korean_stem` later), a Chinese or Japanese run with its stop strings and
    particles cut out (a run of nothing else gives no piece), a Japanese one also cut where
    its script changes (:func:`_japanese_words`), a Chinese one at its conjunctions and
    without the function characters at its edges (:func:`_trimmed`)."""
    if all(_hangul(c) for c in run):
        return [] if run in KOREAN or _auxiliary(run) else [run]
    pieces = _cut(run)
    if any(_hiragana(c) or katakana(c) for c in run):
        pieces = [w for p in pieces for w in _japanese_words(p)]
    else:
        pieces = [_trimmed(w) for p in pieces for w in _joined(p)]
    return [p for p in pieces if p and not (len(p) == 1 and p in _LONE)]


def _joined(piece: str) -> list[str]:
    """A Chinese piece cut at its conjunctions where two characters or more stand on each side
    (``标题和列表`` -> ``标题``, ``列表``); a conjunction character inside a word (参与, 涉及,
    总和) is left in, so a two-character word is never cut."""
    words, start = [], 0
    for at, char in enumerate(piece):
        if char in _JOINING and at - start >= 2 and len(piece) - at > 2:
            words.append(piece[start:at])
            start = at + 1
    return [*words, piece[start:]]


def _trimmed(piece: str) -> str:
    """A Chinese piece without a leading preposition or adverb and a trailing postposition,
    while two characters are left."""
    while len(piece) > 2 and piece[0] in _LEADING:
        piece = piece[1:]
    while len(piece) > 2 and piece[-1] in _TRAILING:
        piece = piece[:-1]
    return piece


def _cut(run: str) -> list[str]:
    """A Chinese or Japanese run cut at its stop strings and particles."""
    pieces: list[str] = []
    current = ""
    i = 0
    while i < len(run):
        cut = next((s for s in _STRINGS if run.startswith(s, i)), "")
        if not cut and run[i] in _PARTICLES and current and not _hiragana(current[-1]):
            cut = run[i]
        if cut:
            pieces.append(current)
            current = ""
            i += len(cut)
        else:
            current += run[i]
            i += 1
    pieces.append(current)
    return pieces
