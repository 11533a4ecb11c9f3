"""Tests for the cleaning filters."""

from __future__ import annotations

import pytest

from lingualite.core.errors import ConfigError
from lingualite.data.cleaning import (
    CleaningConfig,
    CleaningStats,
    PairCleaner,
    clean_pairs,
    foreign_token_ratio,
    normalize_for_dedup,
)
from lingualite.data.readers import ParallelPair

EN = "The committee will publish its report on the budget next week."
FR = "La commission publiera son rapport sur le budget la semaine prochaine."
NO_LID = CleaningConfig(lang_id=False)


def _pair(src: str, tgt: str, line: int = 1) -> ParallelPair:
    return ParallelPair(src, tgt, None, "mem", line)


def _run(
    pairs: list[tuple[str, str]], config: CleaningConfig = NO_LID
) -> tuple[list[ParallelPair], CleaningStats]:
    stats = CleaningStats()
    kept = list(clean_pairs([_pair(s, t, i) for i, (s, t) in enumerate(pairs, 1)], "en", "fr", config, stats))
    return kept, stats


def _reason(src: str, tgt: str, config: CleaningConfig = NO_LID) -> str | None:
    return PairCleaner("en", "fr", config).check(src, tgt)


def test_keeps_good_pair_and_strips() -> None:
    kept, stats = _run([(f"  {EN} ", f"{FR}\u3000")])
    assert [(p.src, p.tgt) for p in kept] == [(EN, FR)]
    assert stats.to_dict() == {"seen": 1, "kept": 1, "dropped": {}, "dropped_total": 0}


@pytest.mark.parametrize(
    ("src", "tgt", "reason"),
    [
        ("", FR, "empty"),
        (EN, "   ", "empty"),
        ("Hello there", "Bonjour à vous", "too_short"),
        (EN, " ".join(["mot"] * 201), "too_long"),
        ("one two three", "un deux trois " + "x" * 60, "length_ratio"),
        ("one two three " + "x" * 60, "un deux trois", "length_ratio"),
        ("Windows Media Player 11", "windows media  player 11", "identical"),
        (EN, "La commission publiera son отчёт о бюджете на следующей неделе.", "foreign_script"),
        (EN, "La commission 委员会 发布 报告 预算 下周 prochaine.", "foreign_script"),
    ],
)
def test_each_filter(src: str, tgt: str, reason: str) -> None:
    assert _reason(src, tgt) == reason
    kept, stats = _run([(src, tgt)])
    assert kept == [] and stats.dropped == {reason: 1}


def test_filters_can_be_disabled() -> None:
    cfg = CleaningConfig(lang_id=False, drop_identical=False, max_foreign_ratio=None, min_tokens=0)
    assert _reason("Windows Media Player 11", "Windows Media Player 11", cfg) is None
    assert _reason(EN, "La commission 委员会 发布 报告 预算 下周 prochaine.", cfg) is None
    assert _reason("Hi", "Salut", cfg) is None


def test_foreign_ratio_allows_a_few_names() -> None:
    assert foreign_token_ratio(["Naïve", "café", "façade", "Ærø"]) == 0.0
    assert foreign_token_ratio(["He", "met", "Путин", "in", "Moscow"]) == pytest.approx(0.2)
    assert _reason(EN.replace("report", "отчёт"), FR) is None  # 1 of 11 tokens
    assert (
        PairCleaner("ru", "fr", NO_LID).check("Комитет опубликует отчёт о бюджете", FR) is None
    )  # ru not checked


def test_dedup_exact() -> None:
    kept, stats = _run([(EN, FR), (EN, FR), (EN + " ", FR), (EN.lower(), FR)])
    assert len(kept) == 2 and stats.dropped == {"duplicate": 2}


def test_dedup_normalized() -> None:
    variants = [
        (EN, FR),
        (EN.upper(), FR),  # case
        ("The committee will publish its report on the budget next week!!", FR),  # punctuation
        ("The  committee will publish its report on the budget next week 2024.", FR),  # digits, spaces
        ("Ｔｈｅ committee will publish its report on the budget next week.", FR),  # NFKC full-width
        (EN, FR.replace("prochaine", "suivante")),  # different target: kept
    ]
    kept, stats = _run(variants, CleaningConfig(lang_id=False, dedup="normalized"))
    assert len(kept) == 2 and stats.dropped == {"duplicate": 4}
    assert normalize_for_dedup("Hello, World 42!") == "hello world"


def test_dedup_none_and_memory_is_hashes() -> None:
    kept, _ = _run([(EN, FR)] * 3, CleaningConfig(lang_id=False, dedup="none"))
    assert len(kept) == 3
    cleaner = PairCleaner("en", "fr", NO_LID)
    cleaner.check(EN, FR)
    assert all(isinstance(h, bytes) and len(h) == 8 for h in cleaner._seen)


def test_dropped_pair_does_not_poison_dedup() -> None:
    cleaner = PairCleaner("en", "fr", CleaningConfig())
    english_as_fr = "The house is very big and the garden is beautiful."
    assert cleaner.check(EN, english_as_fr) == "wrong_language"
    assert cleaner.check(EN, FR) is None
    assert cleaner.check(EN, FR) == "duplicate"


def test_wrong_language() -> None:
    cfg = CleaningConfig()
    assert _reason(EN, FR, cfg) is None
    assert _reason(
        EN, "Der Ausschuss wird seinen Bericht über den Haushalt nächste Woche veröffentlichen.", cfg
    ) == ("wrong_language")
    assert _reason(FR, EN, cfg) == "wrong_language"  # both sides swapped
    # short texts (< 4 words) are not language-checked
    assert (
        _reason("The big red house", "Das große rote Haus", CleaningConfig(min_tokens=1)) == "wrong_language"
    )
    assert _reason("The red house", "Das rote Haus", CleaningConfig(min_tokens=1)) is None


def test_config_validation() -> None:
    with pytest.raises(ConfigError, match="dedup"):
        CleaningConfig(dedup="fuzzy")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        CleaningConfig(min_tokens=5, max_tokens=2)
    with pytest.raises(ConfigError):
        CleaningConfig(max_length_ratio=0.5)


def test_clean_pairs_is_streaming() -> None:
    def endless():
        i = 0
        while True:
            i += 1
            yield _pair(f"{EN} {i}", f"{FR} {i}", i)

    it = clean_pairs(endless(), "en", "fr", NO_LID)
    assert [next(it).line for _ in range(3)] == [1, 2, 3]
