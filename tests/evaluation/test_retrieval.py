from __future__ import annotations

import numpy as np
import pytest

from lingualite.evaluation.retrieval import csls_scores, precision_at_k, xsr_from_similarity, xsr_scores


def test_precision_at_k_by_hand() -> None:
    # Query 0: right answer ranked 1st; query 1: 2nd; query 2: 3rd.
    scores = np.array([[0.9, 0.1, 0.0], [0.8, 0.5, 0.1], [0.7, 0.6, 0.2]])
    assert precision_at_k(scores, (1, 2, 3)) == {1: pytest.approx(1 / 3), 2: pytest.approx(2 / 3), 3: 1.0}


def test_csls_by_hand() -> None:
    sim = np.array([[0.9, 0.8], [0.7, 0.1]])
    # k = 1: r_src = row max = [0.9, 0.7]; r_tgt = column max = [0.9, 0.8]
    expected = 2 * sim - np.array([[0.9], [0.7]]) - np.array([[0.9, 0.8]])
    np.testing.assert_allclose(csls_scores(sim, k=1), expected)


def test_xsr_reports_both_directions_and_their_mean() -> None:
    sim = np.array([[1.0, 0.0], [0.9, 0.5]])  # src 1 picks tgt 0 (wrong); tgt 1 picks src 1 (right)
    r = xsr_from_similarity(sim, ks=(1,))
    assert r["src2tgt_p_at_1"] == 0.5 and r["tgt2src_p_at_1"] == 1.0 and r["p_at_1"] == 0.75


def test_identical_embeddings_retrieve_perfectly() -> None:
    x = np.random.default_rng(0).normal(size=(50, 8))
    assert xsr_scores(x, x)["p_at_1"] == 1.0
    assert xsr_scores(x, x, method="csls")["p_at_1"] == 1.0
