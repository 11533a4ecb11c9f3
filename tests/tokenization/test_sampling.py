"""Smoothed sampling over the 13 languages: every language gets its share, each language is one unit."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lingualite.data.pairs import read_pairs
from lingualite.text.languages import CORE, CORE_TRANSLATION_LANGS, ENGLISH
from lingualite.tokenization.sampling import (
    GroupShare,
    ShareFloor,
    apportion,
    sample_by_language,
    smoothed_language_shares,
)
from lingualite.tokenization.vocabulary import sample_for_vocabulary

# very different sizes: English 200k sentences down to 37 for the smallest
SIZES = {lang: max(37, 200_000 // 3**i) for i, lang in enumerate(CORE)}


def test_thirteen_languages_each_get_at_least_their_smoothed_share() -> None:
    shares = smoothed_language_shares(SIZES, alpha=0.7)
    total = 10_000
    counts = apportion(shares, total)
    assert sum(counts.values()) == total
    for lang, share in shares.items():
        assert abs(counts[lang] - total * share) < 1, lang
    smallest = min(SIZES, key=SIZES.__getitem__)
    assert counts[smallest] >= int(total * shares[smallest])
    assert shares[smallest] > SIZES[smallest] / sum(SIZES.values())  # alpha < 1 lifts the small ones


def test_apportion_fixes_what_rounding_misses() -> None:
    shares = {str(i): 1 / 13 for i in range(13)}  # 1000 / 13 = 76.9: round gives 77 x 13 = 1001
    counts = apportion(shares, 1000)
    assert sum(counts.values()) == 1000 and set(counts.values()) == {76, 77}


def test_drawn_sentences_follow_the_shares_with_repeats_for_small_languages() -> None:
    texts = {lang: [f"{lang} {i}" for i in range(n)] for lang, n in SIZES.items()}
    drawn = sample_by_language(texts, alpha=0.7, total=5_000, seed=3)
    counts = apportion(smoothed_language_shares(SIZES, 0.7), 5_000)
    assert {lang: len(s) for lang, s in drawn.items()} == counts
    for lang, sentences in drawn.items():
        assert all(s.startswith(f"{lang} ") for s in sentences)
    short = sample_by_language({"en": [f"e{i}" for i in range(1000)], "fr": ["a", "b", "c"]}, 0.0, 100)
    assert len(short["fr"]) == 50 and set(short["fr"]) == {"a", "b", "c"}  # drawn with replacement


def test_a_repeated_sentence_counts_once() -> None:
    texts = {"en": ["same"] * 900 + ["other"], "fr": ["un", "deux"]}
    sample = sample_for_vocabulary(texts, alpha=1.0, size=100)
    assert sample.shares == pytest.approx({"en": 0.5, "fr": 0.5})


def test_english_of_many_en_xx_files_is_one_language_counted_once(tmp_path: Path) -> None:
    english = [f"english sentence {i}" for i in range(50)]
    files = []
    for lang in CORE_TRANSLATION_LANGS:  # every en-xx folder holds the same English side
        folder = tmp_path / f"{ENGLISH}-{lang}"
        folder.mkdir()
        path = folder / "train.tsv"
        path.write_text("".join(f"{e}\t{lang} {i}\n" for i, e in enumerate(english)), encoding="utf-8")
        files.append(path)
    texts = read_pairs(files).texts
    assert set(texts) == set(CORE)
    assert len(texts[ENGLISH]) == 50  # not 12 x 50
    shares = sample_for_vocabulary(texts, alpha=0.7, size=1300).shares
    assert shares == pytest.approx({lang: 1 / 13 for lang in CORE})


def test_a_group_share_fixes_the_group_total_and_keeps_proportions_on_each_side() -> None:
    counts = {**SIZES, "sv": 150_000, "el": 60_000, "hi": 5_000}
    plain = smoothed_language_shares(counts, alpha=0.7)
    shares = smoothed_language_shares(counts, alpha=0.7, group=GroupShare(CORE, 0.75))
    assert sum(shares[lang] for lang in CORE) == pytest.approx(0.75)
    assert sum(shares.values()) == pytest.approx(1.0)
    assert sum(plain[lang] for lang in CORE) < 0.75  # the newcomers took rows alpha alone gave them
    # within each side the alpha-smoothed proportions stay
    assert shares["fr"] / shares["de"] == pytest.approx(plain["fr"] / plain["de"])
    assert shares["sv"] / shares["hi"] == pytest.approx(plain["sv"] / plain["hi"])
    drawn = sample_by_language(
        {lang: [f"{lang}{i}" for i in range(n)] for lang, n in counts.items()},
        0.7,
        4_000,
        group=GroupShare(CORE, 0.75),
    )
    assert sum(len(drawn[lang]) for lang in CORE) == 3_000


def test_a_group_share_changes_nothing_when_one_side_has_no_text() -> None:
    only_core = smoothed_language_shares(SIZES, alpha=0.7)
    assert smoothed_language_shares(SIZES, 0.7, GroupShare(CORE, 0.5)) == pytest.approx(only_core)
    assert smoothed_language_shares({"sv": 3, "el": 1}, 0.7, GroupShare(CORE, 0.5)) == pytest.approx(
        smoothed_language_shares({"sv": 3, "el": 1}, 0.7)
    )
    with pytest.raises(ValueError, match="share"):
        GroupShare(CORE, 0.0)
    everything = smoothed_language_shares({"en": 9, "sv": 1}, 1.0, GroupShare(CORE, 1.0))
    assert everything == {"en": 1.0, "sv": 0.0}


def test_a_script_floor_raises_lone_scripts_and_keeps_every_other_proportion() -> None:
    """Hebrew, Thai and Hindi write scripts no other language writes: the floor raises each script to its
    least share; the scripts above it give the difference in proportion, each keeping its languages' ratios."""
    counts = {**SIZES, "sv": 150_000, "cs": 90_000, "uk": 40_000, "he": 12_000, "th": 8_000, "hi": 9_000}
    scripts = {"he": "Hebrew", "th": "Thai", "hi": "Devanagari", "ru": "Cyrillic", "uk": "Cyrillic"}
    scripts |= {lang: "Latin" for lang in ("en", "fr", "de", "es", "it", "nl", "pl", "pt", "tr", "sv", "cs")}
    floor = ShareFloor(scripts, 0.05)
    plain = smoothed_language_shares(counts, 0.3, GroupShare(CORE, 0.65))
    lifted = smoothed_language_shares(counts, 0.3, GroupShare(CORE, 0.65), floor)
    assert sum(lifted.values()) == pytest.approx(1.0)
    for lang in ("he", "th", "hi"):
        assert plain[lang] < 0.05 and lifted[lang] == pytest.approx(0.05)
    assert lifted["ru"] + lifted["uk"] >= 0.05
    assert lifted["ru"] / lifted["uk"] == pytest.approx(plain["ru"] / plain["uk"])
    assert lifted["fr"] / lifted["sv"] == pytest.approx(plain["fr"] / plain["sv"])
    assert lifted["en"] / lifted["de"] == pytest.approx(plain["en"] / plain["de"])
    assert lifted["ja"] == pytest.approx(0.05)  # a language not named is a group of its own
    drawn = sample_by_language(
        {lang: [f"{lang}{i}" for i in range(n)] for lang, n in counts.items()},
        0.3,
        10_000,
        0,
        GroupShare(CORE, 0.65),
        floor,
    )
    assert len(drawn["he"]) == 500


