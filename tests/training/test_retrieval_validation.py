"""The shared XSR validation: P@1 per file and mean, and for Matryoshka runs the mean at shorter sizes."""

from __future__ import annotations

import numpy as np

from lingualite.training.retrieval_validation import RetrievalValidation
from lingualite.vectors.retrieval import xsr_scores


def test_prefix_sizes_are_scored_on_renormalised_prefixes() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(20, 8)).astype(np.float32)
    b = a + rng.normal(scale=2.0, size=a.shape).astype(np.float32)  # noisy "translations"
    scores = RetrievalValidation([], lambda m, t: None, dims=[8, 4, 2]).scores([("en-fr", a, b)])
    assert scores["valid_xsr_p_at_1"] == scores["valid_xsr_p_at_1/en-fr"] == xsr_scores(a, b)["p_at_1"]
    assert scores["valid_xsr_p_at_1@4"] == xsr_scores(a[:, :4], b[:, :4])["p_at_1"]
    assert "valid_xsr_p_at_1@8" not in scores and "valid_xsr_p_at_1@2" in scores  # the full size once
    assert set(RetrievalValidation([], lambda m, t: None).scores([("x", a, b)])) == {
        "valid_xsr_p_at_1/x",
        "valid_xsr_p_at_1",
    }
