"""The one text rule (lingualite.text.sanitation): strict UTF-8, no NUL, no lone surrogate, and every encoder
refuses a text that breaks it with one line naming the item."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.text.sanitation import (
    InvalidTextError,
    TextProblem,
    check_texts,
    decode_utf8,
    strings_problem,
    text_problem,
)


def test_bytes_decode_strictly_with_the_column_an_editor_shows() -> None:
    assert decode_utf8("Größe".encode()) == "Größe"
    with pytest.raises(TextProblem, match=r"invalid UTF-8 \(byte 0xff at column 3\)") as err:
        decode_utf8("é€".encode() + b"\xff")  # two characters (5 bytes) before the bad byte
    assert err.value.key == "invalid_utf8"
    with pytest.raises(TextProblem, match=r"NUL byte \(column 2\)") as err:
        decode_utf8(b"a\x00b")
    assert err.value.key == "nul_byte"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("plain", None),
        ("Größe 😀", None),
        ("a\ud800b", "surrogate"),
        ("\udfff", "surrogate"),
        ("a\x00", "nul_byte"),
    ],
)
def test_strings_break_the_rule_only_for_surrogates_and_nul(text: str, key: str | None) -> None:
    problem = text_problem(text)
    assert (problem and problem.key) == key


def test_check_texts_names_the_item() -> None:
    check_texts(["fine", "also fine"])
    with pytest.raises(
        InvalidTextError, match=r"^texts\[1\]: contains a lone surrogate \(U\+D800 at column 2\)"
    ):
        check_texts(["ok", "x\ud800"])
    with pytest.raises(InvalidTextError, match=r"queries\[0\]: not a string \(int\)"):
        check_texts([3], "queries")
    with pytest.raises(InvalidTextError, match="not one string"):
        check_texts("a string")
    assert isinstance(InvalidTextError("x", TextProblem("k", "r")), LinguaLiteError)  # one line in the CLI


def test_strings_problem_looks_at_keys_and_values_at_any_depth() -> None:
    assert strings_problem({"id": 1, "text": "ok", "tags": ["a", {"b": "c"}]}) is None
    assert strings_problem({"meta": {"deep": ["ok", "\ud83d"]}}).key == "surrogate"
    assert strings_problem({"k\x00": 1}).key == "nul_byte"


def test_every_encoder_refuses_a_bad_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "search"))
    from search_helpers import make_static_model

    from lingualite.encoders.resolve import load_encoder

    static = load_encoder(f"static:{make_static_model(tmp_path / 'm')}")
    tfidf = TfidfEncoder().fit(["the cat", "a dog"])
    for encoder in (static, tfidf):
        with pytest.raises(InvalidTextError, match=r"texts\[1\]: contains a lone surrogate"):
            encoder.encode(["the cat", "\ud800"])
        with pytest.raises(InvalidTextError, match=r"texts\[0\]: contains a NUL character"):
            encoder.encode(["a\x00b"])


def test_right_to_left_and_thai_text_passes_the_rule_unchanged() -> None:
    """Real strings of the LibreOffice UI and the Bible (2026-11-27): bidi marks (LRM, RLM, RLE), tatweel,
    shadda, the Persian ZWNJ and Thai vowel and tone marks are text, not problems, and come back unchanged."""
    texts = [
        "\u200eفسلمتهم الى قساوة قلوبهم. ليسلكوا في مؤامرات انفسهم\u200e.",
        "يطبّق كل التعديلات دون إغلاق الحوار. تُحفظ القيم ولا يمكن التراجع عنها بـ ’صفّر‘.",
        "הערכים של התפלגות\u202b t ההפוכה. \u200f",
        "شما نمی\u200cتوانید این بخش از پیوت تیبل را تغییر دهید.",
        'เลือกรูปแบบเส้นของเส้นกั้น ถ้าคุณไม่ต้องการตีเส้นกั้น ก็เลือก "ไม่มี"',
    ]
    for text in texts:
        assert text_problem(text) is None
        assert decode_utf8(text.encode()) == text
    check_texts(texts)  # raises nothing
