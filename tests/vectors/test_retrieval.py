from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from lingualite.vectors.retrieval import (
    csls_scores,
    gold_ranks,
    knn_mean_cosine,
    margin_scores,
    method_scores,
    normalize_rows,
    precision_at_k,
    precision_from_ranks,
    xsr_from_similarity,
    xsr_scores,
)


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


def test_margin_by_hand() -> None:
    sim = np.array([[0.9, 0.8], [0.7, 0.1]])
    # k = 1: r_rows = [0.9, 0.7]; r_cols = [0.9, 0.8]; margin = cos / ((r_row + r_col) / 2)
    expected = np.array([[0.9 / 0.9, 0.8 / 0.85], [0.7 / 0.8, 0.1 / 0.75]])
    np.testing.assert_allclose(margin_scores(sim, k=1), expected, rtol=1e-6)


def test_margin_with_k2_uses_two_neighbours() -> None:
    sim = np.array([[0.9, 0.8, 0.1], [0.7, 0.1, 0.3], [0.2, 0.5, 0.6]])
    r_rows = np.array([0.85, 0.5, 0.55])
    r_cols = np.array([0.8, 0.65, 0.45])
    np.testing.assert_allclose(margin_scores(sim, k=2), sim / ((r_rows[:, None] + r_cols[None, :]) / 2))


def test_unknown_method_is_rejected() -> None:
    with pytest.raises(ValueError, match="choose from nn, csls, margin"):
        method_scores(np.eye(2), "cosine")


@pytest.mark.parametrize("method", ["nn", "csls", "margin"])
def test_gold_ranks_match_the_square_protocol(method: str) -> None:
    rng = np.random.default_rng(1)
    src = rng.normal(size=(40, 16)).astype(np.float32)
    tgt = src + rng.normal(scale=1.2, size=src.shape).astype(np.float32)
    square = method_scores(normalize_rows(src) @ normalize_rows(tgt).T, method)
    expected = precision_at_k(square, (1, 5))
    ranks = gold_ranks(src, tgt, np.arange(40), method, block=7)  # blocks smaller than the pool
    assert 0.0 < expected[1] < 1.0
    assert precision_from_ranks(ranks, (1, 5)) == {"p_at_1": expected[1], "p_at_5": expected[5]}


def test_gold_ranks_sparse_equals_dense() -> None:
    rng = np.random.default_rng(2)
    q = rng.random((20, 30)) * (rng.random((20, 30)) < 0.3)
    p = rng.random((50, 30)) * (rng.random((50, 30)) < 0.3)
    gold = rng.choice(50, 20, replace=False)
    for method in ("nn", "csls", "margin"):
        dense = gold_ranks(q, p, gold, method)
        np.testing.assert_array_equal(
            gold_ranks(sparse.csr_matrix(q), sparse.csr_matrix(p), gold, method), dense
        )


def test_gold_ranks_count_ties_against_the_query() -> None:
    q = np.array([[1.0, 0.0]])
    p = np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]])  # rows 0 and 1 have the same cosine
    assert gold_ranks(q, p, np.array([0]))[0] == 1
    assert gold_ranks(q, p, np.array([2]))[0] == 2


def test_knn_mean_cosine_by_hand() -> None:
    q = np.array([[1.0, 0.0]])
    base = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    assert knn_mean_cosine(q, base, 2)[0] == pytest.approx((1.0 + 2**-0.5) / 2)
    assert knn_mean_cosine(sparse.csr_matrix(q), sparse.csr_matrix(base), 2)[0] == pytest.approx(
        (1.0 + 2**-0.5) / 2
    )


def test_too_few_candidates_are_not_reported_as_perfect() -> None:
    import pytest as _pytest

    from lingualite.vectors.retrieval import xsr_from_similarity

    with _pytest.raises(ValueError, match="at least 2 pairs"):
        xsr_from_similarity(np.ones((1, 1)))
    out = xsr_from_similarity(np.array([[0.1, 0.9, 0.0], [0.8, 0.2, 0.0], [0.0, 0.0, 1.0]]))
    assert "p_at_5" not in out and "p_at_10" not in out
    assert out["p_at_1"] == _pytest.approx(1 / 3)


def test_gold_ranks_on_the_torch_path_equal_the_numpy_ones() -> None:
    """A GPU ranks with torch (lingualite.vectors.retrieval: gpu=...); forced onto the CPU the ranks are the same."""
    import torch

    rng = np.random.default_rng(5)
    queries = rng.normal(size=(40, 16)).astype(np.float32)
    pool = np.concatenate([queries + 0.8 * rng.normal(size=queries.shape), rng.normal(size=(300, 16))])
    gold = np.arange(40)
    for method in ("nn", "csls", "margin"):
        expected = gold_ranks(queries, pool.astype(np.float32), gold, method, block=64)
        got = gold_ranks(queries, pool.astype(np.float32), gold, method, block=64, gpu=torch.device("cpu"))
        np.testing.assert_array_equal(got, expected)
