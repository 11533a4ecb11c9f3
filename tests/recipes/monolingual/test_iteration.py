"""What an iteration logs about its mined pairs (issue #16): true precision overall and at last time's count."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from lingualite.mining.pseudo_pairs import MinedPairs
from lingualite.recipes.monolingual.iteration import mined_summary
from lingualite.recipes.monolingual.truth import TranslationTruth

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def test_true_precision_at_the_previous_count_takes_the_best_scored_pairs_per_language_pair() -> None:
    # sentences 0-3 English, 4-7 French, 8-9 German; i and i + 4 translate each other, as do 0/8 and 1/9
    keys = [frozenset({i % 4, 100 + i}) for i in range(8)] + [frozenset({0}), frozenset({1})]
    language = np.array([0] * 4 + [1] * 4 + [2] * 2)
    truth = TranslationTruth(keys, language, ["en", "fr", "de"])
    corpus = SimpleNamespace(languages=["en", "fr", "de"])
    a = np.array([0, 1, 2, 3, 0, 1])
    b = np.array([4, 6, 7, 7, 8, 8])  # en-fr: right, wrong, wrong, right; en-de: right, wrong
    score = np.array([3.0, 1.0, 2.0, 4.0, 1.0, 2.0])
    mined = MinedPairs(a, b, language[a], language[b], score, np.ones(6, np.float32))
    out = mined_summary(mined, corpus, truth, previous={"en-fr": 2, "en-de": 1})
    assert out["mined_per_language_pair"] == {"en-fr": 4, "en-de": 2}
    assert out["mined_true_precision"] == 0.5
    # en-fr's best 2 by score: rows 3 (right) and 0 (right); en-de's best 1: row 5 (wrong)
    assert out["mined_true_precision_same_count"] == round(2 / 3, 4)
    assert "mined_true_precision_same_count" not in mined_summary(mined, corpus, truth)
