"""Cleaning is right for every script: good zh/ja/ko/ru pairs are kept, wrong-language and wrong-script sides
are dropped, and lengths are compared in fair units (a Chinese sentence is a third of its English length)."""

from __future__ import annotations

import pytest

from lingualite.data.cleaning import CleaningStats, PairCleaner, _other_cjk_language, clean_pairs
from lingualite.data.readers import ParallelPair

GOOD = {
    "zh": [
        ("Choose Format - Cells to change the number format of the selected cells.", "选择格式 - 单元格可以更改所选单元格的数字格式。"),
        ("The document is saved automatically every ten minutes.", "文档每十分钟自动保存一次。"),
        ("Click the LibreOffice Writer icon to open a new text document.", "单击 LibreOffice Writer 图标打开一个新的文本文档。"),
    ],
    "ja": [
        ("Choose Format - Cells to change the number format of the selected cells.", "選択したセルの数値の書式を変更するには、書式 - セルを選択します。"),
        ("The document is saved automatically every ten minutes.", "ドキュメントは10分ごとに自動的に保存されます。"),
    ],
    "ko": [
        ("The document is saved automatically every ten minutes.", "문서는 10분마다 자동으로 저장됩니다."),
        ("Click the icon to open a new text document.", "새 텍스트 문서를 열려면 아이콘을 클릭하십시오."),
    ],
    "ru": [
        ("The document is saved automatically every ten minutes.", "Документ автоматически сохраняется каждые десять минут."),
        ("Click the LibreOffice Writer icon to open a new text document.", "Щёлкните значок LibreOffice Writer, чтобы открыть новый текстовый документ."),
    ],
}  # fmt: skip
# Real pairs of the languages added in issue #43, as the sources extracted them (LibreOffice UI and help, the
# Bible; 2026-11-27), with what cleaning must keep: Arabic shadda (U+0651) and the prefix "بـ" (tatweel,
# U+0640), the Bible's left-to-right marks (U+200E) in Arabic, Hebrew's right-to-left mark (U+200F) and
# embedding (U+202B), Persian's zero-width non-joiner (U+200C), Devanagari's virama and vowel signs, Thai's
# vowel and tone marks (no spaces between words), Traditional Chinese characters.
GOOD_ISSUE_43 = {
    "ar": [
        ("Do you want to change the compatibility options of the default template?", "هل تريد تغيير خيارات التوافق للقالب المبدئيّ؟"),
        ("Applies all modifications without closing dialog. Values are saved and cannot be reverted with Reset.", "يطبّق كل التعديلات دون إغلاق الحوار. تُحفظ القيم ولا يمكن التراجع عنها بـ ’صفّر‘."),
        ("So I let them go after the stubbornness of their hearts, That they might walk in their own counsels.", "\u200eفسلمتهم الى قساوة قلوبهم. ليسلكوا في مؤامرات انفسهم\u200e."),
    ],
    "th": [
        ("Displays the source of the clipboard contents.", "แสดงแหล่งที่มาของเนื้อหาในคลิปบอร์ด"),
        ("Select the formatting style for the separator line. If you do not want a separator line, choose \"None\".", "เลือกรูปแบบเส้นของเส้นกั้น ถ้าคุณไม่ต้องการตีเส้นกั้น ก็เลือก \"ไม่มี\""),
    ],
    "he": [
        ("Mean value. The mean value of the log normal distribution.", "ערך ממוצע. הערך הממוצע של ההתפלגות הלוגנורמלית.\u200f"),
        ("Values of the inverse t-distribution.", "הערכים של התפלגות\u202b t ההפוכה. \u200f"),
    ],
    "fa": [
        ("This HTML document contains Basic macros. They were not saved with the current export settings.", "این سند HTML حاوی ماکروهای پایه است. آن\u200cها با تنظیمات برون\u200cبری فعلی ذخیره نشده\u200cاند."),
        ("You cannot change this part of the pivot table.", "شما نمی\u200cتوانید این بخش از پیوت تیبل را تغییر دهید."),
    ],
    "hi": [("The file could not be saved", "फ़ाइल को सहेजा नहीं जा सका।"), ("Online Update Options", "ऑनलाइन अद्यतन विकल्प")],
    "el": [("Set the focus on the desired control.", "Ρυθμίζει την εστίαση στο επιθυμητό στοιχείο ελέγχου.")],
    "zht": [("Removes the selected variable from the list of watched variables.", "從檢視的變數之清單中移除選取的變數。")],
    "uk": [("Creates a date series using the defined increment and end date.", "Служить для створення ряду дат з використанням певного приросту та кінцевої дати.")],
}  # fmt: skip


@pytest.mark.parametrize("lang", sorted(GOOD_ISSUE_43))
def test_real_pairs_of_the_added_scripts_are_kept_whole(lang: str) -> None:
    """Kept, and kept as they were: no mark, joiner or diacritic removed (nothing but outer spaces)."""
    stats = CleaningStats()
    pairs = [ParallelPair(en, xx, None, "test", i) for i, (en, xx) in enumerate(GOOD_ISSUE_43[lang], 1)]
    kept = list(clean_pairs(pairs, "en", lang, stats=stats))
    assert [(p.src, p.tgt) for p in kept] == [(p.src.strip(), p.tgt.strip()) for p in pairs], stats.to_dict()


