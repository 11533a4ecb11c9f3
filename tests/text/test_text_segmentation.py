"""Sentence splitting and lengths for every script."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lingualite.text.languages import get_language
from lingualite.text.segmentation import ENGLISH_CHARS_PER_WORD, length_units, split_sentences


def test_latin_cyrillic_and_hangul_sentences() -> None:
    text = "Open the file. Then print it! Das ist gut. Это тест. Он ушёл. 파일을 엽니다. 인쇄합니다."
    assert split_sentences(text) == [
        "Open the file.", "Then print it!", "Das ist gut.", "Это тест.", "Он ушёл.", "파일을 엽니다.", "인쇄합니다."
    ]  # fmt: skip
    # Abbreviations and lower-case continuations are not ends.
    assert split_sentences("See e.g. the menu. Dr. Smith wrote it. Call т.е. him.") == [
        "See e.g. the menu.",
        "Dr. Smith wrote it.",
        "Call т.е. him.",
    ]
    assert split_sentences("Version 3.5 is out. np. tutaj") == ["Version 3.5 is out. np. tutaj"]


def test_full_width_stops_need_no_space() -> None:
    assert split_sentences("你好。我是学生！他呢？") == ["你好。", "我是学生！", "他呢？"]
    assert split_sentences("ファイルを開きます。印刷します。") == ["ファイルを開きます。", "印刷します。"]
    # A quoted sentence the text goes on after is one sentence.
    assert split_sentences("「こんにちは。」と彼は言った。帰った。") == [
        "「こんにちは。」と彼は言った。",
        "帰った。",
    ]
    assert split_sentences("“你好。”他说。") == ["“你好。”他说。"]


@given(st.text(alphabet=st.sampled_from(list("ab Жя中文かナ한。.!?」 \n"))))
def test_pieces_rebuild_the_text(text: str) -> None:
    pieces = split_sentences(text)
    assert "".join("".join(p.split()) for p in pieces) == "".join(text.split())
    assert all(p == p.strip() and p for p in pieces)


def test_lengths_are_words_or_scaled_characters() -> None:
    assert length_units("The cat sleeps on the mat.", "en") == 6
    assert length_units("Le chat dort.", "zh") == 3  # no Han: words, whatever the language
    zh = length_units("我喜欢在周末读书。", "zh")  # 8 Han characters, ~4 words
    ja = length_units("私は週末に本を読むのが好きです。", "ja")
    assert 3 <= zh <= 6 and 3 <= ja <= 7
    per_word = get_language("zh").length_vs_english * ENGLISH_CHARS_PER_WORD  # ~1.9 characters a word
    assert length_units("使用 LibreOffice Writer 打印", "zh") == 2 + 4 / per_word


def test_wrapped_lines_join_without_a_space_only_inside_unspaced_text() -> None:
    from lingualite.text.segmentation import join_lines

    assert (
        join_lines(["古代戦争の", " リアルタイム戦略ゲームです。"])
        == "古代戦争のリアルタイム戦略ゲームです。"
    )
    assert join_lines(["首要的", "电池状态，", "", "and more"]) == "首要的电池状态， and more"
    assert (
        join_lines(["500 B.C. から", "500 A.D. の期間"]) == "500 B.C. から 500 A.D. の期間"
    )  # next to digits
    assert join_lines(["파일을", "엽니다."]) == "파일을 엽니다."  # Korean spaces its words
    assert join_lines(["It is very", "fast."]) == "It is very fast."


def test_truncate_units_cuts_words_or_characters() -> None:
    from lingualite.text.segmentation import chars_per_word, truncate_units

    assert truncate_units("a  b\tc d e", 3) == "a b c"
    assert truncate_units("a b", 5) == "a b"
    text = "使用 LibreOffice 打印文档很方便，我们都喜欢它。"
    cut = truncate_units(text, 4, "zh")
    assert cut.startswith("使用 LibreOffice 打印") and len(cut) < len(text)
    assert 3 <= length_units(cut, "zh") <= 4
    assert chars_per_word("ja") > chars_per_word("zh") > 1.5
