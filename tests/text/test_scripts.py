"""Scripts of letters and a fair count of mixed-script text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lingualite.text.scripts import script_of, script_units


def test_letters_of_every_supported_script() -> None:
    expected = {
        "a": "Latin", "Ł": "Latin", "ğ": "Latin", "ß": "Latin", "Ａ": "Latin",
        "Ж": "Cyrillic", "ё": "Cyrillic",
        "中": "Han", "々": "Han", "〇": "Han",
        "ひ": "Hiragana", "カ": "Katakana", "ー": "Katakana", "ｶ": "Katakana",
        "한": "Hangul", "ㄱ": "Hangul",
        "α": "Greek", "ب": "Arabic", "ह": "Devanagari",
        "ی": "Arabic", "ـ": "Arabic", "ש": "Hebrew", "ก": "Thai", "ά": "Greek",
    }  # fmt: skip
    assert {ch: script_of(ch) for ch in expected} == expected
    # ... nor are marks: Arabic shadda, Hebrew point, virama, Thai tone mark, bidi marks (LRM, RLM, ALM)
    for not_a_letter in "1 .,。、！？「」・-_\t\u200d\u0651\u05b8\u094d\u0e48\u200e\u200f\u061c":
        assert script_of(not_a_letter) is None, repr(not_a_letter)


def test_units_count_cjk_characters_and_other_words() -> None:
    assert script_units("使用 LibreOffice Writer 打印") == {"Han": 4, "Latin": 2}
    assert script_units("Выберите Формат - Ячейки") == {"Cyrillic": 3}
    assert script_units("ファイルを開きます。") == {"Katakana": 4, "Hiragana": 4, "Han": 1}
    assert script_units("파일을 엽니다") == {"Hangul": 2}
    assert script_units("abcЖжж") == {"Latin": 1, "Cyrillic": 1}  # a change of script starts a unit
    assert script_units("") == {}


@given(st.text())
def test_units_never_exceed_letters(text: str) -> None:
    units = script_units(text)
    assert sum(units.values()) <= sum(1 for ch in text if script_of(ch) is not None)
    assert all(n > 0 for n in units.values())


def test_right_to_left_indic_and_thai_words_are_whole() -> None:
    """Real strings of the LibreOffice UI (Debian 12): a combining mark or a joiner never splits a word, a
    bidi mark is no letter, and Thai (unspaced) counts its letters one by one as Han does."""
    assert script_units("كلّ الملفّات الصوتيّة والمرئيّة") == {"Arabic": 4}  # shadda inside words
    assert script_units("حدد مجالا لـ %VALUETYPE") == {"Arabic": 3, "Latin": 1}  # tatweel is a letter
    assert script_units("الفرنسيّة\u200e (فرنسا)") == {"Arabic": 2}  # LRM, brackets: no unit
    assert script_units("אינו נתמך כרגע.\u200f") == {"Hebrew": 3}  # the RLM after the stop: nothing
    assert script_units("آن\u200cها ذخیره نشده\u200cاند") == {"Arabic": 3}  # ZWNJ inside Persian words
    assert script_units("फ़ाइल को सहेजा नहीं जा सका।") == {"Devanagari": 6}  # nukta, vowel signs, virama
    assert script_units("Αυτές είναι οι κατηγορίες") == {"Greek": 4}
    thai = "แสดงแหล่งที่มาของเนื้อหา"  # "shows the source of the contents": marks are not counted
    assert script_units(thai) == {"Thai": sum(1 for ch in thai if script_of(ch) == "Thai")}
    assert script_units(thai)["Thai"] < len(thai)


def test_the_ukrainian_apostrophe_is_no_script_of_its_own() -> None:
    """Ukrainian writes its apostrophe as U+02BC, a "modifier letter" to Unicode: it counted a script
    "Modifier", so a Ukrainian sentence with three of them was a third foreign script."""
    assert script_of("\u02bc") is None and script_of("\u02bb") is None
    assert (
        script_units("Пʼятьсот пʼятдесят пʼять")
        == script_units("П'ятьсот п'ятдесят п'ять")
        == {"Cyrillic": 6}
    )
