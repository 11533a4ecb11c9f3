"""The Unicode script of a letter, and how much of a text each script writes.

Python's ``unicodedata`` has no script property, so the scripts the supported languages use are listed here as
code-point ranges (Unicode's Scripts.txt, main blocks); any other letter is named by the first word of its
Unicode name (``ARABIC``, ``HEBREW``, ``DEVANAGARI``, ``THAI``, ...), which is that script's name for every
alphabet we met (Persian is written in ``Arabic`` letters). Combining marks (Arabic harakat, Hebrew points,
Devanagari vowel signs and virama, Thai vowel and tone marks) and the zero-width (non-)joiners belong to the
letters around them: they never end a word.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

__all__ = ["CHARACTER_SCRIPTS", "SIMPLIFIED_ONLY", "UNSPACED_SCRIPTS", "is_mark", "script_of", "script_units"]

# Scripts whose every letter is a unit of length, as a word is elsewhere (text without spaces).
CHARACTER_SCRIPTS = frozenset({"Han", "Hiragana", "Katakana"})
# Scripts written without spaces between words: the above, and Thai (whose words a dictionary segmenter finds,
# :func:`lingualite.text.segmentation.words`). :func:`script_units` counts their letters one by one.
UNSPACED_SCRIPTS = frozenset({*CHARACTER_SCRIPTS, "Thai"})
_MODIFIER_LETTERS = (0x02B0, 0x02FF)  # ʼ ʻ ˈ ː ʰ: apostrophes and phonetic modifiers, no script's letters
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ, ZWJ: inside Persian, Hindi and Arabic words
# Frequent Simplified Chinese characters that Japanese writes otherwise (这 vs これ, 时 vs 時, 设 vs 設, 档...):
# Han text without Kana that holds one is Chinese. Characters both write alike (学, 数, 体, 写, 会) are not
# listed: a Japanese heading of Kanji alone (作成者、送信者、日付、時刻) holds none of these.
SIMPLIFIED_ONLY = frozenset(
    "这们个说时对为过还发开关门问间见长东车马话语读认让请买卖电脑网页码图书实现经给线级约红纸组织结统计设进"
    "选择标样确删复贴单击键盘显档储输库类项连链载运边总带务报权态乐观视频录艺术历专业办产农药简汉钟阶层吗么"
    "该从动换无启户应"
)

_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0041, 0x024F, "Latin"),
    (0x0250, 0x02AF, "Latin"),  # IPA extensions
    (0x0370, 0x03FF, "Greek"),
    (0x0400, 0x052F, "Cyrillic"),
    (0x1100, 0x11FF, "Hangul"),  # Jamo
    (0x1C80, 0x1C8F, "Cyrillic"),
    (0x1E00, 0x1EFF, "Latin"),
    (0x1F00, 0x1FFF, "Greek"),
    (0x2C60, 0x2C7F, "Latin"),
    (0x2DE0, 0x2DFF, "Cyrillic"),
    (0x2E80, 0x2FDF, "Han"),  # radicals
    (0x3005, 0x3007, "Han"),  # 々 〆 〇
    (0x3021, 0x3029, "Han"),
    (0x3038, 0x303B, "Han"),
    (0x3041, 0x309F, "Hiragana"),
    (0x30A0, 0x30FF, "Katakana"),  # ー (U+30FC) included
    (0x3130, 0x318F, "Hangul"),  # compatibility Jamo
    (0x31F0, 0x31FF, "Katakana"),
    (0x3400, 0x4DBF, "Han"),
    (0x4E00, 0x9FFF, "Han"),
    (0xA640, 0xA69F, "Cyrillic"),
    (0xA720, 0xA7FF, "Latin"),
    (0xA960, 0xA97F, "Hangul"),
    (0xAC00, 0xD7FF, "Hangul"),  # syllables and Jamo extended-B
    (0xF900, 0xFAFF, "Han"),
    (0xFF21, 0xFF5A, "Latin"),  # fullwidth letters
    (0xFF66, 0xFF9F, "Katakana"),  # halfwidth
    (0xFFA0, 0xFFDC, "Hangul"),  # halfwidth
    (0x20000, 0x323AF, "Han"),
)


@lru_cache(maxsize=1 << 16)
def script_of(ch: str) -> str | None:
    """The script of letter ``ch`` (``Latin``, ``Cyrillic``, ``Han``, ``Hiragana``, ``Katakana``, ``Hangul``,
    ``Greek``, or the first word of its Unicode name, title-cased); None for anything that is not a letter
    (digits, punctuation, spaces, marks, and the spacing modifier letters U+02B0-U+02FF: Ukrainian writes its
    apostrophe as ʼ U+02BC, which Unicode calls a letter, so "пʼять" counted a script "Modifier" of its own)."""
    cp = ord(ch)
    if cp < 0x80:
        return "Latin" if ch.isalpha() else None
    if _MODIFIER_LETTERS[0] <= cp <= _MODIFIER_LETTERS[1]:
        return None
    for lo, hi, name in _RANGES:
        if lo <= cp <= hi:
            return name if (ch.isalpha() or unicodedata.category(ch) == "Nl") else None
        if cp < lo:
            break
    if not ch.isalpha():
        return None
    return unicodedata.name(ch, "UNKNOWN").split()[0].title()


def is_mark(ch: str) -> bool:
    """A combining mark (Unicode M*: a Devanagari vowel sign or virama, a Thai tone mark, an accent): part of
    the letter before it, though Python's ``str.isalpha`` and ``re``'s ``\\w`` do not count it as a letter."""
    return unicodedata.category(ch).startswith("M")


def _inside_word(ch: str) -> bool:
    """A combining mark or a zero-width joiner: part of the word around it, not a break."""
    return ch in _JOINERS or is_mark(ch)


def script_units(text: str) -> Counter[str]:
    """How many units of ``text`` each script writes: a Han, Hiragana, Katakana or Thai letter is one unit
    (those scripts do not space their words), a run of letters of any other script is one unit (a word);
    combining marks and joiners continue the run they stand in (``हिन्दी`` is one Devanagari word).

    ``"使用 LibreOffice Writer 打印"`` -> ``{"Han": 4, "Latin": 2}``: a fair count of a mixed sentence, where
    counting letters would make the two product names outweigh the Chinese.
    """
    units: Counter[str] = Counter()
    run: str | None = None
    for ch in text:
        script = script_of(ch)
        if script in UNSPACED_SCRIPTS:
            units[script] += 1
            run = None
        elif script is None and run is not None and _inside_word(ch):
            continue
        elif script is None:
            run = None
        elif script != run:
            units[script] += 1
            run = script
    return units
