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
    }  # fmt: skip
    assert {ch: script_of(ch) for ch in expected} == expected
    for not_a_letter in "1 .,。、！？「」・-_\t\u200d":
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
