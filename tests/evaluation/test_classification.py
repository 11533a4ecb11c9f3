"""Zero-shot classification (MLDoc protocol): separable and hand-computed cases, seeds, TF-IDF, validation."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.core.errors import ConfigError
from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.evaluation.classification import evaluate_classification


def _clustered(fake_encoder, n_train: int = 200, n_test: int = 20, noise: float = 0.01, seed: int = 0):
    """Two classes around (1, 0) and (0, 1); 'en' train, 'en'/'de' tests with their own texts. (No pure-noise
    dimension: standardising would blow it up to the scale of the signal.)"""
    rng = np.random.default_rng(seed)
    centres = {"sport": np.array([1.0, 0.0]), "money": np.array([0.0, 1.0])}
    vectors: dict[str, np.ndarray] = {}

    def make(prefix: str, n: int) -> tuple[list[str], list[str]]:
        labels = [("sport", "money")[i % 2] for i in range(n)]
        texts = [f"{prefix}-{i}" for i in range(n)]
        for text, label in zip(texts, labels, strict=True):
            vectors[text] = centres[label] + rng.normal(scale=noise, size=2)
        return texts, labels

    data = make("en-train", n_train), {"en": make("en-test", n_test), "de": make("de-test", n_test)}
    return fake_encoder(vectors), *data


@pytest.mark.parametrize("classifier", ["logreg", "mlp"])
def test_separable_case_is_perfect(fake_encoder, classifier) -> None:
    encoder, train, tests = _clustered(fake_encoder)
    out = evaluate_classification(encoder, train, tests, classifier=classifier, seeds=2, max_iter=40)
    assert out["accuracy"] == 1.0 and out["accuracy_std"] == pytest.approx(0.0, abs=1e-12)
    assert out["macro_f1"] == 1.0
    assert out["per_test"]["de"] == {
        "accuracy": 1.0,
        "accuracy_std": 0.0,
        "macro_f1": 1.0,
        "macro_f1_std": 0.0,
        "num_docs": 20,
    }
    assert out["classifier"] == classifier and out["seeds"] == 2 and out["num_train"] == 200


def test_known_confusion_logreg(fake_encoder) -> None:
    a, b = [1.0, 0.0], [0.0, 1.0]
    vectors = {f"train-a{i}": a for i in range(5)} | {f"train-b{i}": b for i in range(5)}
    # Test: 5 'a' documents, 2 of them embedded like 'b'; 5 'b' documents, 1 embedded like 'a'.
    test_vectors = [a, a, a, b, b] + [b, b, b, b, a]
    vectors |= {f"test{i}": v for i, v in enumerate(test_vectors)}
    train = (list(vectors)[:10], ["a"] * 5 + ["b"] * 5)
    test = ([f"test{i}" for i in range(10)], ["a"] * 5 + ["b"] * 5)
    out = evaluate_classification(fake_encoder(vectors), train, {"xx": test}, seeds=3)
    assert out["accuracy"] == pytest.approx(0.7)
    # F1(a) = 2PR/(P+R) with P = 3/4, R = 3/5 -> 2/3; F1(b): P = 4/6, R = 4/5 -> 8/11
    assert out["macro_f1"] == pytest.approx((2 / 3 + 8 / 11) / 2)
    assert out["accuracy_std"] == pytest.approx(0.0, abs=1e-12)  # lbfgs is deterministic


def test_mlp_seeds_give_a_standard_deviation(fake_encoder) -> None:
    encoder, train, tests = _clustered(fake_encoder, n_test=60, noise=0.8)
    out = evaluate_classification(encoder, train, tests, classifier="mlp", seeds=3, max_iter=30)
    assert out["accuracy_std"] > 0.0
    assert 0.5 < out["accuracy"] < 1.0
    per = out["per_test"]
    assert out["accuracy"] == pytest.approx((per["en"]["accuracy"] + per["de"]["accuracy"]) / 2)


def test_tfidf_encoder_sparse() -> None:
    sport = ["football goal match", "the team won the match", "a goal in the final", "tennis match point"]
    money = ["stock market prices", "the bank raised rates", "market shares fell", "prices and inflation"]
    train = (sport + money, ["sport"] * 4 + ["money"] * 4)
    test = (["a football team", "stock prices"], ["sport", "money"])
    logreg = evaluate_classification(TfidfEncoder(), train, {"en": test}, seeds=1)
    assert logreg["accuracy"] == 1.0 and logreg["per_test"]["en"]["num_docs"] == 2
    bigger = (train[0] * 3, train[1] * 3)  # the MLP holds out 10% for early stopping
    mlp = evaluate_classification(
        TfidfEncoder(), bigger, {"en": test}, classifier="mlp", seeds=1, max_iter=20
    )
    assert 0.0 <= mlp["accuracy"] <= 1.0 and mlp["num_train"] == 24


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"classifier": "svm"}, ConfigError, "classifier must be one of"),
        ({"seeds": 0}, ConfigError, "seeds must be >= 1"),
        ({"max_iter": 0}, ConfigError, "max_iter must be >= 1"),
        ({"tests": {"de": (["x"], ["other"])}}, ValueError, r"label\(s\) \['other'\] that never occur"),
        ({"tests": {"de": (["x", "y"], ["a"])}}, ValueError, "2 texts but 1 labels"),
        ({"tests": {}}, ValueError, "no test set"),
        ({"train": (["x", "y"], ["a", "a"])}, ValueError, "at least 2 classes"),
        ({"classifier": "mlp"}, ValueError, "early stopping"),
    ],
)
def test_invalid_input_rejected_before_encoding(kwargs, error, match) -> None:
    class Exploding:
        name = "boom"

        def encode(self, texts):  # pragma: no cover - must not be reached
            raise AssertionError("encoded before validating")

    args = {"train": (["x", "y", "z", "w"], ["a", "b", "a", "b"]), "tests": {"de": (["x"], ["a"])}} | kwargs
    with pytest.raises(error, match=match):
        evaluate_classification(Exploding(), **args)
