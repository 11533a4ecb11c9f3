"""Cleaning is right for every script: good zh/ja/ko/ru pairs are kept, wrong-language and wrong-script sides
are dropped, and lengths are compared in fair units (a Chinese sentence is a third of its English length)."""

from __future__ import annotations

import pytest

from lingualite.data.cleaning import CleaningStats, PairCleaner, clean_pairs
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
    # Latin product names inside a non-Latin sentence are fine.
    assert _reason("zh", GOOD["zh"][2][0], GOOD["zh"][2][1]) is None


def test_lengths_are_fair_across_scripts() -> None:
    # 55 English characters against 13 Chinese ones: a normal pair (raw ratio 4.2 > 3), kept.
    assert _reason("zh", EN, "文档每十分钟自动保存一次。") is None
    # A Chinese side far too short for its English is still caught.
    assert _reason("zh", " ".join([EN] * 4), "文档每十分钟自动保存一次。") == "length_ratio"
    # A two-character "sentence" is too short (under 3 words).
    assert _reason("zh", "Save it now, please.", "保存") == "too_short"