@given(
    st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 1000), min_size=1),
    st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from("XYZ")),
    st.floats(0.01, 0.3),
)
def test_a_floor_keeps_a_distribution_and_every_group_reaches_it(
    counts: dict[str, int], groups: dict[str, str], share: float
) -> None:
    if not any(counts.values()):
        return
    shares = smoothed_language_shares(counts, 0.5)
    floor = ShareFloor(groups, share)
    n_groups = len({groups.get(lang, lang) for lang in shares})
    if share * n_groups > 1.0:
        with pytest.raises(ValueError, match="groups cannot each get"):
            floor.apply(shares)
        return
    lifted = floor.apply(shares)
    assert sum(lifted.values()) == pytest.approx(1.0)
    assert all(p >= 0 for p in lifted.values())
    totals: dict[str, float] = {}
    for lang, p in lifted.items():
        totals[groups.get(lang, lang)] = totals.get(groups.get(lang, lang), 0.0) + p
    assert all(t >= share - 1e-9 for t in totals.values())
    if all(t >= share for t in _totals(shares, groups).values()):
        assert lifted == pytest.approx(shares)  # nothing under the floor: nothing moves


def _totals(shares: dict[str, float], groups: dict[str, str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for lang, p in shares.items():
        out[groups.get(lang, lang)] = out.get(groups.get(lang, lang), 0.0) + p
    return out


def test_a_floor_outside_zero_and_one_is_refused() -> None:
    for bad in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="floor's share"):
            ShareFloor({}, bad)
