"""The vocabulary's training sample follows p_l ~ n_l^alpha (paper 002: alpha = 0.7)."""

from __future__ import annotations

import pytest

from lingualite.tokenization import SPECIAL_TOKENS
from lingualite.tokenization.vocabulary import build_vocabulary, sample_for_vocabulary

SIZES = {"en": 8000, "fr": 2000, "de": 500, "es": 125}


def _texts() -> dict[str, list[str]]:
    words = {
        "en": "cat dog house",
        "fr": "chat chien maison",
        "de": "katze hund haus",
        "es": "gato perro casa",
    }
    return {lang: [f"{words[lang]} {i}" for i in range(n)] for lang, n in SIZES.items()}


@pytest.mark.parametrize("alpha", [0.7, 0.3, 1.0])
def test_sampled_counts_follow_smoothed_shares(alpha: float) -> None:
    total = 20_000
    sample = sample_for_vocabulary(_texts(), alpha=alpha, size=total, seed=1)
    weights = {lang: n**alpha for lang, n in SIZES.items()}  # by hand: n_l^alpha / sum_k n_k^alpha
    expected = {lang: w / sum(weights.values()) for lang, w in weights.items()}
    counts, texts = sample.counts, _texts()
    assert sum(counts.values()) == pytest.approx(total, abs=len(SIZES))
    for lang in SIZES:
        assert counts[lang] / total == pytest.approx(expected[lang], abs=1e-4), lang
        # and the drawn sentences really are that language's
        assert set(sample.sentences[lang]) <= set(texts[lang])


def test_smoothing_moves_shares_towards_small_languages() -> None:
    raw = sample_for_vocabulary(_texts(), alpha=1.0, size=10_000).counts
    smoothed = sample_for_vocabulary(_texts(), alpha=0.7, size=10_000).counts
    assert smoothed["es"] > raw["es"] and smoothed["en"] < raw["en"]
    # es has 125 sentences but gets more than that: drawn with replacement
    assert smoothed["es"] > SIZES["es"]


def test_build_vocabulary_returns_a_wordpiece_tokenizer_and_its_sample() -> None:
    tokenizer, sample = build_vocabulary(_texts(), size=300, kind="wordpiece", alpha=0.7, sample_size=3000)
    assert len(tokenizer) <= 300 and all(t in tokenizer.get_vocab() for t in SPECIAL_TOKENS)
    assert sum(sample.counts.values()) == pytest.approx(3000, abs=len(SIZES))
    ids = tokenizer("gato perro casa 7")["input_ids"]
    assert tokenizer.unk_token_id not in ids[1:-1]


def test_whole_lines_reach_the_vocabulary_however_the_draw_falls() -> None:
    texts = {"en": [f"cat dog {i}" for i in range(500)], "ko": [f"집 {i}" for i in range(500)]}
    texts["ko"].append("뚜껑")  # one line in 501: a sample of 40 almost surely misses it
    plain, sample = build_vocabulary(texts, size=200, kind="wordpiece", sample_size=40, seed=1)
    assert "뚜껑" not in [s for lines in sample.sentences.values() for s in lines]
    assert plain.unk_token_id in plain("뚜껑")["input_ids"]
    tok, sample = build_vocabulary(
        texts, size=200, kind="wordpiece", sample_size=40, seed=1, whole={"ko": ["뚜껑"]}
    )
    assert sample.whole == {"ko": ["뚜껑"]} and sum(sample.counts.values()) == pytest.approx(40, abs=2)
    assert tok.unk_token_id not in tok("뚜껑")["input_ids"]  # both syllables, the second as a word piece


def test_characters_the_draw_missed_join_with_a_sentence_when_the_text_holds_them_often_enough() -> None:
    texts = {"en": [f"cat dog {i}" for i in range(500)], "zh": [f"我 {i}" for i in range(500)]}
    texts["zh"] += ["我吃麵", "麵好吃", "樓"]  # 麵 twice, 樓 once: a draw of 40 almost surely misses both
    plain, sample = build_vocabulary(texts, size=200, kind="wordpiece", sample_size=40, seed=1)
    assert sample.for_alphabet is None and plain.unk_token_id in plain("麵")["input_ids"]
    tok, sample = build_vocabulary(
        texts, size=200, kind="wordpiece", sample_size=40, seed=1, alphabet_min_count=2
    )
    assert sample.for_alphabet == {"zh": ["我吃麵"]}  # one sentence for 麵 and 吃; 樓 is under the count
    assert tok.unk_token_id not in tok("麵")["input_ids"]
    assert tok.unk_token_id in tok("樓")["input_ids"]
