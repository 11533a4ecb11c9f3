"""STS: correlations against hand-computed values and against sentence-transformers' evaluator."""

from __future__ import annotations

import math
import random

import pytest

from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.evaluation.sts import evaluate_sts

# Pairs with cosines 1 (a scaled copy), 0, 0.6 and -1.
VECTORS = {
    "a": [1, 0],
    "a2": [2, 0],
    "b": [0, 1],
    "c": [0.6, 0.8],
    "d": [-1, 0],
}
S1 = ["a", "a", "a", "a"]
S2 = ["a2", "b", "c", "d"]


def test_hand_computed_correlations(fake_encoder) -> None:
    gold = [1.0, 2.0, 3.0, 4.0]
    out = evaluate_sts(fake_encoder(VECTORS), S1, S2, gold)
    # cosines [1, 0, 0.6, -1] rank [4, 2, 3, 1]; gold ranks [1, 2, 3, 4]: sum d^2 = 18, rho = 1 - 6*18/(4*15)
    assert out["spearman"] == pytest.approx(-0.8)
    # Pearson: deviations dx = [.85, -.15, .45, -1.15], dy = [-1.5, -.5, .5, 1.5]
    assert out["pearson"] == pytest.approx(-2.7 / math.sqrt(2.27 * 5), abs=1e-6)
    assert out["num_pairs"] == 4


def test_perfect_and_inverse_agreement(fake_encoder) -> None:
    enc = fake_encoder(VECTORS)
    up = evaluate_sts(enc, ["a", "a", "a"], ["a2", "b", "d"], [5.0, 2.5, 0.0])
    assert up["spearman"] == pytest.approx(1.0) and up["pearson"] == pytest.approx(1.0)
    down = evaluate_sts(enc, ["a", "a", "a"], ["a2", "b", "d"], [0.0, 2.5, 5.0])
    assert down["spearman"] == pytest.approx(-1.0) and down["pearson"] == pytest.approx(-1.0)


def test_constant_cosine_gives_nan(fake_encoder) -> None:
    out = evaluate_sts(fake_encoder(VECTORS), ["a", "b"], ["a2", "b"], [1.0, 2.0])
    assert math.isnan(out["spearman"]) and math.isnan(out["pearson"])


@pytest.mark.parametrize(
    ("s1", "s2", "scores", "match"),
    [
        (["a", "a"], ["b"], [1.0, 2.0], "one gold score per sentence pair"),
        (["a"], ["b"], [1.0], "at least 2 sentence pairs"),
        (["a", "a"], ["b", "c"], [3.0, 3.0], "two distinct scores"),
        (["a", "a"], ["b", "c"], [1.0, float("nan")], "finite"),
    ],
)
def test_invalid_input_rejected_before_encoding(s1, s2, scores, match) -> None:
    class Exploding:
        name = "boom"

        def encode(self, texts):  # pragma: no cover - must not be reached
            raise AssertionError("encoded before validating")

    with pytest.raises(ValueError, match=match):
        evaluate_sts(Exploding(), s1, s2, scores)


def test_tfidf_encoder() -> None:
    s1 = ["the cat sleeps", "a red car", "the dog eats"]
    s2 = ["the cat sleeps", "a red car runs quickly", "blue houses"]
    out = evaluate_sts(TfidfEncoder(), s1, s2, [5.0, 3.0, 0.0])
    assert out["spearman"] == pytest.approx(1.0)


def test_equals_embedding_similarity_evaluator(tiny_st_model, valid_pairs) -> None:
    try:
        from sentence_transformers.sentence_transformer.evaluation import EmbeddingSimilarityEvaluator
    except ImportError:  # pragma: no cover - sentence-transformers < 6
        from sentence_transformers.evaluation import EmbeddingSimilarityEvaluator

    en, fr = valid_pairs
    rng = random.Random(0)
    s2 = fr[:60] + rng.sample(fr, 60)  # aligned pairs and random pairs
    gold = [rng.uniform(3, 5) for _ in range(60)] + [rng.uniform(0, 3) for _ in range(60)]
    encoder = SentenceTransformerEncoder(tiny_st_model)
    ours = evaluate_sts(encoder, en[:120], s2, gold)
    theirs = EmbeddingSimilarityEvaluator(en[:120], s2, gold, main_similarity="cosine", write_csv=False)(
        encoder.model
    )
    assert 0.0 < abs(ours["spearman"]) < 1.0
    assert ours["spearman"] == pytest.approx(theirs["spearman_cosine"], abs=1e-5)
    assert ours["pearson"] == pytest.approx(theirs["pearson_cosine"], abs=1e-5)