def test_traditional_chinese_is_chinese_to_the_filters() -> None:
    """zht is checked as Chinese: a side in Japanese Kana is the wrong language; Traditional text is kept
    in a zh pair too (the two share the language ID's "zh")."""
    en = "Removes the selected variable from the list of watched variables."
    japanese = "選択した変数をウォッチ変数のリストから削除します。"
    assert _reason("zht", en, japanese) == _reason("zh", en, japanese) is not None
    assert _other_cjk_language("從清單中移除選取的變數とします", "zht")  # one Kana: not Chinese
    assert not _other_cjk_language("從檢視的變數之清單中移除選取的變數。", "zht")
    assert _reason("zht", en, "從檢視的變數之清單中移除選取的變數。") is None
    assert _reason("zh", en, "從檢視的變數之清單中移除選取的變數。") is None


@pytest.mark.parametrize("lang", sorted(GOOD))
def test_good_pairs_of_every_script_are_kept(lang: str) -> None:
    stats = CleaningStats()
    pairs = [ParallelPair(en, xx, None, "test", i) for i, (en, xx) in enumerate(GOOD[lang], 1)]
    kept = list(clean_pairs(pairs, "en", lang, stats=stats))
    assert kept == pairs, stats.to_dict()


def _reason(tgt_lang: str, en: str, xx: str) -> str | None:
    return PairCleaner("en", tgt_lang).check(en, xx)


EN = "The document is saved automatically every ten minutes."


def test_wrong_language_between_chinese_and_japanese() -> None:
    japanese, chinese = GOOD["ja"][1][1], GOOD["zh"][1][1]
    assert _reason("zh", EN, japanese) == "foreign_script"  # mostly Kana: not Chinese at all
    assert _reason("zh", EN, "自動保存機能の設定画面") == "wrong_language"  # Kanji with a little Kana
    assert (
        _reason("ja", EN, "文档每十分钟自动保存一次并且备份到服务器。") == "wrong_language"
    )  # long, no Kana
    assert _reason("zh", EN, chinese) is None and _reason("ja", EN, japanese) is None
    # Kanji-only Japanese (headings, lists, function arguments) is Japanese: no Kana, but no character
    # that only Simplified Chinese writes; language ID's zh-vs-ja guess on such text is not trusted.
    headings = "Author, Sender, Chapter, Date, Time, References, Last printed"
    assert _reason("ja", headings, "作成者、送信者、章、日付、時刻、参照、最終印刷日時") is None
    assert _reason("ja", "multiple precision floating-point computation", "多倍長精度浮動小数点演算") is None
    assert _reason("ja", EN, "文档每十分钟自动保存。") == "wrong_language"  # 档, 钟, 动: Simplified


def test_untranslated_or_wrong_script_sides_are_dropped() -> None:
    assert (
        _reason("ru", EN, "The document is saved automatically every ten minutes, always.")
        == "foreign_script"
    )
    assert _reason("zh", EN, "Saved every ten minutes.") == "foreign_script"
    assert (
        _reason("zh", EN, "Документ автоматически сохраняется 文档保存") == "foreign_script"
    )  # Cyrillic in Chinese
    assert _reason("ko", EN, "Документ автоматически сохраняется каждые десять минут.") == "foreign_script"
    # Ukrainian's apostrophe U+02BC is no foreign script ("five hundred fifty-five" was dropped as one)
    assert _reason("uk", "Five hundred and fifty-five.", "Пʼятьсот пʼятдесят пʼять") is None
    # Latin product names inside a non-Latin sentence are fine.
    assert _reason("zh", GOOD["zh"][2][0], GOOD["zh"][2][1]) is None


def test_lengths_are_fair_across_scripts() -> None:
    # 55 English characters against 13 Chinese ones: a normal pair (raw ratio 4.2 > 3), kept.
    assert _reason("zh", EN, "文档每十分钟自动保存一次。") is None
    # A Chinese side far too short for its English is still caught.
    assert _reason("zh", " ".join([EN] * 4), "文档每十分钟自动保存一次。") == "length_ratio"
    # A two-character "sentence" is too short (under 3 words).
    assert _reason("zh", "Save it now, please.", "保存") == "too_short"


def test_language_id_candidates_stay_those_of_the_default_languages() -> None:
    """The 21 languages of issue #43 are not extra candidates of every pair (that would change what the 13
    default pairs keep); a pair of a new language adds its own language only."""
    from lingualite.data.cleaning import COMMON_LANGS
    from lingualite.text.languages import CORE

    assert set(COMMON_LANGS) == {*CORE, "ar"}
    assert PairCleaner("en", "zht")._iso == {"en": "en", "zht": "zh"}  # language ID knows it as zh
