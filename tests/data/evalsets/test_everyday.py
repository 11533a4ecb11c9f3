"""The packaged everyday sentences: every supported language, aligned, well-formed, by register; and the guard
that keeps them out of training text."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from lingualite.core.errors import ConfigError
from lingualite.data.evalsets.everyday import (
    REGISTERS,
    SPLITS,
    everyday_guard,
    everyday_pairs,
    everyday_registers,
    everyday_sentences,
    is_everyday,
    normalise_for_guard,
)
from lingualite.text.languages import LANGUAGES, SUPPORTED
from lingualite.text.scripts import script_units


def _lines(split: str) -> list[str]:
    return (
        resources.files("lingualite.data.evalsets")
        .joinpath(SPLITS[split])
        .read_text(encoding="utf-8")
        .split("\n")
    )


@pytest.mark.parametrize("split", SPLITS)
def test_the_file_is_well_formed(split: str) -> None:
    lines = _lines(split)
    assert lines[-1] == "" and all(lines[:-1])  # one final newline, no blank line
    header, *rows = (line.split("\t") for line in lines[:-1])
    assert header == ["id", "register", *SUPPORTED]
    assert all(len(row) == len(header) for row in rows)
    ids = [row[0] for row in rows]
    assert len(set(ids)) == len(ids)
    for row in rows:
        assert row[1] in REGISTERS, row[0]
        assert row[0].startswith(f"{row[1]}-"), row[0]
        for cell in row:
            assert cell and cell == cell.strip() and "\r" not in cell and "  " not in cell, (row[0], cell)


@pytest.mark.parametrize(("split", "least"), [("test", 300), ("validation", 200)])
def test_every_register_has_a_few_dozen_rows_in_every_language(split: str, least: int) -> None:
    assert everyday_registers(split) == REGISTERS
    counts = Counter(len(everyday_sentences(r, split)["en"]) for r in REGISTERS)
    assert all(n >= 40 for n in counts), counts
    total = len(everyday_sentences(split=split)["en"])
    assert total == sum(len(everyday_sentences(r, split)["en"]) for r in REGISTERS) >= least
    for register in (None, *REGISTERS):
        sentences = everyday_sentences(register, split)
        assert tuple(sentences) == SUPPORTED
        assert len({len(v) for v in sentences.values()}) == 1


@pytest.mark.parametrize("split", SPLITS)
def test_no_sentence_repeats_within_a_language(split: str) -> None:
    for lang, texts in everyday_sentences(split=split).items():
        normalised = Counter(normalise_for_guard(t) for t in texts)
        assert [t for t, n in normalised.items() if n > 1] == [], lang


def test_the_validation_split_shares_no_sentence_with_the_test_split() -> None:
    for lang in SUPPORTED:
        test = {normalise_for_guard(t) for t in everyday_sentences()[lang]}
        validation = {normalise_for_guard(t) for t in everyday_sentences(split="validation")[lang]}
        assert test.isdisjoint(validation), (lang, sorted(test & validation)[:3])
    with pytest.raises(ConfigError, match="unknown everyday split"):
        everyday_sentences(split="train")


@pytest.mark.parametrize("split", SPLITS)
def test_sentences_are_short_to_medium(split: str) -> None:
    for text in everyday_sentences(split=split)["en"]:
        assert 3 <= len(text.split()) <= 25, text


@pytest.mark.parametrize("split", SPLITS)
def test_each_language_is_written_in_its_script(split: str) -> None:
    for lang, texts in everyday_sentences(split=split).items():
        units = sum((script_units(t) for t in texts), start=script_units(""))
        scripts = LANGUAGES[lang].scripts
        assert sum(units[s] for s in scripts) >= 0.97 * sum(units.values()), (lang, units)
        if "Latin" not in scripts:  # no English left untranslated; a loanword as written ("Wi-Fi") at most
            latin = [t for t in texts if script_units(t)["Latin"]]
            assert len(latin) <= len(texts) // 100, (lang, latin[:3])


def test_pairs_between_any_two_languages() -> None:
    zh, ru = everyday_pairs("zh", "ru")
    assert zh[0] == "今天天气非常好。" and ru[0] == "Сегодня очень хорошая погода."
    assert len(zh) == len(ru) == len(everyday_sentences()["en"])
    with pytest.raises(ConfigError):
        everyday_pairs("en", "xx")


def test_a_register_keeps_its_rows_in_order() -> None:
    en, fr = everyday_pairs("en", "fr", register="daily")
    assert en[0] == "The weather is very nice today." and fr[0] == "Il fait très beau aujourd'hui."
    news_en, news_ja = everyday_pairs("en", "ja", register="news")
    assert set(news_en).isdisjoint(en) and len(news_en) == len(news_ja)
    with pytest.raises(ConfigError, match="unknown everyday register"):
        everyday_sentences("poetry")


def test_the_guard_drops_every_everyday_sentence_in_any_language_and_form() -> None:
    ja = everyday_sentences("news")["ja"][3]
    texts = [
        "The weather is very nice today.",
        "the weather is very nice today",  # case and punctuation
        "  Il fait très beau aujourd’hui !  ",  # spacing, another apostrophe and mark
        ja,
        "The weather is very nice today, isn't it?",  # a different sentence stays
        "今天天气",
    ]
    kept, dropped = everyday_guard(texts)
    assert kept == texts[4:] and dropped == 4
    for split in SPLITS:  # the validation split is held out from training as well
        assert all(is_everyday(t) for texts in everyday_sentences(split=split).values() for t in texts)
    assert not is_everyday("")


def test_a_language_the_set_is_not_translated_into_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lingualite.data.evalsets import everyday

    assert everyday.everyday_languages() == SUPPORTED  # today every supported language has a column
    held = {lang: v for lang, v in everyday_sentences().items() if lang != "th"}
    monkeypatch.setattr(everyday, "everyday_sentences", lambda register=None, split="test": held)
    with pytest.raises(ConfigError, match="not translated into th"):
        everyday_pairs("en", "th")


def test_register_cells_leave_out_languages_without_everyday_sentences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lingualite.data.evalsets import everyday
    from lingualite.data.evalsets.registers import everyday_cells

    cells = everyday_cells(["fr", "th"], pivots=["zht-ru", "zh-ru"])
    assert {c.pair for c in cells} == {"en-fr", "en-th", "zht-ru", "zh-ru"}
    held = tuple(lang for lang in SUPPORTED if lang not in ("th", "zht"))
    monkeypatch.setattr(everyday, "everyday_languages", lambda split="test": held)
    cells = everyday_cells(["fr", "th"], pivots=["zht-ru", "zh-ru"])
    assert {c.pair for c in cells} == {"en-fr", "zh-ru"}
