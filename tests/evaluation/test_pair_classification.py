"""Pair classification (paper 001's XNLI protocol): features by hand, zero-shot transfer, seeds, TF-IDF."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.core.errors import ConfigError
from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.evaluation.pair_classification import evaluate_pair_classification, pair_features


def test_pair_features_by_hand() -> None:
    feats = pair_features(np.array([[3.0, 4.0]]), np.array([[2.0, 0.0]]))
    # u = (0.6, 0.8), v = (1, 0): [u, v, u * v, |u - v|]
    np.testing.assert_allclose(feats, [[0.6, 0.8, 1.0, 0.0, 0.6, 0.0, 0.4, 0.8]], rtol=1e-6)
    with pytest.raises(ValueError, match="differ in shape"):
        pair_features(np.zeros((2, 3)), np.zeros((2, 4)))


def _nli(fake_encoder, n_train: int = 300, n_test: int = 60, noise: float = 0.0, seed: int = 0):
    """XNLI-like pairs over 6 random 'meanings': v = u (entailment), -u (contradiction), another (neutral).
    Each language has its own texts; 'de' texts mean the same vectors as 'en' ones."""
    rng = np.random.default_rng(seed)
    meanings = rng.normal(size=(6, 8))
    vectors: dict[str, np.ndarray] = {}

    def make(lang: str, n: int) -> tuple[list[str], list[str], list[str]]:
        s1, s2, labels = [], [], []
        for k in range(n):
            i = int(rng.integers(6))
            label = ("entailment", "contradiction", "neutral")[k % 3]
            j = (i + int(rng.integers(1, 6))) % 6
            other = {"entailment": meanings[i], "contradiction": -meanings[i], "neutral": meanings[j]}[label]
            a, b = f"{lang}-{k}-a", f"{lang}-{k}-b"
            vectors[a] = meanings[i] + rng.normal(scale=noise, size=8)
            vectors[b] = other + rng.normal(scale=noise, size=8)
            s1.append(a)
            s2.append(b)
            labels.append(label)
        return s1, s2, labels

    data = make("en", n_train), {"en": make("en-test", n_test), "de": make("de", n_test)}
    return fake_encoder(vectors), *data


def test_separable_pairs_transfer_perfectly(fake_encoder) -> None:
    encoder, train, tests = _nli(fake_encoder)
    out = evaluate_pair_classification(encoder, train, tests, seeds=2, hidden_layers=(64, 32), max_iter=50)
    assert out["accuracy"] == 1.0 and out["macro_f1"] == 1.0
    assert set(out["per_test"]) == {"en", "de"} and out["per_test"]["de"]["num_docs"] == 60
    assert out["classifier"] == "mlp(64,32)" and out["seeds"] == 2 and out["num_train"] == 300


def test_paper_architecture_and_seed_spread(fake_encoder) -> None:
    encoder, train, tests = _nli(fake_encoder, n_train=150, noise=1.2)
    out = evaluate_pair_classification(encoder, train, tests, seeds=3, max_iter=3)
    assert out["classifier"] == "mlp(512,384)"
    assert 1 / 3 < out["accuracy"] < 1.0
    assert out["accuracy_std"] > 0.0
    per = out["per_test"]
    assert out["accuracy"] == pytest.approx((per["en"]["accuracy"] + per["de"]["accuracy"]) / 2)


def test_tfidf_encoder_goes_through_svd() -> None:
    words = ["cat", "dog", "house", "car", "tree", "bird"]
    s1 = [f"the {w} sleeps" for w in words] * 4
    s2 = [f"the {w} sleeps" if k % 2 else f"a {words[(k + 1) % 6]} runs" for k, w in enumerate(words * 4)]
    labels = ["entailment" if k % 2 else "neutral" for k in range(24)]
    test = (["le chat dort", "a bird runs"], ["le chat dort", "the cat sleeps"], ["entailment", "neutral"])
    out = evaluate_pair_classification(TfidfEncoder(), (s1, s2, labels), {"xx": test}, seeds=1, max_iter=5)
    assert 0.0 <= out["accuracy"] <= 1.0 and out["per_test"]["xx"]["num_docs"] == 2


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"seeds": 0}, ConfigError, "seeds must be >= 1"),
        ({"max_iter": 0}, ConfigError, "max_iter must be >= 1"),
        ({"hidden_layers": ()}, ConfigError, "hidden_layers"),
        ({"batch_size": 0}, ConfigError, "batch_size"),
        ({"tests": {"de": (["x"], ["y"], ["maybe"])}}, ValueError, "never occur in the training set"),
        ({"tests": {"de": (["x"], ["y", "z"], ["yes"])}}, ValueError, "must align"),
        ({"train": (["x"] * 4, ["y"] * 4, ["yes", "no"] * 2)}, ValueError, "early stopping"),
    ],
)
def test_invalid_input_rejected_before_encoding(kwargs, error, match) -> None:
    class Exploding:
        name = "boom"

        def encode(self, texts):  # pragma: no cover - must not be reached
            raise AssertionError("encoded before validating")

    args = {"train": (["x"] * 30, ["y"] * 30, ["yes", "no"] * 15), "tests": {"de": (["x"], ["y"], ["yes"])}}
    with pytest.raises(error, match=match):
        evaluate_pair_classification(Exploding(), **(args | kwargs))
